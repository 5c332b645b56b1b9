/**
 * The LanceDB adapter's keyword path picks a page by bounded top-k selection and sorts every match only when the
 * page reaches past them: every page must be exactly the slice of the fully sorted list (ties broken by id), across
 * the main and the delta segment, with and without a filter or a sort, and the total must not depend on the page.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LanceDbEngine } from "@/lib/search/lancedb/engine";
import { LocalHashEmbedder } from "@/lib/search/embedders/local-hash";
import { buildIndexBatch } from "@/lib/search/batch";
import { parseIndexFilter } from "@/lib/search/filter";
import type { SearchDocumentsRequest } from "@/lib/search/types";
import type { JudgmentRow } from "@/lib/search/document";
import { FIXTURE_ROWS, fixtureId } from "../search-conformance/fixture";

const embedder = new LocalHashEmbedder();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "search-ranking-"));
const engine = new LanceDbEngine({ dir, embedder });

// Clones with identical text score identically: their order is decided by id alone.
const clone = (i: number, title: string): JudgmentRow => ({
  ...FIXTURE_ROWS[i % FIXTURE_ROWS.length],
  id: fixtureId(20_000 + ((i * 7919) % 1000)),
  title,
  summary: null,
  full_text: "",
});
const MAIN = Array.from({ length: 40 }, (_, i) => clone(i, i % 2 ? "Appeal against sentence for quokka theft" : "Quokka sentence appeal"));
const DELTA = Array.from({ length: 20 }, (_, i) => clone(100 + i, "Quokka appeal against a sentence"));

beforeAll(async () => {
  const session = await engine.sync.beginFull();
  await session.add(await buildIndexBatch([...FIXTURE_ROWS, ...MAIN], embedder));
  await session.commit({ suggestions: [] });
  // Into the delta segment: new documents and re-indexed ones (tombstoned in the main segment).
  await engine.sync.upsert(await buildIndexBatch([...DELTA, ...MAIN.slice(0, 5).map((r) => ({ ...r, title: `${r.title} again` }))], embedder));
});

afterAll(async () => {
  await engine.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const CASES: Array<Partial<SearchDocumentsRequest> & { q: string }> = [
  { q: "quokka" },
  { q: "quokka sentence" },
  { q: "appeal sentence" },
  { q: "sentence appeal quokka", matchingStrategy: "all" },
  { q: "appeal", filter: parseIndexFilter("jurisdiction = UK") },
  { q: "quokka", sort: [{ attribute: "decision_date_ts", direction: "desc" }] },
  { q: "appeal", sort: [{ attribute: "decision_date", direction: "asc" }] },
  { q: "sentenc" },
  // One and two words have compaction loops of their own in match(): both strategies, a required (quoted) word, a filter.
  { q: "quokka theft", matchingStrategy: "all" },
  { q: "appeal \"theft\"" },
  { q: "quokka appeal", filter: parseIndexFilter("jurisdiction = UK") },
];

describe("keyword page selection", () => {
  it("every page is the slice of the fully sorted list", async () => {
    for (const c of CASES) {
      const all = await engine.searchDocuments({ limit: 1000, offset: 0, ...c });
      const ids = all.hits.map((h) => h.document.id);
      expect(ids.length).toBe(all.estimatedTotal);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.length).toBeGreaterThan(10);
      for (const [offset, limit] of [[0, 1], [0, 5], [0, 20], [3, 7], [10, 10], [ids.length - 2, 5], [ids.length, 3]]) {
        const r = await engine.searchDocuments({ ...c, offset, limit });
        expect(r.estimatedTotal).toBe(all.estimatedTotal);
        expect(r.hits.map((h) => h.document.id)).toEqual(ids.slice(offset, offset + limit));
        expect(r.hits.map((h) => h.score)).toEqual(all.hits.slice(offset, offset + limit).map((h) => h.score));
      }
    }
  });

  it("breaks ties by id", async () => {
    const r = await engine.searchDocuments({ q: "quokka sentence appeal", limit: 1000, offset: 0 });
    let tied = 0;
    for (let i = 1; i < r.hits.length; i++) {
      if (r.hits[i].score === r.hits[i - 1].score) {
        tied++;
        expect(r.hits[i - 1].document.id < r.hits[i].document.id).toBe(true);
      }
    }
    expect(tied).toBeGreaterThan(5);
  });
});
