import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll } from "vitest";
import { LanceDbEngine } from "@/lib/search/lancedb/engine";
import { LocalHashEmbedder } from "@/lib/search/embedders/local-hash";
import { runConformance } from "../search-conformance/suite";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

runConformance("lancedb", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "search-conformance-"));
  dirs.push(dir);
  return new LanceDbEngine({ dir, embedder: new LocalHashEmbedder() });
});
