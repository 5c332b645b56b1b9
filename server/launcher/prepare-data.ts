import path from "node:path";
import { seedBlogPosts } from "../../supabase/seed/blog";
import { corpusIsEmpty, seedCorpus } from "../../supabase/seed/corpus";
import { DEFAULT_CORPUS_SEED, DEFAULT_CORPUS_SIZE } from "../../supabase/seed/generate";
import type { ProgressTrack } from "./progress";

const secondsSince = (t: number) => `${((performance.now() - t) / 1000).toFixed(1)} s`;

/**
 * First-start data: the demo corpus when the judgments table is empty, the blog's first posts when it has none, then
 * the search index when it holds nothing. Every step is a no-op on later starts. One chain, in this order: the index
 * holds each judgment's citation graph (cites, cited_by_count), which seeding writes last. The launcher runs the
 * chain while `next build` compiles (./overlap.ts); `seed` and `index` are the chain's bars in the one display.
 */
export async function prepareData(opts: {
  databaseUrl: string;
  dataDir: string;
  log: (l: string) => void;
  seed: ProgressTrack;
  index: ProgressTrack;
}): Promise<void> {
  const { databaseUrl, log } = opts;
  if (await corpusIsEmpty(databaseUrl)) {
    const size = Number(process.env.SEED_SIZE ?? DEFAULT_CORPUS_SIZE);
    const seed = Number(process.env.SEED ?? DEFAULT_CORPUS_SEED);
    log(`the database is empty: seeding the demo corpus (${size} judgments, seed ${seed})`);
    const started = performance.now();
    let rowsWritten = false;
    opts.seed.start("generating");
    try {
      const { inserted, citations } = await seedCorpus(databaseUrl, {
        size,
        seed,
        onProgress: (done, total) => {
          opts.seed.update(done, total);
          if (done === total && !rowsWritten) {
            // The rest of seedCorpus: the judgments' indexes rebuilt, ANALYZE, then the citation graph.
            rowsWritten = true;
            log(`seed: ${total} rows written in ${secondsSince(started)}; indexes and the citation graph next`);
            opts.seed.stage("indexes + citation graph", 1);
          }
        },
      });
      const graph = citations ? `; citations: ${citations.references} references, ${citations.resolved} resolved` : "";
      log(`seeded ${inserted} judgments in ${secondsSince(started)}${graph}`);
      opts.seed.done(`${inserted} judgments`);
    } catch (e) {
      opts.seed.fail("failed");
      throw e;
    }
  } else opts.seed.done("already seeded");

  // The blog's first posts (content area): only while the blog is empty, so a later start changes nothing.
  const posts = await seedBlogPosts(databaseUrl);
  if (posts) log(`seeded ${posts} blog posts`);

  // The engine module reads SEARCH_DATA_DIR from the environment; the launcher and the app must agree on it.
  process.env.SEARCH_DATA_DIR ??= path.join(opts.dataDir, "search");
  const { ensureSearchIndex } = await import("../../lib/search/sync");
  const started = performance.now();
  let running = false;
  try {
    const { built, reason, result } = await ensureSearchIndex(databaseUrl, {
      onProgress: (p) => {
        if (!running) opts.index.start();
        running = true;
        opts.index.update(p.done, p.total);
      },
    });
    if (built && result) {
      log(`search index built (${reason}): ${result.documents} documents, ${result.chunks} chunks in ${secondsSince(started)}`);
      opts.index.done(`${result.documents} documents`);
    } else {
      log("search index is current");
      opts.index.done("current");
    }
  } catch (e) {
    opts.index.fail("failed");
    throw e;
  }
}
