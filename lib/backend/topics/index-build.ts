/**
 * The topics index rebuilt from the latest public run (spec: Other records; P-83: the default run and admins' runs,
 * never a researcher's own): read through latest_search_topics_run() (the narrow function: the run's id, time, counts
 * and topics without owner or sample judgments), bounded (TOPICS_INDEX_BOUNDS) and written whole into the search
 * engine's topics index. Idempotent: when the index already holds the latest run nothing is written. Called after an
 * admin's run (by the app) and by the worker at start and every minute (topicsIndexJob below, a pg-boss cron job, P-80);
 * its first pass first stores the default run when no public run exists (ensureDefaultTopicRun), so a fresh stack has
 * topics to index.
 */
import { z } from "zod";
import type { DbClient } from "@/lib/supabase/db-client";
import { fromDatabaseError } from "@/lib/errors";
import { logger } from "@/lib/logger";
import type { SearchEngine, TopicIndexEntry, TopicsIndex } from "@/lib/search/types";
import type { ScheduledJob } from "../jobs/scheduled";
import { ensureDefaultTopicRun } from "./runs";

const LatestRun = z.object({
  run_id: z.string(),
  computed_at: z.string(),
  topic_count: z.coerce.number(),
  document_count: z.coerce.number(),
  topics: z.array(
    z.object({
      id: z.int().min(0).max(99),
      label: z.string(),
      keywords: z.array(z.object({ term: z.string(), weight: z.number() })),
      size: z.number(),
      coherence: z.number(),
      trend: z.enum(["emerging", "stable", "declining"]),
      slope: z.number(),
      weights_by_period: z.array(z.object({ period: z.string(), weight: z.number() })),
    }),
  ),
});

/**
 * What the public index takes of a run, whoever stored it (P-83): the run form's maxima (30 topics, 15 keywords, 12
 * periods; lib/schema/requests/topics-form.ts), and texts no longer than a model's label (three keywords) or term can
 * be. A run the server computed is never cut; anything beyond is dropped or shortened, never served to everyone.
 */
export const TOPICS_INDEX_BOUNDS = { topics: 30, keywords: 15, periods: 12, labelChars: 200, termChars: 100 } as const;

const cut = (text: string, max: number) => (text.length <= max ? text : Array.from(text).slice(0, max).join(""));

/** The topics index of a stored run (the latest_search_topics_run shape), bounded by TOPICS_INDEX_BOUNDS. */
export function topicsIndexOf(latest: z.infer<typeof LatestRun>): TopicsIndex {
  const b = TOPICS_INDEX_BOUNDS;
  const topics: TopicIndexEntry[] = latest.topics.slice(0, b.topics).map((t) => ({
    id: `${latest.run_id}_${t.id}`,
    run_id: latest.run_id,
    topic: t.id,
    label: cut(t.label, b.labelChars),
    keywords: t.keywords.slice(0, b.keywords).map((k) => ({ term: cut(k.term, b.termChars), weight: k.weight })),
    size: t.size,
    coherence: t.coherence,
    trend: t.trend,
    slope: t.slope,
    weights_by_period: t.weights_by_period.slice(0, b.periods).map((w) => ({ period: cut(w.period, b.termChars), weight: w.weight })),
  }));
  return {
    run_id: latest.run_id,
    computed_at: new Date(latest.computed_at).toISOString(),
    topic_count: topics.length,
    document_count: latest.document_count,
    topics,
  };
}

export interface RebuildOutcome {
  run_id: string | null;
  changed: boolean;
}

/** Make the engine's topics index hold the latest stored run (none stored: an empty index). */
export async function rebuildTopicsIndex(db: DbClient, engine: SearchEngine): Promise<RebuildOutcome> {
  const { data, error } = await db.rpc("latest_search_topics_run");
  if (error) throw fromDatabaseError(error);
  const current = await engine.topics.read();
  if (data === null) {
    if (current === null) return { run_id: null, changed: false };
    await engine.topics.replace(null);
    return { run_id: null, changed: true };
  }
  const latest = LatestRun.parse(data);
  if (current?.run_id === latest.run_id) return { run_id: latest.run_id, changed: false };
  await engine.topics.replace(topicsIndexOf(latest));
  logger.info({ run_id: latest.run_id, topics: latest.topics.length }, "topics index rebuilt");
  return { run_id: latest.run_id, changed: true };
}

// One rebuild at a time per process: runs finishing together would otherwise race to write the same index.
let chain: Promise<unknown> = Promise.resolve();

/** Rebuild after a run, one at a time per process; never rejects (errors are logged: the worker's next scheduled pass repairs the index). */
export function refreshTopicsIndexSoon(db: DbClient, engine: () => SearchEngine): Promise<void> {
  const next = chain.then(() => rebuildTopicsIndex(db, engine()));
  chain = next.catch(() => undefined);
  return next.then(
    () => undefined,
    (e: unknown) => logger.error({ err: e instanceof Error ? e.message : String(e) }, "topics index rebuild failed"),
  );
}

/**
 * The worker's scheduled job (lib/backend/jobs): at start and every minute (one small RPC and a stat), rebuild the topics index when a newer run was stored (by any app
 * process; the app also rebuilds right after its own runs). The search engine is resolved on each run. With
 * `defaultRun`, the first pass that finds no stored run stores the default one (seed 42, no user) before rebuilding;
 * one success per process, and a pass is never doubled (the default run takes about a second).
 */
export function topicsIndexJob(serviceDb: DbClient, engine: () => SearchEngine, opts: { defaultRun?: boolean } = {}): ScheduledJob {
  let defaultDone = !opts.defaultRun;
  let running = false;
  return {
    name: "rebuild_topics_index",
    cron: "* * * * *",
    atStart: true,
    retryLimit: 0, // the next minute tries again
    run: async () => {
      if (running) return;
      running = true;
      try {
        if (!defaultDone) {
          const stored = await ensureDefaultTopicRun(serviceDb);
          defaultDone = true;
          if (stored) logger.info({ run_id: stored }, "default topic run stored (no run existed)");
        }
        await rebuildTopicsIndex(serviceDb, engine());
      } finally {
        running = false;
      }
    },
  };
}
