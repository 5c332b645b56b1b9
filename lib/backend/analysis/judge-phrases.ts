/**
 * Stored reasoning-phrase counts per judgment (table judgment_reasoning_phrases): a judge profile sums these instead of
 * scanning up to JUDGE_STYLE_MAX_TEXTS full texts on every request. Counts are made with the shared patterns
 * (lib/analysis/reasoning-patterns.ts) and tagged with PATTERNS_VERSION, so editing the pattern data makes every stored
 * row stale (recounted on its next use) rather than wrong.
 */
import { createHash } from "node:crypto";
import { REASONING_PATTERNS, phraseCounts, type PhraseCounts } from "@/lib/analysis/reasoning-patterns";
import { logger } from "@/lib/logger";
import { jsonArg } from "@/lib/supabase/json";
import type { DbClient } from "@/lib/supabase/db-client";

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

/**
 * Keep freshly counted judgments (service role: callers only read the table). Best effort: a failed write costs the
 * next profile a recount, never this one its answer.
 */
export async function storePhraseCounts(serviceDb: DbClient, rows: { judgment_id: string; phrases: PhraseCounts }[]): Promise<void> {
  if (rows.length === 0) return;
  const { error } = await serviceDb.rpc("judgment_reasoning_phrases_store", {
    p_rows: jsonArg(rows.map((r) => ({ judgment_id: r.judgment_id, phrases: r.phrases }))),
    p_version: PATTERNS_VERSION,
  });
  if (error) logger.warn({ err: error.message, rows: rows.length }, "storing reasoning-phrase counts failed");
}
