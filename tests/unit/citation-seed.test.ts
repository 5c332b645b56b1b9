/**
 * On the demo corpus (supabase/seed, the generator the launcher seeds from): every judgment's case
 * number and neutral citation, typed as stored or in another common form, puts that judgment first in the LanceDB
 * engine (keyword, hybrid, autocomplete). Before the fix about a fifth of them did not (their words "II", "AKa",
 * the number and the year are common to hundreds of judgments; measured 81 of 375 on the first 200 judgments).
 * A sygnatura shared by judgments of different courts pins all of them, so "first" means "among the pinned".
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildIndexBatch } from "@/lib/search/batch";
import { queryCitationKeys } from "@/lib/search/citations";
import { LanceDbEngine } from "@/lib/search/lancedb/engine";
import { LocalHashEmbedder } from "@/lib/search/embedders/local-hash";
import type { JudgmentRow } from "@/lib/search/document";
import type { SearchHit } from "@/lib/search/types";
import { DEFAULT_CORPUS_SEED, generateRange } from "@/supabase/seed/generate";

const embedder = new LocalHashEmbedder();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "citation-seed-"));
const engine = new LanceDbEngine({ dir, embedder });
const rows = [...generateRange(DEFAULT_CORPUS_SEED, 0, 200)] as unknown as JudgmentRow[];
const text = (v: unknown) => (typeof v === "string" ? v : "");

/** Other ways people type the same citation. */
function variants(v: string): string[] {
  const out = [v];
  const pl = /^([IVX]+) (\S+) (\d+)\/(\d{2})$/.exec(v);
  if (pl) out.push(`sygn. akt ${v.toLowerCase()}`, `${pl[1]}${pl[2]}${pl[3]}/20${pl[4]}`);
  const ukCase = /^(\d{4})(\d{5}) ([A-Z]\d)$/.exec(v);
  if (ukCase) out.push(`${ukCase[1]}/${ukCase[2]}/${ukCase[3]}`, v.toLowerCase());
  const neutral = /^\[(\d{4})\] (.+)$/.exec(v);
  if (neutral) out.push(`${neutral[1]} ${neutral[2].toLowerCase()}`);
  return out;
}

/** How many judgments of the corpus a query's citation names (the pinned head). */
const named = new Map<string, number>();
beforeAll(async () => {
  for (const r of rows) {
    for (const k of new Set([...queryCitationKeys(text(r.case_number)), ...queryCitationKeys(text(r.base_neutral_citation_number))])) {
      named.set(k, (named.get(k) ?? 0) + 1);
    }
  }
  const session = await engine.sync.beginFull();
  await session.add(await buildIndexBatch(rows, embedder));
  await session.commit({ suggestions: [] });
}, 120_000);

afterAll(async () => {
  await engine.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function expectPinned(q: string, id: string, hits: SearchHit[]): void {
  const [key] = queryCitationKeys(q);
  expect(key, q).toBeDefined();
  const rank = hits.findIndex((h) => h.document.id === id);
  expect(rank, q).toBeGreaterThanOrEqual(0);
  expect(rank, q).toBeLessThan(named.get(key) ?? 0);
  for (const h of hits.slice(0, rank + 1)) expect(h.score, q).toBe(1);
}

describe("citation lookup on the demo corpus", () => {
  it("every case number and neutral citation, in several forms, ranks its judgment first (keyword)", async () => {
    let checked = 0;
    for (const r of rows) {
      for (const v of [text(r.case_number), text(r.base_neutral_citation_number)]) {
        if (v === "") continue;
        for (const q of variants(v)) {
          expectPinned(q, String(r.id), (await engine.searchDocuments({ q, limit: 10, offset: 0 })).hits);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(900);
  });

  it("in hybrid search and autocomplete too", async () => {
    for (const r of rows.slice(0, 60)) {
      for (const v of [text(r.case_number), text(r.base_neutral_citation_number)]) {
        if (v === "") continue;
        const hybrid = await engine.searchDocuments({ q: v, limit: 10, offset: 0, semanticRatio: 0.5 });
        expectPinned(v, String(r.id), hybrid.hits);
        const auto = await engine.autocomplete({ q: v, limit: 10 });
        expectPinned(v, String(r.id), auto.hits);
      }
    }
  });

  it("follows incremental upserts and deletes", async () => {
    const row: JudgmentRow = { ...rows[3], case_number: "VII Ka 4321/23", base_neutral_citation_number: "VII Ka 4321/23" };
    const unseen = await engine.searchDocuments({ q: "VII Ka 4321/23", limit: 5, offset: 0 });
    expect(unseen.hits.map((h) => h.document.id)).not.toContain(row.id);
    await engine.sync.upsert(await buildIndexBatch([row], embedder));
    const found = await engine.searchDocuments({ q: "vii ka 4321/23", limit: 5, offset: 0 });
    expect(found.hits[0].document.id).toBe(row.id);
    expect(found.hits[0].score).toBe(1);
    await engine.sync.delete([String(row.id)]);
    const gone = await engine.searchDocuments({ q: "VII Ka 4321/23", limit: 5, offset: 0 });
    expect(gone.hits.map((h) => h.document.id)).not.toContain(row.id);
  });
});
