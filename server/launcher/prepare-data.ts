import { SingleBar, Presets } from "cli-progress";
import path from "node:path";
import { seedBlogPosts } from "../../supabase/seed/blog";
import { corpusIsEmpty, seedCorpus } from "../../supabase/seed/corpus";
import { DEFAULT_CORPUS_SEED, DEFAULT_CORPUS_SIZE } from "../../supabase/seed/generate";

/** A progress bar on a terminal; periodic lines when output is a log file or CI. */
function progress(label: string, log: (l: string) => void) {
  if (process.stdout.isTTY) {
    const bar = new SingleBar({ format: `[stack] ${label} {bar} {percentage}% | {value}/{total} | {duration}s`, hideCursor: true }, Presets.shades_classic);
    let started = false;
    return {
      update(done: number, total: number) {
        if (!started) {
          bar.start(total, 0);
          started = true;
        }
        bar.update(done);
      },
      stop: () => started && bar.stop(),
    };
  }
  let lastPct = -1;
  return {
    update(done: number, total: number) {
      const pct = total ? Math.floor((done / total) * 10) * 10 : 100;
      if (pct !== lastPct) {
        lastPct = pct;
        log(`${label}: ${done}/${total} (${pct}%)`);
      }
    },
    stop: () => undefined,
  };
}

/**
 * First-start data: the demo corpus when the judgments table is empty, the blog's first posts when it has none, then
 * the search index when it holds nothing. Every step is a no-op on later starts.
 */
export async function prepareData(opts: { databaseUrl: string; dataDir: string; log: (l: string) => void }): Promise<void> {
  const { databaseUrl, log } = opts;
  if (await corpusIsEmpty(databaseUrl)) {
    const size = Number(process.env.SEED_SIZE ?? DEFAULT_CORPUS_SIZE);
    const seed = Number(process.env.SEED ?? DEFAULT_CORPUS_SEED);
    log(`the database is empty: seeding the demo corpus (${size} judgments, seed ${seed})`);
    const bar = progress("seeding", log);
    const { inserted, ms, citations } = await seedCorpus(databaseUrl, { size, seed, onProgress: (d, t) => bar.update(d, t) });
    bar.stop();
    const graph = citations ? `; citations: ${citations.references} references, ${citations.resolved} resolved` : "";
    log(`seeded ${inserted} judgments in ${(ms / 1000).toFixed(1)} s${graph}`);
  }

  // The blog's first posts (content area): only while the blog is empty, so a later start changes nothing.
  const posts = await seedBlogPosts(databaseUrl);
  if (posts) log(`seeded ${posts} blog posts`);

  // The engine module reads SEARCH_DATA_DIR from the environment; the launcher and the app must agree on it.
  process.env.SEARCH_DATA_DIR ??= path.join(opts.dataDir, "search");
  const { ensureSearchIndex } = await import("../../lib/search/sync");
  const bar = progress("indexing", log);
  const started = Date.now();
  const { built, reason, result } = await ensureSearchIndex(databaseUrl, { onProgress: (p) => bar.update(p.done, p.total) });
  bar.stop();
  if (built && result) log(`search index built (${reason}): ${result.documents} documents, ${result.chunks} chunks in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  else log("search index is current");
}
