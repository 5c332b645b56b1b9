/**
 * A Meilisearch engine over the fake server holding a few rows of title and summary (the conformance fixture's other
 * fields), built by a full sync: the typo and proper-name tests start from it.
 */
import { buildIndexBatch } from "@/lib/search/batch";
import type { JudgmentRow } from "@/lib/search/document";
import { LocalHashEmbedder } from "@/lib/search/embedders/local-hash";
import { MeilisearchEngine } from "@/lib/search/meilisearch/adapter";
import { FakeMeilisearch } from "./fake-meilisearch";
import { FIXTURE_ROWS } from "../search-conformance/fixture";

export interface TitledRow {
  id: string;
  title: string;
  summary: string;
}

export async function fakeMeiliCorpus(key: string, rows: readonly TitledRow[]): Promise<{ fake: FakeMeilisearch; engine: MeilisearchEngine; close(): Promise<void> }> {
  const embedder = new LocalHashEmbedder();
  const fake = await new FakeMeilisearch(key).start();
  const engine = new MeilisearchEngine({
    config: { host: fake.url, apiKey: key, index: "judgments", embedder: "default", timeoutMs: 5_000, taskTimeoutMs: 5_000, taskPollMs: 1 },
    embedder,
  });
  const session = await engine.sync.beginFull();
  const full: JudgmentRow[] = rows.map((r) => ({ ...FIXTURE_ROWS[0], ...r, full_text: "" }));
  await session.add(await buildIndexBatch(full, embedder));
  await session.commit({ suggestions: [] });
  return {
    fake,
    engine,
    async close() {
      await engine.close();
      await fake.close();
    },
  };
}
