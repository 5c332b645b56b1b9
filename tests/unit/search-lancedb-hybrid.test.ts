/**
 * The LanceDB adapter's hybrid path (semanticRatio > 0) and similar(): a column-major scan of the document vectors
 * (skipping the query's zero components) and bounded top-k selections. Every result must be what the plain algorithm
 * gives: each similarity bit for bit a sequential dot product, the semantic candidates the best max(100, offset +
 * limit) by similarity (ties by vector row, i.e. indexing order), every keyword match fused with them, ordered by
 * score then id (or the sort first), pages sliced from that list. The reference below is that plain algorithm, fed
 * from the engine's own keyword answers and the vectors the batch was built with.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LanceDbEngine } from "@/lib/search/lancedb/engine";
import { sliceBounds, topK, topKAccepted } from "@/lib/search/lancedb/top-k";
import { setScanKernelEnabled } from "@/lib/search/lancedb/scan-kernel";
import { scanRange, scanSimilarities, usedComponents, vectorColumns } from "@/lib/search/lancedb/vector-scan";
import { LocalHashEmbedder } from "@/lib/search/embedders/local-hash";
import { buildIndexBatch } from "@/lib/search/batch";
import { parseIndexFilter } from "@/lib/search/filter";
import type { HitDocument, IndexBatch, SearchDocumentsRequest, SortSpec } from "@/lib/search/types";
import type { JudgmentRow } from "@/lib/search/document";
import { FIXTURE_ROWS, fixtureId } from "../search-conformance/fixture";

/** Deterministic pseudo-random numbers (the tests must not depend on the run). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function plainDot(v: Float32Array, off: number, q: Float32Array, dim: number): number {
  let s = 0;
  for (let i = 0; i < dim; i++) s += v[off + i] * q[i];
  return s;
}

describe("scanSimilarities", () => {
  const dim = 48;
  const rows = 37;
  const rnd = lcg(7);
  const make = (zeroShare: number): Float32Array => {
    const q = new Float32Array(dim);
    for (let d = 0; d < dim; d++) q[d] = rnd() < zeroShare ? 0 : rnd() * 2 - 1;
    return q;
  };

  it("gives every row's sequential dot product bit for bit, sparse or dense query", () => {
    const vectors = new Float32Array((rows + 5) * dim); // spare capacity past the rows, as the engine grows it
    for (let i = 0; i < vectors.length; i++) vectors[i] = rnd() * 2 - 1;
    const vc = vectorColumns(vectors, rows, dim);
    expect(vc.finite).toBe(true);
    const out = new Float64Array(rows);
    for (const zeroShare of [0, 0.3, 0.9, 1]) {
      for (let t = 0; t < 5; t++) {
        const q = make(zeroShare);
        scanSimilarities(vc, q, out);
        for (let r = 0; r < rows; r++) expect(Object.is(out[r], plainDot(vectors, r * dim, q, dim))).toBe(true);
      }
    }
  });

  it("uses the SIMD kernel where there is one, and it matches the JavaScript loop bit for bit over any row range", () => {
    const vectors = new Float32Array(rows * dim);
    for (let i = 0; i < vectors.length; i++) vectors[i] = rnd() < 0.2 ? 0 : rnd() * 2 - 1;
    vectors[7] = -0;
    const simd = vectorColumns(vectors, rows, dim);
    expect(simd.kernel).not.toBeNull();
    setScanKernelEnabled(false);
    const plain = vectorColumns(vectors, rows, dim);
    setScanKernelEnabled(true);
    expect(plain.kernel).toBeNull();
    const used = new Int32Array(dim);
    const a = new Float64Array(rows);
    const b = new Float64Array(rows);
    for (const zeroShare of [0, 0.5, 0.95]) {
      for (let t = 0; t < 20; t++) {
        const q = make(zeroShare);
        const m = usedComponents(simd, q, used);
        const from = Math.floor(rnd() * rows);
        const to = from + Math.floor(rnd() * (rows - from + 1));
        a.fill(5);
        b.fill(5);
        scanRange(simd, q, used, m, a, from, to);
        scanRange(plain, q, used, m, b, from, to);
        for (let r = 0; r < rows; r++) expect(Object.is(a[r], b[r])).toBe(true);
      }
    }
  });

  it("reads every component when a stored one is not finite (Infinity times 0 is NaN)", () => {
    const vectors = new Float32Array(rows * dim);
    for (let i = 0; i < vectors.length; i++) vectors[i] = rnd() * 2 - 1;
    vectors[3 * dim + 5] = Infinity;
    vectors[9 * dim + 1] = NaN;
    const vc = vectorColumns(vectors, rows, dim);
    expect(vc.finite).toBe(false);
    const q = make(0.8);
    q[5] = 0;
    q[1] = 0;
    const out = new Float64Array(rows);
    scanSimilarities(vc, q, out);
    for (let r = 0; r < rows; r++) expect(Object.is(out[r], plainDot(vectors, r * dim, q, dim))).toBe(true);
    expect(Number.isNaN(out[3])).toBe(true);
  });
});

describe("topK", () => {
  it("is the prefix of the full sort, ties and all", () => {
    const rnd = lcg(11);
    for (let t = 0; t < 40; t++) {
      const n = 1 + Math.floor(rnd() * 300);
      // Few distinct keys: many ties, broken by the item itself.
      const key = Float64Array.from({ length: n }, () => Math.floor(rnd() * 6) / 5);
      const before = (a: number, b: number): number => key[b] - key[a] || a - b;
      const sorted = Array.from({ length: n }, (_, i) => i).sort(before);
      for (const k of [0, 1, 3, 17, 100, n - 1, n, n + 5, Infinity]) {
        const want = sorted.slice(0, Math.max(0, k));
        expect(topK(n, k, before, key)).toEqual(want);
        expect(topK(n, k, before, null)).toEqual(want);
      }
    }
  });
});

describe("topKAccepted", () => {
  it("is the prefix of the accepted items in full sort order, asking about each item at most once", () => {
    const rnd = lcg(13);
    for (let t = 0; t < 40; t++) {
      const n = 1 + Math.floor(rnd() * 400);
      const key = Float64Array.from({ length: n }, () => Math.floor(rnd() * 8) / 7);
      const before = (a: number, b: number): number => key[b] - key[a] || a - b;
      const share = [0, 0.02, 0.3, 0.9, 1][t % 5];
      const ok = Array.from({ length: n }, () => rnd() < share);
      const accepted = Array.from({ length: n }, (_, i) => i)
        .sort(before)
        .filter((i) => ok[i]);
      for (const k of [0, 1, 5, 50, 100, n, n + 1, Infinity]) {
        const asked = new Uint8Array(n);
        const got = topKAccepted(n, k, key, (a, b) => a - b, (i) => {
          asked[i]++;
          return ok[i];
        });
        expect(got).toEqual(accepted.slice(0, Math.max(0, k)));
        expect(asked.every((c) => c <= 1)).toBe(true);
      }
    }
  });

  it("asks only about the best items when most are accepted", () => {
    const n = 10_000;
    const key = Float64Array.from({ length: n }, (_, i) => (i * 7919) % 1000);
    let asked = 0;
    const got = topKAccepted(n, 100, key, (a, b) => a - b, (i) => {
      asked++;
      return i % 2 === 0;
    });
    expect(got).toHaveLength(100);
    expect(asked).toBeLessThanOrEqual(800);
  });
});

describe("sliceBounds", () => {
  it("keeps what Array.prototype.slice keeps", () => {
    const list = Array.from({ length: 12 }, (_, i) => i);
    const bounds = [0, 1, 5, 11, 12, 30, -1, -5, -12, -40, 2.7, -2.7, NaN, Infinity, -Infinity];
    for (const start of bounds) {
      for (const end of bounds) {
        const { from, to } = sliceBounds(start, end, list.length);
        expect(list.slice(from, to)).toEqual(list.slice(start, end));
      }
    }
  });
});

// ---------------------------------------------------------------- the engine against the plain algorithm

const embedder = new LocalHashEmbedder();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "search-hybrid-"));
const engine = new LanceDbEngine({ dir, embedder });

const POOL = ["quokka", "appeal", "sentence", "robbery", "knife", "theft", "wombat", "burglary", "kangaroo"];
const rnd = lcg(3);
// Few distinct titles: clones with identical text have identical vectors (ties in similarity, broken by row).
const clone = (n: number): JudgmentRow => {
  const words = Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => POOL[Math.floor(rnd() * POOL.length)]);
  return {
    ...FIXTURE_ROWS[n % FIXTURE_ROWS.length],
    id: fixtureId(30_000 + ((n * 7919) % 5000)),
    title: words.join(" "),
    summary: null,
    full_text: "",
    decision_date: rnd() < 0.1 ? null : `20${10 + Math.floor(rnd() * 14)}-0${1 + Math.floor(rnd() * 9)}-15`,
  };
};
const idOf = (r: JudgmentRow): string => String(r.id);
const MAIN = Array.from({ length: 260 }, (_, i) => clone(i));
const ADDED = Array.from({ length: 30 }, (_, i) => clone(1000 + i));
const REINDEXED: JudgmentRow[] = MAIN.slice(10, 16).map((r) => ({ ...r, title: `${String(r.title)} kangaroo appeal` }));
const DELETED = [MAIN[3], MAIN[200], ADDED[4]].map(idOf);

/** The model of the engine's vector rows: indexing order, a deleted row filled by the last (engine.removeDoc). */
const rowIds: string[] = [];
const vectorOf = new Map<string, Float32Array>();
function modelAdd(batch: IndexBatch): void {
  for (const d of batch.documents) {
    if (!vectorOf.has(d.document.id)) rowIds.push(d.document.id);
    vectorOf.set(d.document.id, Float32Array.from(d.vector));
  }
}
function modelDelete(id: string): void {
  const row = rowIds.indexOf(id);
  const last = rowIds.pop() as string;
  if (last !== id) rowIds[row] = last;
  vectorOf.delete(id);
}

