/**
 * The shared SearchEngine conformance suite (tests/search-conformance/suite.ts) run against the Meilisearch adapter
 * talking to the fake Meilisearch server (tests/helpers/fake-meilisearch/), which implements the documented HTTP
 * contract with a small in-memory engine.
 */
import { afterAll, beforeAll } from "vitest";
import { LocalHashEmbedder } from "@/lib/search/embedders/local-hash";
import { MeilisearchEngine } from "@/lib/search/meilisearch/adapter";
import { FakeMeilisearch } from "@/tests/helpers/fake-meilisearch";
import { runConformance } from "@/tests/search-conformance/suite";

let fake: FakeMeilisearch;

beforeAll(async () => {
  fake = await new FakeMeilisearch("conformance-key").start();
});

afterAll(async () => {
  await fake.close();
});

runConformance("meilisearch (fake server)", async () =>
  new MeilisearchEngine({
    config: { host: fake.url, apiKey: "conformance-key", index: "judgments", embedder: "default", timeoutMs: 10_000, taskTimeoutMs: 60_000, taskPollMs: 1 },
    embedder: new LocalHashEmbedder(),
  }),
);
