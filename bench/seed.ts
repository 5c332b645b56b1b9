/**
 * bench/seed: how long generating and seeding the full demo corpus takes (target: under 3 minutes for 12,307
 * judgments on the 2-core dev machine). Uses its own throw-away Postgres cluster in .data/bench-seed (port
 * BENCH_PG_PORT, default 54439), so no real data is touched; every migration is applied first, so the figure includes
 * every index and generated column other features add. Prints JSON.
 * Usage: npm run bench:seed -- [--size 12307] [--seed 20260101]
 */
import { rmSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { repoRoot } from "../server/paths";
import { startDatabase } from "../server/launcher/stack";
import { seedCorpus } from "../supabase/seed/corpus";
import { DEFAULT_CORPUS_SEED, DEFAULT_CORPUS_SIZE, generateJudgment } from "../supabase/seed/generate";

async function main() {
  const { values } = parseArgs({ options: { size: { type: "string" }, seed: { type: "string" } } });
  const size = Number(values.size ?? DEFAULT_CORPUS_SIZE);
  const seed = Number(values.seed ?? DEFAULT_CORPUS_SEED);

  // Generation alone (no database): the CPU share of seeding.
  const genStart = performance.now();
  const lengths: number[] = [];
  for (let i = 0; i < size; i++) lengths.push(generateJudgment(seed, i).full_text.length);
  const generationMs = performance.now() - genStart;
  lengths.sort((a, b) => a - b);

  const dataDir = path.join(repoRoot, ".data", "bench-seed");
  rmSync(dataDir, { recursive: true, force: true });
  const db = await startDatabase({ dataDir, postgresPort: Number(process.env.BENCH_PG_PORT ?? 54439) });
  try {
    const { inserted, ms } = await seedCorpus(db.databaseUrl, { size, seed });
    const client = new pg.Client({ connectionString: db.databaseUrl });
    await client.connect();
    const { rows } = await client.query<{ size: string }>("select pg_size_pretty(pg_total_relation_size('public.judgments')) as size");
    await client.end();
    const total = lengths.reduce((a, b) => a + b, 0);
    console.log(
      JSON.stringify(
        {
          rows: inserted,
          seed,
          seed_ms: ms,
          rows_per_s: Math.round((inserted / ms) * 1000),
          under_3_min: ms < 180_000,
          generation_only_ms: Math.round(generationMs),
          full_text_chars: { median: lengths[Math.floor(size / 2)], mean: Math.round(total / size), max: lengths[size - 1], total },
          table_size: rows[0].size,
        },
        null,
        2,
      ),
    );
  } finally {
    await db.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((e: Error) => {
  console.error(e);
  process.exitCode = 1;
});
