/**
 * Typo tolerance never lets a proper name outrank the word meant: `robery` is one typo from both "robbery" and
 * "Robert", and words the documents only ever capitalise get no typo expansion (lib/search/lancedb/proper-names.ts).
 * An exact or prefix match of a name still matches.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LanceDbEngine } from "@/lib/search/lancedb/engine";
import { LocalHashEmbedder } from "@/lib/search/embedders/local-hash";
import { buildIndexBatch } from "@/lib/search/batch";
import type { JudgmentRow } from "@/lib/search/document";
import { FIXTURE_ROWS, fixtureId } from "../search-conformance/fixture";

const embedder = new LocalHashEmbedder();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "search-typo-names-"));
const engine = new LanceDbEngine({ dir, embedder });

const ROBERT = fixtureId(30_001);
const ROBBERY = fixtureId(30_002);
const row = (id: string, title: string, summary: string): JudgmentRow => ({ ...FIXTURE_ROWS[0], id, title, summary, full_text: "" });

beforeAll(async () => {
  const session = await engine.sync.beginFull();
  await session.add(
    await buildIndexBatch(
      [
        // The name in the title, the field ranked first: before this rule its typo match ranked first.
        row(ROBERT, "R v Robert", "ROBERT appealed against sentence; Robert Jones gave evidence."),
        row(ROBBERY, "Appeal against sentence", "The sentence for a street robbery was reduced on appeal."),
      ],
      embedder,
    ),
  );
  await session.commit({ suggestions: [] });
});

afterAll(async () => {
  await engine.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const ids = async (q: string) => (await engine.searchDocuments({ q, limit: 10, offset: 0, attributesToHighlight: ["title"] })).hits.map((h) => h.document.id);

describe("typo tolerance and proper names", () => {
  it("robery ranks the robbery judgment first and does not reach the name by a typo", async () => {
    expect(await ids("robery ")).toEqual([ROBBERY]);
  });

  it("a name still matches exactly and as a prefix", async () => {
    expect(await ids("robert ")).toEqual([ROBERT]);
    expect(await ids("robe")).toEqual(expect.arrayContaining([ROBERT]));
  });
});
