/** A semantic hit's passage (lib/search/passage.ts): the nearest chunk of each judgment, its query words marked. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LanceDbEngine } from "@/lib/search/lancedb/engine";
import { LocalHashEmbedder } from "@/lib/search/embedders/local-hash";
import { buildIndexBatch } from "@/lib/search/batch";
import { semanticPassages } from "@/lib/search/passage";
import { F, FIXTURE_ROWS } from "../search-conformance/fixture";

const embedder = new LocalHashEmbedder();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "search-passage-"));
const engine = new LanceDbEngine({ dir, embedder });

beforeAll(async () => {
  const session = await engine.sync.beginFull();
  await session.add(await buildIndexBatch([...FIXTURE_ROWS], embedder));
  await session.commit({ suggestions: [] });
});

afterAll(async () => {
  await engine.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("semantic passages", () => {
  it("marks the query's words in the judgment's nearest chunk, never stop-words", async () => {
    const p = await semanticPassages(engine, "a serrated blade pierced the ventricle", [F.smith, F.jones]);
    const smith = p.get(F.smith);
    expect(smith).toBeDefined();
    const marked = [...String(smith).matchAll(/<mark>([^<]*)<\/mark>/g)].map((m) => m[1].toLowerCase());
    expect(marked.length).toBeGreaterThan(0);
    for (const m of marked) expect(["serrated", "blade", "pierced", "ventricle"]).toContain(m);
  });
});
