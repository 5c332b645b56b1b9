/**
 * Judge fingerprint: who a judge is on the record (judgments, years, roles, courts: SQL
 * judge_record over the `judges` column), how they reason (reasoning-style phrase counts over the full texts,
 * lib/analysis/reasoning-patterns.ts, with the phrases and judgments each score came from, scored as z-scores of the
 * phrase rate per judgment against the other judgments of the judge's court level: lib/analysis/style-baseline.ts;
 * "not enough text" below the configured minimums), and how
 * their appeals ended and what sentences were passed (the extracted base fields, through the one aggregate:
 * aggregate_extracted_data). No model is involved anywhere: `mode` is always "no-model".
 */
import { z } from "zod";
import { config } from "@/lib/config";
import type { DbClient } from "@/lib/supabase/db-client";
import { ApiError, fromDatabaseError, notFound } from "@/lib/errors";
import { REASONING_PATTERNS, REASONING_STYLES, scoreCounted, type CountedText, type ReasoningStyle } from "@/lib/analysis/reasoning-patterns";
import {
  baselineRates,
  scoreAgainstBaseline,
  type BaselineAggregate,
  type NotEnoughText,
  type StyleBaseline,
  type StyleLimits,
  type StyleScore,
} from "@/lib/analysis/style-baseline";
import { fold } from "@/lib/search/text/tokenize";
import { jsonArg } from "@/lib/supabase/json";
import { countPhrases, PATTERNS_VERSION, storePhraseCounts } from "./judge-phrases";
import { aggregateExtractedData, type CategoricalDist, type Distribution } from "@/lib/backend/extractions/aggregate";

export interface JudgeHit {
  name: string;
  jurisdiction: string;
  judgments: number;
}

export interface JudgeSearchResult {
  query: string;
  judges: JudgeHit[];
}

export interface JudgeEvidence {
  style: ReasoningStyle;
  phrase: string;
  pattern_id: string;
  count: number;
  examples: { document_id: string; case_number: string | null; snippet: string }[];
}

export interface ValueCount {
  value: string;
  count: number;
}

export interface JudgeProfile {
  name: string;
  jurisdiction: string;
  judgments: number;
  years: { first: number | null; last: number | null };
  roles: { presiding: number; reporting: number; member: number };
  courts: { name: string; count: number }[];
  /** Per style: phrases, rate per judgment and z against the baseline (null with a reason when there is not enough text). */
  styles: Record<ReasoningStyle, StyleScore>;
  /** Why every z is null ("not enough text": too few judgments or phrases of the judge, or a too small baseline). */
  styles_reason: NotEnoughText | null;
  /** Raw phrase counts per style. */
  style_counts: Record<ReasoningStyle, number>;
  /** What the styles are measured against. */
  baseline: JudgeBaseline;
  evidence: JudgeEvidence[];
  /** Judgments whose full text was scored (the newest JUDGE_STYLE_MAX_TEXTS). */
  scored_judgments: number;
  outcomes: { appeal_outcome: ValueCount[] };
  sentences: Record<string, ValueCount[]>;
  /** Judgments the outcome and sentence distributions were counted over (completed extractions naming the judge). */
  outcome_judgments: number;
  mode: "no-model";
}

/** The baseline of a profile: the court level's rates, and the minimums a score needs. */
export interface JudgeBaseline extends StyleBaseline {
  /** How the scores are computed, in words a client can show. */
  method: "z-score of phrases per judgment against the court level";
  minimums: { judge_judgments: number; judge_phrases: number; baseline_judgments: number };
}

export interface JudgeComparison {
  judges: JudgeProfile[];
  mode: "no-model";
}

/** The base fields shown as the judge's sentences (categorical distributions from the aggregate). */
export const SENTENCE_FIELDS = ["sentences_received", "sentence_serve", "what_ancilliary_orders"] as const;

const JudgeHitRow = z.object({ name: z.string(), jurisdiction: z.string(), judgments: z.coerce.number() });

const JudgeRecord = z.object({
  name: z.string(),
  jurisdiction: z.string(),
  judgments: z.number(),
  first: z.string().nullable(),
  last: z.string().nullable(),
  presiding: z.number(),
  reporting: z.number(),
  member: z.number(),
  courts: z.array(z.object({ name: z.string(), count: z.number() })),
  // Each document carries its stored phrase counts, or its text when they are missing or stale (then counted here).
  documents: z.array(
    z.object({
      document_id: z.string(),
      case_number: z.string().nullable(),
      phrases: z.record(z.string(), z.tuple([z.number(), z.string()])).optional(),
      text: z.string().nullable().optional(),
    }),
  ),
});

