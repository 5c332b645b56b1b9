/**
 * The journeys need judgments in Postgres and in the search index. This seeds the first rows of the deterministic demo
 * corpus into the test database (once: it checks for the first generated id) and rebuilds the LanceDB index the app
 * under test reads (SEARCH_DATA_DIR), then waits until the app serves the new index generation.
 */
import fs from "node:fs";
import pg from "pg";
import { DEFAULT_CORPUS_SEED, generateJudgment } from "@/supabase/seed/generate";
import { seedCorpus } from "@/supabase/seed/corpus";
import { LocalHashEmbedder } from "@/lib/search/embedders/local-hash";
import { LanceDbEngine } from "@/lib/search/lancedb/engine";
import { fullSync } from "@/lib/search/sync";

export const E2E_CORPUS_SIZE = 300;

interface StackEnv {
  databaseUrl: string;
  searchDataDir?: string;
}

function stackEnv(): StackEnv {
  const raw = process.env.TEST_STACK_ENV;
  if (!raw) throw new Error("TEST_STACK_ENV is not set: run the journeys through `npm test` (tests/run-all.ts)");
  return JSON.parse(raw) as StackEnv;
}

let ready: Promise<void> | null = null;

export function ensureE2ECorpus(baseURL: string): Promise<void> {
  ready ??= seedAndIndex(baseURL);
  return ready;
}

async function seedAndIndex(baseURL: string): Promise<void> {
  const env = stackEnv();
  const dataDir = env.searchDataDir ?? process.env.SEARCH_DATA_DIR;
  if (!dataDir) throw new Error("set SEARCH_DATA_DIR (shared with the app under test) for the browser journeys");
  const pool = new pg.Pool({ connectionString: env.databaseUrl, max: 2 });
  try {
    const firstId = generateJudgment(DEFAULT_CORPUS_SEED, 0).id;
    const { rows } = await pool.query<{ n: number }>("select count(*)::int as n from public.judgments where id = $1", [firstId]);
    if (rows[0].n === 0) await seedCorpus(env.databaseUrl, { size: E2E_CORPUS_SIZE, seed: DEFAULT_CORPUS_SEED });
    const { rows: indexed } = await pool.query<{ n: number }>("select count(*)::int as n from public.judgments");
    fs.mkdirSync(dataDir, { recursive: true });
    const embedder = new LocalHashEmbedder();
    const engine = new LanceDbEngine({ dir: dataDir, embedder });
    try {
      await fullSync(pool, { engine, embedder });
    } finally {
      await engine.close();
    }
    if (indexed[0].n === 0) throw new Error("the e2e corpus is empty after seeding");
  } finally {
    await pool.end();
  }
  // The app re-reads the index generation at most once a second.
  await new Promise((r) => setTimeout(r, 1500));
  await fetch(`${baseURL}/api/search/suggest?q=warmup`).catch(() => undefined);
}
