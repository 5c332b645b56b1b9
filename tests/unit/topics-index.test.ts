/**
 * The topics index: built from a stored run, replaced and read whole by both engines (the embedded file
 * store across two engine instances, as the launcher and the app are two processes; Meilisearch against the fake
 * server), autocomplete's topic_hits from it (and the mined topics before any run), the rebuild job, and the
 * trending ranking.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { rankTrending, guestKeyOf, TRENDING_CLICK_WEIGHT } from "@/lib/backend/topics/public";
import { rebuildTopicsIndex, TOPICS_INDEX_BOUNDS, topicsIndexOf } from "@/lib/backend/topics/index-build";
import { LocalHashEmbedder } from "@/lib/search/embedders/local-hash";
import { LanceDbEngine } from "@/lib/search/lancedb/engine";
import { TopicsFileStore } from "@/lib/search/lancedb/topics-store";
import { MeilisearchEngine } from "@/lib/search/meilisearch/adapter";
import { matchTopics } from "@/lib/search/topics-index";
import type { SearchEngine, TopicsIndex } from "@/lib/search/types";
import type { DbClient } from "@/lib/supabase/db-client";
import { FakeMeilisearch } from "@/tests/helpers/fake-meilisearch";

const RUN = "0b7a6c1e-2f43-4d5e-8a9b-0c1d2e3f4a5b";

const latest = {
  run_id: RUN,
  computed_at: "2026-11-25T01:00:00.000Z",
  topic_count: 3,
  document_count: 500,
  periods: [],
  topics: [
    { id: 0, label: "conviction, remand, trial", keywords: kw("conviction", "remand", "trial"), size: 200, coherence: 0.2, trend: "declining", slope: -0.12, weights_by_period: [] },
    { id: 1, label: "bitcoin, kryptowalut, giełda", keywords: kw("bitcoin", "kryptowalut", "giełda"), size: 14, coherence: 0.8, trend: "stable", slope: -0.05, weights_by_period: [] },
    { id: 2, label: "prison, contraband, drone", keywords: kw("prison", "contraband", "drone", "unmanned aircraft"), size: 41, coherence: 0.6, trend: "emerging", slope: 0.14, weights_by_period: [] },
  ],
} as const;

function kw(...terms: string[]) {
  return terms.map((term, i) => ({ term, weight: Math.round((0.5 / (i + 1)) * 1e6) / 1e6 }));
}

const index: TopicsIndex = topicsIndexOf(JSON.parse(JSON.stringify(latest)));

/** A DbClient whose latest_search_topics_run answers `data` (the rebuild reads nothing else). */
const dbAnswering = (data: unknown) => ({ rpc: async () => ({ data, error: null }) }) as unknown as DbClient;

describe("the index built from a stored run", () => {
  it("ids are <run_id>_<topic>, the run's counts and topics kept", () => {
    expect(index.topics.map((t) => t.id)).toEqual([`${RUN}_0`, `${RUN}_1`, `${RUN}_2`]);
    expect(index).toMatchObject({ run_id: RUN, topic_count: 3, document_count: 500, computed_at: "2026-11-25T01:00:00.000Z" });
  });

  it("topic hits: the query's words at a word start of the label or a keyword, accent-insensitive, largest first", () => {
    expect(matchTopics(index, "gielda", 5).map((h) => h.topic_id)).toEqual([`${RUN}_1`]);
    expect(matchTopics(index, "aircr", 5)).toEqual([
      { topic: "prison, contraband, drone", count: 41, topic_id: `${RUN}_2`, keywords: ["prison", "contraband", "drone", "unmanned aircraft"] },
    ]);
    expect(matchTopics(index, "unmanned airc", 5).map((h) => h.topic_id)).toEqual([`${RUN}_2`]);
    expect(matchTopics(index, "ircraft", 5)).toEqual([]);
    expect(matchTopics(index, "r", 5).map((h) => h.topic_id)).toEqual([`${RUN}_0`]);
    expect(matchTopics(index, "  ", 5)).toEqual([]);
    expect(matchTopics(null, "bitcoin", 5)).toEqual([]);
  });
});

describe("the index takes a bounded run (P-83: whatever was stored, the public index stays small)", () => {
  it("at most 30 topics of 15 keywords and 12 periods; labels, terms and periods cut to length", () => {
    const b = TOPICS_INDEX_BOUNDS;
    const topic = (id: number) => ({
      id,
      label: `Visit evil.example ${"x".repeat(5000)}`,
      keywords: Array.from({ length: 40 }, (_, i) => ({ term: `${"t".repeat(500)}${i}`, weight: 1 })),
      size: 1,
      coherence: 1,
      trend: "emerging",
      slope: 1,
      weights_by_period: Array.from({ length: 50 }, (_, i) => ({ period: `p${i}`.padEnd(400, "-"), weight: 1 })),
    });
    const big = topicsIndexOf(JSON.parse(JSON.stringify({ ...latest, topic_count: 100, topics: Array.from({ length: 100 }, (_, i) => topic(i)) })));
    expect(big.topics).toHaveLength(b.topics);
    expect(big.topic_count).toBe(b.topics);
    for (const t of big.topics) {
      expect(Array.from(t.label)).toHaveLength(b.labelChars);
      expect(t.keywords).toHaveLength(b.keywords);
      expect(t.keywords.every((k) => k.term.length === b.termChars)).toBe(true);
      expect(t.weights_by_period).toHaveLength(b.periods);
      expect(t.weights_by_period.every((w) => w.period.length === b.termChars)).toBe(true);
    }
    // A run the model computed passes untouched.
    expect(topicsIndexOf(JSON.parse(JSON.stringify(latest)))).toEqual(index);
  });

  it("a run whose topic id is outside 0-99 (a click's range) is not indexed", async () => {
    const engine = { topics: { read: async () => null, replace: async () => undefined } } as unknown as SearchEngine;
    const bad = { ...latest, topics: [{ ...latest.topics[0], id: 100 }] };
    await expect(rebuildTopicsIndex(dbAnswering(JSON.parse(JSON.stringify(bad))), engine)).rejects.toThrow();
  });
});