/** GET /api/judge-fingerprint/search: judge names containing q (accent- and case-insensitive), most judgments first. */
export async function searchJudges(db: DbClient, q: string, limit: number): Promise<JudgeSearchResult> {
  const { data, error } = await db.rpc("judge_search", { p_query: q, p_limit: limit });
  if (error) throw fromDatabaseError(error);
  return { query: q, judges: (data ?? []).map((r) => JudgeHitRow.parse(r)) };
}

const BaselineRow = z.object({
  jurisdiction: z.string(),
  court_level: z.string(),
  judgments: z.coerce.number(),
  pending: z.coerce.number(),
  judges: z.coerce.number(),
  styles: z.record(z.string(), z.tuple([z.coerce.number(), z.coerce.number()])),
});

/** Pattern id → style, for the baseline's SQL (the patterns live here, not in the database). */
const PATTERN_STYLES = Object.fromEntries(REASONING_PATTERNS.map((p) => [p.id, p.style]));

function styleLimits(): StyleLimits {
  const c = config();
  return { minJudgments: c.JUDGE_STYLE_MIN_JUDGMENTS, minPhrases: c.JUDGE_STYLE_MIN_PHRASES, minBaselineJudgments: c.JUDGE_BASELINE_MIN_JUDGMENTS };
}

async function readBaseline(db: DbClient, name: string): Promise<BaselineAggregate | null> {
  const { data, error } = await db.rpc("judge_style_baseline", { p_name: name, p_version: PATTERNS_VERSION, p_styles: jsonArg(PATTERN_STYLES) });
  if (error) throw fromDatabaseError(error);
  if (data === null) return null;
  const row = BaselineRow.parse(data);
  const styles: BaselineAggregate["styles"] = {};
  for (const s of REASONING_STYLES) if (row.styles[s]) styles[s] = row.styles[s];
  return { ...row, styles };
}

/**
 * Count and store the judgments of a court level that have no current counts yet, for at most `ms`, so a level's
 * first profiles are measured against the level rather than whatever the worker's job has reached.
 */
async function fillLevel(store: DbClient, level: { jurisdiction: string; court_level: string }, ms: number): Promise<number> {
  const until = performance.now() + ms;
  let done = 0;
  while (performance.now() < until) {
    const { data, error } = await store.rpc("judgment_reasoning_phrases_pending_level", {
      p_version: PATTERNS_VERSION,
      p_jurisdiction: level.jurisdiction,
      p_court_level: level.court_level,
      p_limit: 25,
    });
    if (error) throw fromDatabaseError(error);
    const rows: { judgment_id: string; phrases: CountedText["phrases"] }[] = [];
    for (const r of data ?? []) {
      if (performance.now() >= until) break;
      rows.push({ judgment_id: r.judgment_id, phrases: countPhrases(r.full_text ?? "") });
    }
    if (rows.length === 0) break;
    await storePhraseCounts(store, rows);
    done += rows.length;
    // Release the event loop between batches (each is up to 25 full texts of scanning).
    await new Promise((r) => setImmediate(r));
  }
  return done;
}

/** The baseline of a judge (null for an unknown name), completed first from the level's uncounted judgments when `store` is given. */
export async function judgeBaseline(db: DbClient, name: string, store?: DbClient): Promise<JudgeBaseline | null> {
  let agg = await readBaseline(db, name);
  if (!agg) return null;
  const ms = config().JUDGE_BASELINE_FILL_MS;
  if (agg.pending > 0 && store && ms > 0 && (await fillLevel(store, agg, ms)) > 0) agg = (await readBaseline(db, name)) ?? agg;
  const limits = styleLimits();
  return {
    ...baselineRates(agg, limits),
    method: "z-score of phrases per judgment against the court level",
    minimums: { judge_judgments: limits.minJudgments, judge_phrases: limits.minPhrases, baseline_judgments: limits.minBaselineJudgments },
  };
}

/**
 * Whether any judgment names the judge (accents and case ignored), without reading the record: a page decides its
 * not-found answer with this before it starts streaming the profile.
 */
export async function judgeKnown(db: DbClient, rawName: string): Promise<boolean> {
  const name = rawName.trim();
  if (name.length < 2 || name.length > 200) return false;
  const { judges } = await searchJudges(db, name, 100);
  const key = fold(name);
  return judges.some((j) => fold(j.name) === key);
}

