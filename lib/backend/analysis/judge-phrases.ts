/**
 * Stored reasoning-phrase counts per judgment (table judgment_reasoning_phrases): a judge profile sums these instead of
 * scanning up to JUDGE_STYLE_MAX_TEXTS full texts on every request. Counts are made with the shared patterns
 * (lib/analysis/reasoning-patterns.ts) and tagged with PATTERNS_VERSION, so editing the pattern data makes every stored
 * row stale (recounted) rather than wrong. Counted ahead by the worker's scheduled job (phraseCountsJob: at start and every
 * 5 minutes, in batches), and lazily by a profile for whatever the job has not reached yet; both count with
 * countPhrases and store with judgment_reasoning_phrases_store (P-54).
 */
import { createHash } from "node:crypto";
import { REASONING_PATTERNS, phraseCounts, type PhraseCounts } from "@/lib/analysis/reasoning-patterns";
import { logger } from "@/lib/logger";
import { jsonArg } from "@/lib/supabase/json";
import type { DbClient } from "@/lib/supabase/db-client";
import type { ScheduledJob } from "../jobs/scheduled";

/** Snippet half-width of stored examples: the profile's (scoreStyles' default). */
export const PHRASE_SNIPPET_RADIUS = 80;

/** Hash of everything a stored count depends on: each pattern's id, style, phrase and regex, and the snippet width. */
export const PATTERNS_VERSION = createHash("sha256")
  .update(JSON.stringify({ radius: PHRASE_SNIPPET_RADIUS, patterns: REASONING_PATTERNS.map((p) => [p.id, p.style, p.phrase, p.regex.source]) }))
  .digest("hex")
  .slice(0, 16);

export function countPhrases(text: string): PhraseCounts {
  return phraseCounts(text, REASONING_PATTERNS, PHRASE_SNIPPET_RADIUS);
}

type CountedRow = { judgment_id: string; phrases: PhraseCounts };

/** Write counted rows (service role); throws on failure. */
async function writePhraseCounts(serviceDb: DbClient, rows: CountedRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  const { data, error } = await serviceDb.rpc("judgment_reasoning_phrases_store", {
    p_rows: jsonArg(rows.map((r) => ({ judgment_id: r.judgment_id, phrases: r.phrases }))),
    p_version: PATTERNS_VERSION,
  });
  if (error) throw new Error(error.message);
  return data ?? 0;
}

/**
 * Keep freshly counted judgments (service role: callers only read the table). Best effort: a failed write costs the
 * next profile a recount, never this one its answer.
 */
export async function storePhraseCounts(serviceDb: DbClient, rows: CountedRow[]): Promise<void> {
  try {
    await writePhraseCounts(serviceDb, rows);
  } catch (e) {
    logger.warn({ err: e instanceof Error ? e.message : String(e), rows: rows.length }, "storing reasoning-phrase counts failed");
  }
}

export interface FillOutcome {
  /** Judgments counted and stored by this pass. */
  counted: number;
  batches: number;
  /** True when no judgment was left without current counts (false: stopped at maxBatches). */
  done: boolean;
}

/** Texts per batch of the filler: ~50 × 30,000 characters in memory and ~150 ms of scanning between two awaits. */
export const FILL_BATCH = 50;

/**
 * Count ahead (P-54): judgments without current stored counts (none yet, a new judgment, a changed text, an older
 * pattern version) are fetched `batch` texts at a time, newest first, counted with countPhrases (the profile's lazy
 * path counts with the same function) and stored, until none is left or `maxBatches` were done. Memory is bounded by
 * one batch of texts; the event loop is released between batches.
 */
export async function fillPhraseCounts(serviceDb: DbClient, opts: { batch?: number; maxBatches?: number } = {}): Promise<FillOutcome> {
  const batch = opts.batch ?? FILL_BATCH;
  const maxBatches = opts.maxBatches ?? Number.POSITIVE_INFINITY;
  let counted = 0;
  let batches = 0;
  while (batches < maxBatches) {
    const { data, error } = await serviceDb.rpc("judgment_reasoning_phrases_pending", { p_version: PATTERNS_VERSION, p_limit: batch });
    if (error) throw new Error(error.message);
    const pending = data ?? [];
    if (pending.length === 0) return { counted, batches, done: true };
    const rows = pending.map((r) => ({ judgment_id: r.judgment_id, phrases: countPhrases(r.full_text ?? "") }));
    const stored = await writePhraseCounts(serviceDb, rows);
    batches++;
    counted += stored;
    // A judgment deleted between the read and the write is not stored; the next read no longer returns it. Nothing
    // stored at all would mean the same batch comes back forever: stop and let the next scheduled pass retry.
    if (stored === 0) return { counted, batches, done: false };
    await new Promise((r) => setImmediate(r));
  }
  return { counted, batches, done: false };
}

/**
 * The worker's scheduled job (lib/backend/jobs): at start, then every 5 minutes, count every judgment without current
 * counts (new, changed, or all of them after a pattern edit). A pass still running when the next is due is not
 * doubled (pg-boss keeps one run of the job active; the flag below covers this process).
 */
export function phraseCountsJob(serviceDb: DbClient): ScheduledJob {
  let running = false;
  return {
    name: "fill_reasoning_phrase_counts",
    cron: "*/5 * * * *",
    atStart: true,
    run: async () => {
      if (running) return;
      running = true;
      try {
        const out = await fillPhraseCounts(serviceDb);
        if (out.counted > 0) logger.info(out, "reasoning-phrase counts filled");
      } finally {
        running = false;
      }
    },
  };
}
