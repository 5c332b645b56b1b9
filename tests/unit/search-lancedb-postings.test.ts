/**
 * Two ways the keyword index reads fewer postings (lib/search/lancedb/keyword-segment.ts), each checked against the
 * plain reading on the same segment, and the conformance suite passed with each forced on everywhere:
 * - a search restricted to some fields (attributesToSearchOn, autocomplete) reads postings derived for those fields
 *   instead of checking every posting's field mask (by default only when they keep at most a quarter of them);
 * - a later query word is looked up for the first word's documents by galloping through its postings instead of
 *   reading them all (by default only when they outnumber those documents twelve to one).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  KeywordSegment,
  setGallopRatio,
  setRestrictedPostingsShare,
  type QueryWord,
  type SegmentParts,
} from "@/lib/search/lancedb/keyword-segment";
import { LanceDbEngine } from "@/lib/search/lancedb/engine";
import { addToSegment, segmentBuilder } from "@/lib/search/lancedb/live-index";
import { LocalHashEmbedder } from "@/lib/search/embedders/local-hash";
import { buildIndexBatch } from "@/lib/search/batch";
import { SEARCHABLE_ATTRIBUTES, AUTOCOMPLETE_DEFAULTS } from "@/lib/search/index-settings";
import type { JudgmentRow } from "@/lib/search/document";
import { runConformance } from "../search-conformance/suite";
import { FIXTURE_ROWS, fixtureId } from "../search-conformance/fixture";

const dirs: string[] = [];
afterAll(() => {
  setRestrictedPostingsShare(null);
  setGallopRatio(null);
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

/** The fixture plus 300 generated judgments: common words in most of them, rare ones in a few. */
async function segmentParts(): Promise<SegmentParts> {
  const common = ["appeal", "sentence", "robbery", "knife", "custody"];
  const rare = ["quokka", "wombat", "kangaroo"];
  const rows: JudgmentRow[] = Array.from({ length: 300 }, (_, i) => ({
    ...FIXTURE_ROWS[i % FIXTURE_ROWS.length],
    id: fixtureId(50_000 + i),
    title: [common[i % 5], common[(i * 7) % 5], i % 37 === 0 ? rare[i % 3] : "", i % 3 === 0 ? "sentenced" : ""].join(" "),
    summary: i % 2 === 0 ? `the ${common[(i * 3) % 5]} of ${i % 29 === 0 ? rare[(i + 1) % 3] : "the court"}` : null,
    full_text: i % 4 === 0 ? "appeal sentence robbery custody knife" : "",
  }));
  const b = segmentBuilder();
  for (const d of (await buildIndexBatch([...FIXTURE_ROWS, ...rows], new LocalHashEmbedder())).documents) addToSegment(b, d.document);
  return b.build().parts();
}

const maskOf = (attrs: readonly string[]): number => attrs.reduce((m, a) => m | (1 << SEARCHABLE_ATTRIBUTES.indexOf(a)), 0);
const word = (text: string, prefix = false): QueryWord => ({ text, prefix, typos: true });
const QUERIES: QueryWord[][] = [
  [word("rob", true)],
  [word("appeal"), word("sen", true)],
  [word("quokka"), word("sentence")],
  [word("wombat"), word("appeal"), word("custody", true)],
  [word("kangaroo"), word("robery"), word("knife")],
  [word("sentence")],
];

function answers(parts: SegmentParts, masks: number[]): string[] {
  const seg = KeywordSegment.fromParts(parts);
  const out: string[] = [];
  for (const mask of masks) {
    for (const q of QUERIES) {
      for (const minLevel of [1, q.length]) {
        const found = seg.match(q.map((w) => seg.expand(w)), q.map(() => false), minLevel, mask);
        const rows: string[] = [];
        for (let i = 0; i < found.count; i++) rows.push(`${found.ords[i]}:${found.levels[i]}:${found.kws[i]}`);
        out.push(rows.sort().join(" "));
      }
    }
  }
  return out;
}

describe("reading fewer postings", () => {
  it("restricted postings give the same matches as checking every posting's fields", async () => {
    const parts = await segmentParts();
    const masks = [maskOf(AUTOCOMPLETE_DEFAULTS.attributesToSearchOn), maskOf(["title"]), maskOf(["summary", "keywords"])];
    setRestrictedPostingsShare(0);
    const checked = answers(parts, masks);
    setRestrictedPostingsShare(1);
    const derived = answers(parts, masks);
    setRestrictedPostingsShare(null);
    expect(derived).toEqual(checked);
    expect(checked.join(" ").split(" ").length).toBeGreaterThan(100);
  });

  it("galloping to the first word's documents gives the same matches as reading every posting", async () => {
    const parts = await segmentParts();
    // No restriction, a restriction read from derived postings, one checked posting by posting.
    const masks = [0, maskOf(["title", "summary"]), maskOf(["title"])];
    setRestrictedPostingsShare(0.5);
    setGallopRatio(Infinity);
    const read = answers(parts, masks);
    setGallopRatio(0);
    const galloped = answers(parts, masks);
    setGallopRatio(null);
    setRestrictedPostingsShare(null);
    expect(galloped).toEqual(read);
    // Rare first words with matches on common later words.
    expect(read[4].split(" ").length).toBeGreaterThan(3);
  });
});

describe("with restricted postings derived for every restriction", () => {
  runConformance("lancedb (restricted postings)", async () => {
    setRestrictedPostingsShare(1);
    setGallopRatio(null);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "search-postings-"));
    dirs.push(dir);
    return new LanceDbEngine({ dir, embedder: new LocalHashEmbedder() });
  });
});

describe("with every later word galloped", () => {
  runConformance("lancedb (galloping)", async () => {
    setRestrictedPostingsShare(null);
    setGallopRatio(0);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "search-postings-"));
    dirs.push(dir);
    return new LanceDbEngine({ dir, embedder: new LocalHashEmbedder() });
  });
});