const year = (iso: string | null) => (iso ? Number(iso.slice(0, 4)) : null);

function categorical(d: Distribution | undefined): ValueCount[] {
  if (!d || d.kind !== "categorical") return [];
  return (d as CategoricalDist).values.map((v) => ({ value: String(v.value), count: v.count }));
}

/**
 * GET /api/judge-fingerprint/profile/{name}: 404 NOT_FOUND when no judgment names the judge. Styles are scored from
 * the stored per-judgment phrase counts (judge_record_phrases); judgments without current counts come with their text,
 * are counted here, and are stored through `store` (the service role) when given, so each is scanned once.
 */
export async function judgeProfile(db: DbClient, rawName: string, store?: DbClient): Promise<JudgeProfile> {
  const name = rawName.trim();
  if (name.length < 2 || name.length > 200) throw notFound("Judge");
  const { data, error } = await db.rpc("judge_record_phrases", {
    p_name: name,
    p_max_texts: config().JUDGE_STYLE_MAX_TEXTS,
    p_version: PATTERNS_VERSION,
  });
  if (error) throw fromDatabaseError(error);
  if (data === null) throw notFound("Judge");
  const rec = JudgeRecord.parse(data);
  const fresh: { judgment_id: string; phrases: CountedText["phrases"] }[] = [];
  const counted: CountedText[] = rec.documents.map((d) => {
    if (d.phrases) return { document_id: d.document_id, case_number: d.case_number, phrases: d.phrases };
    const phrases = countPhrases(d.text ?? "");
    fresh.push({ judgment_id: d.document_id, phrases });
    return { document_id: d.document_id, case_number: d.case_number, phrases };
  });
  if (store) await storePhraseCounts(store, fresh);
  const scores = scoreCounted(counted);
  const baseline = await judgeBaseline(db, rec.name, store);
  if (!baseline) throw notFound("Judge");
  const styles = scoreAgainstBaseline(scores.counts, scores.documents, baseline, styleLimits());
  // The cohort of the outcome counts: completed extractions whose judges field holds the name and whose text has it
  // as a phrase (the substring filter alone would let "Anna Nowak" match "Joanna Nowak").
  const agg = await aggregateExtractedData(db, {
    filters: { appeal_court_judges_names: rec.name },
    text_query: `"${rec.name.replace(/"/g, "")}"`,
    fields: ["appeal_outcome", ...SENTENCE_FIELDS],
    top_n: 20,
  });
  return {
    name: rec.name,
    jurisdiction: rec.jurisdiction,
    judgments: rec.judgments,
    years: { first: year(rec.first), last: year(rec.last) },
    roles: { presiding: rec.presiding, reporting: rec.reporting, member: rec.member },
    courts: rec.courts,
    styles,
    styles_reason: styles.textual.reason,
    style_counts: scores.counts,
    baseline,
    evidence: scores.evidence.map((e) => ({ style: e.style, phrase: e.phrase, pattern_id: e.pattern_id, count: e.count, examples: e.examples })),
    scored_judgments: scores.documents,
    outcomes: { appeal_outcome: categorical(agg.fields.appeal_outcome) },
    sentences: Object.fromEntries(SENTENCE_FIELDS.map((f) => [f, categorical(agg.fields[f])])),
    outcome_judgments: agg.total,
    mode: "no-model",
  };
}

/** Split and check the `judges` parameter of compare: 2-3 distinct names, else 422. */
export function compareNames(raw: string): string[] {
  const names = [...new Set(raw.split(",").map((s) => s.trim()).filter(Boolean))];
  if (names.length < 2 || names.length > 3) {
    throw new ApiError("VALIDATION_ERROR", "judges must name 2 or 3 different judges, separated by commas.", {
      fields: [{ field: "judges", message: "2 or 3 different names" }],
    });
  }
  return names;
}

/** GET /api/judge-fingerprint/compare?judges=A,B[,C]: the profiles side by side, in the order asked. */
export async function compareJudges(db: DbClient, raw: string, store?: DbClient): Promise<JudgeComparison> {
  const names = compareNames(raw);
  const judges: JudgeProfile[] = [];
  // One after another: each profile reads full texts, and three at once would triple the peak memory for no gain.
  for (const n of names) judges.push(await judgeProfile(db, n, store));
  return { judges, mode: "no-model" };
}

export { REASONING_STYLES };
