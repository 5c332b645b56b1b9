/**
 * The LanceDB adapter remembers each filter's answer per stored document. Upserts replace documents, so a changed
 * document must be judged afresh: the same filter, asked before and after, follows the change (keyword, hybrid and
 * placeholder searches), and a deleted document disappears.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LanceDbEngine } from "@/lib/search/lancedb/engine";
import { LocalHashEmbedder } from "@/lib/search/embedders/local-hash";
import { buildIndexBatch } from "@/lib/search/batch";
import { parseIndexFilter } from "@/lib/search/filter";
import type { JudgmentRow } from "@/lib/search/document";
import { FIXTURE_ROWS, fixtureId } from "../search-conformance/fixture";

const embedder = new LocalHashEmbedder();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "search-filter-memo-"));
const engine = new LanceDbEngine({ dir, embedder });
const targetId = fixtureId(30_001);
const target: JudgmentRow = { ...FIXTURE_ROWS[0], id: targetId, title: "Wombat larceny appeal", jurisdiction: "PL" };

beforeAll(async () => {
  const session = await engine.sync.beginFull();
  await session.add(await buildIndexBatch([...FIXTURE_ROWS, target], embedder));
  await session.commit({ suggestions: [] });
});

afterAll(async () => {
  await engine.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const ids = async (q: string, filter: string, semanticRatio = 0) =>
  (await engine.searchDocuments({ q, filter: parseIndexFilter(filter), limit: 100, offset: 0, semanticRatio })).hits.map((h) => h.document.id);

describe("memoised filter answers", () => {
  it("follow an upsert that changes the filtered field, and a delete", async () => {
    for (const ratio of [0, 0.5]) {
      expect(await ids("wombat", "jurisdiction = PL", ratio)).toContain(target.id);
      expect(await ids("wombat", "jurisdiction = UK", ratio)).not.toContain(target.id);
    }
    expect(await ids("", "jurisdiction = PL")).toContain(target.id);

    await engine.sync.upsert(await buildIndexBatch([{ ...target, jurisdiction: "UK" }], embedder));
    for (const ratio of [0, 0.5]) {
      expect(await ids("wombat", "jurisdiction = PL", ratio)).not.toContain(target.id);
      expect(await ids("wombat", "jurisdiction = UK", ratio)).toContain(target.id);
    }
    expect(await ids("", "jurisdiction = PL")).not.toContain(target.id);
    expect(await ids("", "jurisdiction = UK")).toContain(target.id);

    await engine.sync.delete([targetId]);
    expect(await ids("wombat", "jurisdiction = UK")).not.toContain(target.id);
  });
});
