/**
 * A writer process for tests/unit/search-lancedb-write-lock.test.ts: `tsx tests/helpers/search-writer.ts <dir>
 * <full|upsert> <rounds>`. Prints "ready" once the engine and the batch are built, waits for `<dir>/go` (so two
 * writers start their writes together), then makes `rounds` full builds of the fixture corpus or `rounds`
 * incremental upserts of one judgment, and exits 0 (1 with the error on stderr).
 */
import fs from "node:fs";
import path from "node:path";
import { LanceDbEngine } from "@/lib/search/lancedb/engine";
import { LocalHashEmbedder } from "@/lib/search/embedders/local-hash";
import { buildIndexBatch } from "@/lib/search/batch";
import { FIXTURE_ROWS } from "../search-conformance/fixture";

async function main(): Promise<void> {
  const [dir, mode, roundsArg] = process.argv.slice(2);
  const rounds = Number(roundsArg);
  const embedder = new LocalHashEmbedder();
  const engine = new LanceDbEngine({ dir, embedder });
  const corpus = await buildIndexBatch(FIXTURE_ROWS, embedder);
  process.stdout.write("ready\n");
  while (!fs.existsSync(path.join(dir, "go"))) await new Promise((r) => setTimeout(r, 2));
  for (let i = 0; i < rounds; i++) {
    if (mode === "full") {
      const session = await engine.sync.beginFull();
      await session.add(corpus);
      await session.commit({ suggestions: [] });
    } else {
      const row = { ...FIXTURE_ROWS[3], title: `R v Upsert ${process.pid} round ${i}: an ocarina` };
      await engine.sync.upsert(await buildIndexBatch([row], embedder));
    }
  }
  await engine.close();
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n${e instanceof Error && e.cause ? String(e.cause) : ""}\n`);
    process.exit(1);
  },
);
