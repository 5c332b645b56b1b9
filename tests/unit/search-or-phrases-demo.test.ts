/**
 * OR between phrases on the demo corpus (its first 60 judgments without their full text, two of them planted known
 * answers), in both
 * engines: the embedded one and the Meilisearch adapter against the fake server. Known answers: "szabla kawaleryjska"
 * is only in pl-cavalry-sabre, "kusza bloczkowa" only in pl-crossbow-dugout (supabase/seed/known-answers.ts).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildIndexBatch } from "@/lib/search/batch";
import { LocalHashEmbedder } from "@/lib/search/embedders/local-hash";
import { LanceDbEngine } from "@/lib/search/lancedb/engine";
import { MeilisearchEngine } from "@/lib/search/meilisearch/adapter";
import { parseSearchQuery } from "@/lib/search/query-syntax";
import type { SearchEngine } from "@/lib/search/types";
import { FakeMeilisearch } from "@/tests/helpers/fake-meilisearch";
import { DEFAULT_CORPUS_SEED, generateJudgment } from "@/supabase/seed/generate";
import { knownAnswerId } from "@/supabase/seed/known-answers";

const embedder = new LocalHashEmbedder();
const SABRE = knownAnswerId(DEFAULT_CORPUS_SEED, "pl-cavalry-sabre");
const CROSSBOW = knownAnswerId(DEFAULT_CORPUS_SEED, "pl-crossbow-dugout");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "search-or-demo-"));
let fake: FakeMeilisearch;
const engines: Array<[string, SearchEngine]> = [];

beforeAll(async () => {
  // Without full_text: the fake server tokenises every document per query, and long judgments make it time out on this
  // shared machine; the planted phrases are in the judgments' keywords and summaries too.
  const rows = Array.from({ length: 60 }, (_, i) => ({ ...generateJudgment(DEFAULT_CORPUS_SEED, i), full_text: "" }));
  const batch = await buildIndexBatch(rows, embedder);
  fake = await new FakeMeilisearch("or-demo-key").start();
  engines.push(["lancedb", new LanceDbEngine({ dir, embedder })]);
  engines.push([
    "meilisearch (fake)",
    new MeilisearchEngine({
      config: { host: fake.url, apiKey: "or-demo-key", index: "judgments", embedder: "default", timeoutMs: 30_000, taskTimeoutMs: 60_000, taskPollMs: 1 },
      embedder,
    }),
  ]);
  for (const [, engine] of engines) {
    const session = await engine.sync.beginFull();
    await session.add(batch);
    await session.commit({ suggestions: [] });
  }
}, 300_000);

afterAll(async () => {
  for (const [, engine] of engines) await engine.close();
  await fake?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** What /api/search/documents does with the typed query (the query language), then the engine. */
async function search(engine: SearchEngine, typed: string) {
  const p = parseSearchQuery(typed);
  return engine.searchDocuments({ q: p.q, limit: 10, offset: 0, attributesToHighlight: ["keywords"] });
}

describe("OR between phrases on the demo corpus", () => {
  for (const name of ["lancedb", "meilisearch (fake)"]) {
    it(`${name}: each known answer by its phrase, both by the OR of the two, with each side marked`, async () => {
      const engine = engines.find(([n]) => n === name)![1];
      const ids = async (q: string) => (await search(engine, q)).hits.map((h) => h.document.id);
      expect(await ids('"szabla kawaleryjska"')).toEqual([SABRE]);
      expect(await ids('"kusza bloczkowa"')).toEqual([CROSSBOW]);
      const both = await search(engine, '"szabla kawaleryjska" OR "kusza bloczkowa"');
      expect(both.hits.map((h) => h.document.id).sort()).toEqual([SABRE, CROSSBOW].sort());
      const marked = (id: string) => JSON.stringify(both.hits.find((h) => h.document.id === id)?.formatted?.keywords);
      expect(marked(SABRE)).toContain("<mark>szabla</mark> <mark>kawaleryjska</mark>");
      expect(marked(CROSSBOW)).toContain("<mark>kusza</mark> <mark>bloczkowa</mark>");
      // Words of a phrase in the wrong order: that side matches nothing.
      expect(await ids('"kawaleryjska szabla" OR "bloczkowa kusza"')).toEqual([]);
      // A word and a phrase: the word's judgment(s) and the phrase's.
      expect(await ids('"kusza bloczkowa" OR sabre')).toEqual([CROSSBOW]);
    });
  }
});
