/**
 * Judge fingerprint: who a judge is on the record (judgments, years, roles, courts: SQL
 * judge_record over the `judges` column), how they reason (reasoning-style phrase counts over the full texts,
 * lib/analysis/reasoning-patterns.ts, max-normalised, with the phrases and judgments each score came from), and how
 * their appeals ended and what sentences were passed (the extracted base fields, through the one aggregate:
 * aggregate_extracted_data). No model is involved anywhere: `mode` is always "no-model".
 */
import { z } from "zod";
import { config } from "@/lib/config";
import type { DbClient } from "@/lib/supabase/db-client";
import { ApiError, fromDatabaseError, notFound } from "@/lib/errors";
import { REASONING_STYLES, scoreCounted, type CountedText, type ReasoningStyle } from "@/lib/analysis/reasoning-patterns";
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
  styles: Record<ReasoningStyle, number>;
  /** Raw phrase counts per style (the styles are these, max-normalised to 0-100). */
  style_counts: Record<ReasoningStyle, number>;
  evidence: JudgeEvidence[];
  /** Judgments whose full text was scored (the newest JUDGE_STYLE_MAX_TEXTS). */
  scored_judgments: number;
  outcomes: { appeal_outcome: ValueCount[] };
  sentences: Record<string, ValueCount[]>;
  /** Judgments the outcome and sentence distributions were counted over (completed extractions naming the judge). */
  outcome_judgments: number;
  mode: "no-model";
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
    styles: scores.styles,
    style_counts: scores.counts,
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