beforeAll(async () => {
  const main = await buildIndexBatch([...FIXTURE_ROWS, ...MAIN], embedder);
  const session = await engine.sync.beginFull();
  await session.add(main);
  await session.commit({ suggestions: [] });
  modelAdd(main);
  // Into the delta segment: new documents and re-indexed ones; then deletions (rows move).
  const delta = await buildIndexBatch([...ADDED, ...REINDEXED], embedder);
  await engine.sync.upsert(delta);
  modelAdd(delta);
  await engine.sync.delete(DELETED);
  for (const id of DELETED) modelDelete(id);
});

afterAll(async () => {
  await engine.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const ALL = 100_000;

/** Nulls last in both directions, numbers numerically, strings by code unit (the engine's sort). */
function compareDocs(sort: readonly SortSpec[], x: HitDocument, y: HitDocument): number {
  for (const s of sort) {
    const vx = x[s.attribute];
    const vy = y[s.attribute];
    const nx = vx === null || vx === undefined;
    const ny = vy === null || vy === undefined;
    if (nx || ny) {
      if (nx && ny) continue;
      return nx ? 1 : -1;
    }
    const c = typeof vx === "number" && typeof vy === "number" ? vx - vy : String(vx) < String(vy) ? -1 : String(vx) > String(vy) ? 1 : 0;
    if (c !== 0) return s.direction === "asc" ? c : -c;
  }
  return 0;
}

interface Reference {
  ids: string[];
  scores: number[];
  total: number;
  jurisdictions: Record<string, number>;
}

/** The plain hybrid algorithm: every similarity in a map, full sorts. */
async function reference(req: SearchDocumentsRequest, ratio: number): Promise<Reference> {
  const listing = await engine.searchDocuments({ q: "", filter: req.filter, limit: ALL, offset: 0 });
  const docs = new Map(listing.hits.map((h) => [h.document.id, h.document]));
  const keyword = await engine.searchDocuments({ ...req, semanticRatio: 0, sort: undefined, limit: ALL, offset: 0 });
  const q = Float32Array.from(await embedder.embedQuery(req.q));
  const sims = new Map<string, number>();
  for (const id of rowIds) {
    if (!docs.has(id)) continue;
    sims.set(id, plainDot(vectorOf.get(id) as Float32Array, 0, q, q.length));
  }
  const byId = new Map(keyword.hits.map((h) => [h.document.id, { id: h.document.id, score: h.score }]));
  const semanticTop = [...sims.entries()].sort((a, b) => b[1] - a[1]).slice(0, Math.max(100, req.offset + req.limit));
  for (const [id] of semanticTop) if (!byId.has(id)) byId.set(id, { id, score: 0 });
  const ranked = [...byId.values()];
  for (const c of ranked) c.score = (1 - ratio) * c.score + ratio * Math.max(0, sims.get(c.id) ?? 0);
  ranked.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
  const sort = req.sort;
  if (sort && sort.length > 0) {
    ranked.sort((a, b) => compareDocs(sort, docs.get(a.id) as HitDocument, docs.get(b.id) as HitDocument) || b.score - a.score);
  }
  const counts = new Map<string, number>();
  for (const c of ranked) {
    const j = String(docs.get(c.id)?.jurisdiction);
    counts.set(j, (counts.get(j) ?? 0) + 1);
  }
  const page = ranked.slice(req.offset, req.offset + req.limit);
  return {
    ids: page.map((c) => c.id),
    scores: page.map((c) => Math.max(0, Math.min(1, c.score))),
    total: ranked.length,
    jurisdictions: Object.fromEntries([...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))),
  };
}

const CASES: Array<Partial<SearchDocumentsRequest> & { q: string }> = [
  { q: "quokka appeal" },
  { q: "sentence" },
  { q: "knife robbery", filter: parseIndexFilter("jurisdiction = UK") },
  { q: "quokka", sort: [{ attribute: "decision_date", direction: "desc" }] },
  { q: "wombat theft sentence", matchingStrategy: "all" },
  // No keyword match: the semantic candidates alone.
  { q: "xylophone" },
  // No word at all: a zero query vector, every similarity 0 (the candidates are the first rows).
  { q: "!!!" },
];
const PAGES: Array<[number, number]> = [[0, 20], [0, 5], [7, 13], [95, 10], [0, 150], [140, 30], [0, 1000]];

describe("hybrid search", () => {
  it("is the plain algorithm's answer for every page, filter, sort and ratio", async () => {
    let beyond100 = 0;
    for (const ratio of [0.5, 1, 0.3]) {
      for (const c of CASES) {
        for (const [offset, limit] of PAGES) {
          const req: SearchDocumentsRequest = { ...c, offset, limit, semanticRatio: ratio };
          const want = await reference(req, ratio);
          const got = await engine.searchDocuments(req);
          expect(got.hits.map((h) => h.document.id)).toEqual(want.ids);
          expect(got.hits.map((h) => h.score)).toEqual(want.scores);
          expect(got.estimatedTotal).toBe(Math.min(want.total, 1000));
          expect(got.semanticRatio).toBe(ratio);
          if (offset + limit > 100 && want.total > 100) beyond100++;
        }
        const req: SearchDocumentsRequest = { ...c, offset: 0, limit: 20, semanticRatio: ratio, facets: ["jurisdiction"] };
        const got = await engine.searchDocuments(req);
        expect(got.facetDistribution?.jurisdiction).toEqual((await reference(req, ratio)).jurisdictions);
      }
    }
    expect(beyond100).toBeGreaterThan(0);
  });
});

describe("similar", () => {
  it("is every other document by similarity then id", async () => {
    const jurisdictionUk = parseIndexFilter("jurisdiction = UK");
    const uk = new Set((await engine.searchDocuments({ q: "", filter: jurisdictionUk, limit: ALL, offset: 0 })).hits.map((h) => h.document.id));
    for (const id of [MAIN[0], MAIN[50], ADDED[0], REINDEXED[0], FIXTURE_ROWS[0]].map(idOf)) {
      for (const filter of [undefined, jurisdictionUk]) {
        const v = vectorOf.get(id) as Float32Array;
        const sims = rowIds
          .filter((x) => x !== id && (!filter || uk.has(x)))
          .map((x) => [x, plainDot(vectorOf.get(x) as Float32Array, 0, v, v.length)] as const)
          .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
        for (const limit of [5, 40]) {
          const got = await engine.similar({ id, limit, filter });
          expect(got.hits.map((h) => h.document.id)).toEqual(sims.slice(0, limit).map(([x]) => x));
          expect(got.hits.map((h) => h.score)).toEqual(sims.slice(0, limit).map(([, s]) => Math.max(0, Math.min(1, s))));
        }
      }
    }
  });
});