describe("trending", () => {
  it("ranks by slope plus a click boost of distinct clickers; ties by size", () => {
    const plain = rankTrending(index, [], 10);
    expect(plain.map((t) => t.topic_id)).toEqual([`${RUN}_2`, `${RUN}_1`, `${RUN}_0`]);
    expect(plain[0]).toMatchObject({ label: "prison, contraband, drone", clicks: 0, clickers: 0, score: 0.14 });
    // Five distinct clickers lift the stable crypto topic above the emerging one.
    const clicked = rankTrending(index, [{ topic: 1, clicks: 9, clickers: 5 }], 2);
    expect(clicked.map((t) => t.topic_id)).toEqual([`${RUN}_1`, `${RUN}_2`]);
    expect(clicked[0].score).toBeCloseTo(-0.05 + TRENDING_CLICK_WEIGHT * Math.log(6), 6);
    expect(clicked[0]).not.toHaveProperty("run_id");
  });

  it("a guest is keyed by device id, else guest cookie, else a keyed hash of the address (never the address)", () => {
    const device = "6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f";
    expect(guestKeyOf({ userId: null, deviceId: device.toUpperCase(), guestSessionId: null, address: "10.0.0.1" })).toBe(`device:${device}`);
    expect(guestKeyOf({ userId: null, deviceId: "not-a-uuid", guestSessionId: device, address: "10.0.0.1" })).toBe(`guest:${device}`);
    const a = guestKeyOf({ userId: null, deviceId: null, guestSessionId: null, address: "10.0.0.1" });
    expect(a).toMatch(/^addr:[0-9a-f]{32}$/);
    expect(a).not.toContain("10.0.0.1");
    expect(guestKeyOf({ userId: null, deviceId: null, guestSessionId: null, address: "10.0.0.2" })).not.toBe(a);
  });
});

/** The same behaviour from both engines' topics ports and autocomplete. */
function portSuite(name: string, make: () => Promise<{ engine: SearchEngine; other: () => SearchEngine; done: () => Promise<void> }>) {
  describe(`${name}: the topics port`, () => {
    let ctx: Awaited<ReturnType<typeof make>>;
    beforeEach(async () => {
      ctx = await make();
    });
    afterEach(async () => {
      await ctx.done();
    });

    it("is empty before the first run, holds a replaced index whole, and empties on null", async () => {
      expect(await ctx.engine.topics.read()).toBeNull();
      await ctx.engine.topics.replace(index);
      expect(await ctx.engine.topics.read()).toEqual(index);
      // Another instance (another process) sees the same index.
      expect(await ctx.other().topics.read()).toEqual(index);
      await ctx.engine.topics.replace({ ...index, topics: index.topics.slice(0, 1), topic_count: 1 });
      expect((await ctx.other().topics.read())?.topics).toHaveLength(1);
      await ctx.engine.topics.replace(null);
      expect(await ctx.engine.topics.read()).toBeNull();
    });

    it("rebuild follows the latest stored run and writes nothing when the index already holds it", async () => {
      expect(await rebuildTopicsIndex(dbAnswering(latest), ctx.engine)).toEqual({ run_id: RUN, changed: true });
      expect(await ctx.engine.topics.read()).toEqual(index);
      expect(await rebuildTopicsIndex(dbAnswering(latest), ctx.engine)).toEqual({ run_id: RUN, changed: false });
      expect(await rebuildTopicsIndex(dbAnswering(null), ctx.engine)).toEqual({ run_id: null, changed: true });
      expect(await ctx.engine.topics.read()).toBeNull();
    });
  });
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

portSuite("lancedb", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "topics-index-"));
  dirs.push(dir);
  const embedder = new LocalHashEmbedder();
  const engine = new LanceDbEngine({ dir, embedder });
  return { engine, other: () => new LanceDbEngine({ dir, embedder }), done: () => engine.close() };
});

portSuite("meilisearch", async () => {
  const fake = await new FakeMeilisearch("k").start();
  const make = () =>
    new MeilisearchEngine({
      config: { host: fake.url, apiKey: "k", index: "judgments", embedder: "default", timeoutMs: 5_000, taskTimeoutMs: 5_000, taskPollMs: 1 },
      embedder: new LocalHashEmbedder(),
    });
  const engine = make();
  return { engine, other: make, done: () => fake.close() };
});

describe("the embedded engine's autocomplete topic_hits", () => {
  it("come from the topics index once it holds a run", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "topics-ac-"));
    dirs.push(dir);
    const engine = new LanceDbEngine({ dir, embedder: new LocalHashEmbedder() });
    expect((await engine.autocomplete({ q: "bitc", limit: 5 })).topicHits).toEqual([]);
    await new TopicsFileStore(dir).replace(index);
    const r = await engine.autocomplete({ q: "bitc", limit: 5 });
    expect(r.topicHits).toEqual([{ topic: "bitcoin, kryptowalut, giełda", count: 14, topic_id: `${RUN}_1`, keywords: ["bitcoin", "kryptowalut", "giełda"] }]);
    await engine.close();
  });
});
