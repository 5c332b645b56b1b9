/**
 * The approximate document-vector index (lib/search/lancedb/ann.ts, P-51): an IVF partition of the in-memory
 * vectors. With every list probed the hybrid answers must be exactly the exact scan's (probed similarities are the
 * scan's, bit for bit; keyword matches get theirs wherever their list is), through upserts that add and move rows
 * and deletions that move the last row into the hole; the partition is saved in the snapshot and read back by a
 * fresh engine; and k-means recovers well-separated clusters.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { assignRows, probeLists, setAnnSettings, trainIvf } from "@/lib/search/lancedb/ann";
import { LanceDbEngine } from "@/lib/search/lancedb/engine";
import { readSnapshot } from "@/lib/search/lancedb/snapshot";
import { setScanKernelEnabled } from "@/lib/search/lancedb/scan-kernel";
import { LocalHashEmbedder } from "@/lib/search/embedders/local-hash";
import { buildIndexBatch } from "@/lib/search/batch";
import { parseIndexFilter } from "@/lib/search/filter";
import type { JudgmentRow } from "@/lib/search/document";
import { FIXTURE_ROWS, fixtureId } from "../search-conformance/fixture";

function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe("trainIvf / assignRows / probeLists", () => {
  it("assigns rows with the SIMD scan kernel exactly as the JavaScript loop does (sparse rows, ties, odd list count)", () => {
    const rand = lcg(7);
    const dim = 48;
    const rows = 301;
    const vectors = new Float32Array(rows * dim);
    for (let i = 0; i < vectors.length; i++) {
      const u = rand();
      // Sparse, with repeated values so that centroid sums tie.
      vectors[i] = u < 0.6 ? 0 : u < 0.8 ? 0.25 : rand() - 0.5;
    }
    const model = trainIvf(vectors, rows, dim, 37);
    const all = Int32Array.from({ length: rows }, (_, i) => i);
    const withKernel = new Int32Array(rows);
    assignRows(model, vectors, all, withKernel);
    const plain = new Int32Array(rows);
    setScanKernelEnabled(false);
    try {
      assignRows(model, vectors, all, plain);
      // The partition trained without the kernel is the same too (k-means assigns its sample every round).
      expect(trainIvf(vectors, rows, dim, 37).centroids).toEqual(model.centroids);
    } finally {
      setScanKernelEnabled(true);
    }
    expect(Array.from(withKernel)).toEqual(Array.from(plain));
    expect(new Set(withKernel).size).toBeGreaterThan(10);
  });

  it("recovers well-separated clusters and probes the query's own cluster first", () => {
    const dim = 32;
    const clusters = 6;
    const per = 40;
    const rnd = lcg(5);
    const rows = clusters * per;
    const vectors = new Float32Array(rows * dim);
    const truth = new Int32Array(rows);
    for (let r = 0; r < rows; r++) {
      const c = r % clusters; // interleaved, as ids are not grouped by topic
      truth[r] = c;
      let norm = 0;
      for (let d = 0; d < dim; d++) {
        const x = (d % clusters === c ? 1 : 0) + (rnd() - 0.5) * 0.1;
        vectors[r * dim + d] = x;
        norm += x * x;
      }
      for (let d = 0; d < dim; d++) vectors[r * dim + d] /= Math.sqrt(norm);
    }
    const model = trainIvf(vectors, rows, dim, clusters);
    const lists = new Int32Array(rows);
    assignRows(model, vectors, Int32Array.from({ length: rows }, (_, i) => i), lists);
    // Same partition up to renaming: rows of one true cluster share one list, different clusters different lists.
    const nameOf = new Map<number, number>();
    for (let r = 0; r < rows; r++) {
      const seen = nameOf.get(truth[r]);
      if (seen === undefined) nameOf.set(truth[r], lists[r]);
      else expect(lists[r]).toBe(seen);
    }
    expect(new Set(nameOf.values()).size).toBe(clusters);
    // Deterministic: the same input trains the same centroids.
    expect(trainIvf(vectors, rows, dim, clusters).centroids).toEqual(model.centroids);
    const q = vectors.slice(7 * dim, 8 * dim);
    const used = Int32Array.from({ length: dim }, (_, i) => i);
    expect(probeLists(model, q, used, dim, 2)[0]).toBe(lists[7]);
  });
});

// ---------------------------------------------------------------- the engine: full probe = exact

const embedder = new LocalHashEmbedder();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "search-ann-"));
const engine = new LanceDbEngine({ dir, embedder });
const POOL = ["quokka", "appeal", "sentence", "robbery", "knife", "theft", "wombat", "burglary", "kangaroo", "custody"];
const rnd = lcg(9);
const row = (n: number): JudgmentRow => ({
  ...FIXTURE_ROWS[n % FIXTURE_ROWS.length],
  id: fixtureId(40_000 + n),
  title: Array.from({ length: 2 + Math.floor(rnd() * 3) }, () => POOL[Math.floor(rnd() * POOL.length)]).join(" "),
  summary: null,
  full_text: "",
});
const MAIN = Array.from({ length: 400 }, (_, i) => row(i));
const ADDED = Array.from({ length: 25 }, (_, i) => row(1000 + i));
const MOVED = MAIN.slice(20, 30).map((r) => ({ ...r, title: `${String(r.title)} wombat custody` }));
const DELETED = [MAIN[5], MAIN[399], ADDED[3]].map((r) => String(r.id));

const QUERIES: Array<{ q: string; filter?: string; ratio: number; limit?: number; offset?: number }> = [
  { q: "quokka appeal", ratio: 0.5 },
  { q: "wombat custody", ratio: 0.9 },
  { q: "knife", ratio: 1 },
  { q: "theft robbery", ratio: 0.5, filter: "jurisdiction = PL" },
  { q: "kangaroo", ratio: 0.3, limit: 7, offset: 95 },
  { q: "no such words here", ratio: 0.5 },
];

async function answers(): Promise<string[][]> {
  const out: string[][] = [];
  for (const x of QUERIES) {
    const r = await engine.searchDocuments({
      q: x.q,
      filter: parseIndexFilter(x.filter),
      semanticRatio: x.ratio,
      limit: x.limit ?? 20,
      offset: x.offset ?? 0,
    });
    out.push(r.hits.map((h) => `${h.document.id}:${h.score}`));
  }
  return out;
}

beforeAll(async () => {
  // Trained by the full build (the threshold is below the corpus), so it is in the snapshot.
  setAnnSettings({ minRows: 100, nprobe: 4 });
  const session = await engine.sync.beginFull();
  await session.add(await buildIndexBatch([...FIXTURE_ROWS, ...MAIN], embedder));
  await session.commit({ suggestions: [] });
  await engine.sync.upsert(await buildIndexBatch([...ADDED, ...MOVED], embedder));
  await engine.sync.delete(DELETED);
});

afterEach(() => setAnnSettings({ minRows: 100, nprobe: 4 }));

afterAll(async () => {
  setAnnSettings(null);
  await engine.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("hybrid search through the IVF", () => {
  it("with every list probed, gives exactly the exact scan's answers (after upserts and deletions)", async () => {
    setAnnSettings({ minRows: Number.MAX_SAFE_INTEGER });
    const exact = await answers();
    setAnnSettings({ minRows: 100, nprobe: 1_000_000 });
    const full = await answers();
    expect(full).toEqual(exact);
    expect(exact.flat().length).toBeGreaterThan(50);
  });

  it("with few lists probed, keeps the keyword matches' scores exact and finds most of the exact top 10", async () => {
    setAnnSettings({ minRows: Number.MAX_SAFE_INTEGER });
    const exact = await answers();
    setAnnSettings({ minRows: 100, nprobe: 4 });
    const approx = await answers();
    let hit = 0;
    let total = 0;
    for (let i = 0; i < exact.length; i++) {
      const got = new Set(approx[i]);
      for (const x of exact[i].slice(0, 10)) {
        total++;
        if (got.has(x)) hit++;
      }
    }
    // A matched page entry carries the same id and the same score (similarities of probed rows are exact).
    expect(hit / total).toBeGreaterThan(0.5);
  });

  it("computes only the keyword similarities that can reach the page, and answers exactly as with all of them", async () => {
    // Many keyword matches outside the few probed lists: their bound (keyword part + ratio x the largest possible
    // similarity) decides whether a similarity is computed; the pages must be identical, scores included.
    const more = [...QUERIES, { q: "appeal", ratio: 0.2 }, { q: "sentence", ratio: 0.5, limit: 5, offset: 3 }, { q: "custody", ratio: 0.05 }];
    const run = async (): Promise<string[][]> => {
      const out: string[][] = [];
      for (const x of more) {
        const r = await engine.searchDocuments({ q: x.q, filter: parseIndexFilter(x.filter), semanticRatio: x.ratio, limit: x.limit ?? 20, offset: x.offset ?? 0 });
        out.push(r.hits.map((h) => `${h.document.id}:${h.score}`));
      }
      return out;
    };
    setAnnSettings({ minRows: 100, nprobe: 2 });
    const pruned = await run();
    setAnnSettings({ minRows: 100, nprobe: 2, everyKeywordSimilarity: true });
    const every = await run();
    expect(pruned).toEqual(every);
    expect(pruned.flat().length).toBeGreaterThan(60);
  });

  it("saves the partition in the snapshot, and a fresh engine reads it and answers alike", async () => {
    const genDir = fs.readdirSync(dir).find((f) => f.startsWith("keyword-"));
    expect(genDir).toBeDefined();
    const snap = await readSnapshot(path.join(dir, genDir as string), embedder.dimensions);
    expect(snap?.ivf).toBeDefined();
    expect(snap?.ivf?.lists.length).toBe(snap?.vecIds.length);
    const before = await answers();
    const other = new LanceDbEngine({ dir, embedder });
    try {
      const r = await other.searchDocuments({ q: QUERIES[0].q, semanticRatio: 0.5, limit: 20, offset: 0 });
      expect(r.hits.map((h) => `${h.document.id}:${h.score}`)).toEqual(before[0]);
    } finally {
      await other.close();
    }
  });
});
