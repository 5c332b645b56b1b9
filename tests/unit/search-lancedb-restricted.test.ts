/**
 * Searches restricted to some fields (attributesToSearchOn, autocomplete) read postings derived for those fields
 * (KeywordSegment.restricted, lib/search/lancedb/keyword-index.ts) instead of checking every posting's field mask:
 * the answers must be the same either way, and the conformance suite must pass with the derivation forced for every
 * restriction (by default it is made only when it keeps at most a quarter of the postings).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { KeywordSegment, setRestrictedPostingsShare, type QueryWord } from "@/lib/search/lancedb/keyword-index";
import { LanceDbEngine } from "@/lib/search/lancedb/engine";
import { addToSegment, segmentBuilder } from "@/lib/search/lancedb/live-index";
import { LocalHashEmbedder } from "@/lib/llm/embedders/local-hash";
import { buildIndexBatch } from "@/lib/search/batch";
import { SEARCHABLE_ATTRIBUTES, AUTOCOMPLETE_DEFAULTS } from "@/lib/search/index-settings";
import { runConformance } from "../search-conformance/suite";
import { FIXTURE_ROWS } from "../search-conformance/fixture";

const dirs: string[] = [];
afterAll(() => {
  setRestrictedPostingsShare(null);
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

describe("restricted postings", () => {
  it("give the same matches as checking every posting's fields", async () => {
    const b = segmentBuilder();
    for (const d of (await buildIndexBatch(FIXTURE_ROWS, new LocalHashEmbedder())).documents) addToSegment(b, d.document);
    const parts = b.build().parts();
    const maskOf = (attrs: readonly string[]): number => attrs.reduce((m, a) => m | (1 << SEARCHABLE_ATTRIBUTES.indexOf(a)), 0);
    const masks = [maskOf(AUTOCOMPLETE_DEFAULTS.attributesToSearchOn), maskOf(["title"]), maskOf(["summary", "keywords"])];
    const queries: QueryWord[][] = [
      [{ text: "rob", prefix: true, typos: true }],
      [{ text: "appeal", prefix: false, typos: true }, { text: "sen", prefix: true, typos: true }],
      [{ text: "sentence", prefix: false, typos: true }],
    ];
    const answers = (share: number): string[] => {
      setRestrictedPostingsShare(share);
      const seg = KeywordSegment.fromParts(parts);
      const out: string[] = [];
      for (const mask of masks) {
        for (const q of queries) {
          const found = seg.match(q.map((w) => seg.expand(w)), q.map(() => false), 1, mask);
          const rows: string[] = [];
          for (let i = 0; i < found.count; i++) rows.push(`${found.ords[i]}:${found.levels[i]}:${found.kws[i]}`);
          out.push(rows.sort().join(" "));
        }
      }
      return out;
    };
    const checked = answers(0);
    const derived = answers(1);
    expect(derived).toEqual(checked);
    expect(checked.join(" ").split(" ").length).toBeGreaterThan(20);
  });
});

describe("with restricted postings derived for every restriction", () => {
  setRestrictedPostingsShare(1);
  runConformance("lancedb (restricted postings)", async () => {
    setRestrictedPostingsShare(1);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "search-restricted-"));
    dirs.push(dir);
    return new LanceDbEngine({ dir, embedder: new LocalHashEmbedder() });
  });
});
