/** Reasoning lines: reading rows (zod row schemas, judgments of a line) and the vector arithmetic the analyses share. */
import { z } from "zod";
import type { DbClient } from "@/lib/supabase/db-client";
import { fromDatabaseError, notFound } from "@/lib/errors";
import { isUuid } from "@/lib/schema/uuid";
import { embeddingText, toIndexDocument } from "@/lib/search/document";
import { getSearch } from "@/lib/search/engine";
import type { Embedder } from "@/lib/search/types";

/** The embedder the search engine indexes with (routes pass it; tests and benches may pass their own). */
export const engineEmbedder = (): Embedder => getSearch().embedder;

/** The line id of a path: only a UUID reaches the database; anything else is a plain 404 (spec: the access table). */
export function lineId(raw: string | undefined): string {
  if (!raw || !isUuid(raw)) throw notFound("Reasoning line");
  return raw.toLowerCase();
}

/** withRoute's `params` check of `/reasoning-lines/{id}/…`: the id checked before a write's quota is counted. */
export const lineParams = (raw: Record<string, string>): Record<string, string> => ({ ...raw, id: lineId(raw.id) });

// ---------------------------------------------------------------- reading rows

export const LineRow = z.object({
  id: z.string(),
  label: z.string(),
  description: z.string().nullable(),
  keywords: z.array(z.string()),
  legal_question: z.string().nullable(),
  status: z.enum(["active", "merged", "deleted"]),
  created_at: z.string(),
  updated_at: z.string(),
  member_count: z.coerce.number(),
  first_date: z.string().nullable(),
  last_date: z.string().nullable(),
});
const MemberRow = z.object({
  judgment_id: z.string(),
  position: z.number(),
  decision_date: z.string().nullable(),
  similarity: z.number().nullable(),
  role: z.enum(["origin", "follows", "distinguishes", "departs"]),
  case_number: z.string().nullable(),
  title: z.string().nullable(),
  jurisdiction: z.string(),
  court_name: z.string().nullable(),
});
export const EventRow = z.object({
  id: z.string(),
  kind: z.enum(["drift", "split", "merge", "reversal", "new_member"]),
  at: z.string(),
  details: z.record(z.string(), z.unknown()),
  detected_by: z.string(),
});
export const DetailRow = LineRow.extend({ members: z.array(MemberRow), events: z.array(EventRow) });
export const OverviewRow = LineRow.extend({
  members: z.array(z.object({ judgment_id: z.string(), decision_date: z.string().nullable(), case_number: z.string().nullable() })),
});
export type Overview = z.infer<typeof OverviewRow>;

/** A judgment as analysis reads it (reasoning_judgments: the head of the full text only). */
export type JudgmentRow = Record<string, unknown> & { id: string };

export async function judgmentRows(db: DbClient, ids: readonly string[]): Promise<JudgmentRow[]> {
  if (ids.length === 0) return [];
  const { data, error } = await db.rpc("reasoning_judgments", { p_ids: [...ids] });
  if (error) throw fromDatabaseError(error);
  const byId = new Map<string, JudgmentRow>();
  for (const r of data ?? []) {
    if (typeof r === "object" && r !== null && !Array.isArray(r) && typeof r.id === "string") byId.set(r.id, r as JudgmentRow);
  }
  // Input order, so a seeded sample stays in its seeded order.
  return ids.map((id) => byId.get(id)).filter((r): r is JudgmentRow => r !== undefined);
}

export const str = (v: unknown): string | null => (typeof v === "string" ? v : null);
export const strs = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string" && x.trim() !== "") : []);

/** The vectors the search engine holds for these judgments: the same text, the same embedder. */
export async function embedRows(embedder: Embedder, rows: readonly JudgmentRow[]): Promise<number[][]> {
  if (rows.length === 0) return [];
  return embedder.embedDocuments(rows.map((r) => embeddingText(toIndexDocument(r), str(r.full_text) ?? "")));
}

export function unit(v: readonly number[]): number[] {
  const n = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return n > 0 ? v.map((x) => x / n) : [...v];
}

export function centroidOf(vectors: readonly (readonly number[])[]): number[] {
  const dim = vectors[0]?.length ?? 0;
  const c = new Array<number>(dim).fill(0);
  for (const v of vectors) {
    const u = unit(v);
    for (let d = 0; d < dim; d++) c[d] += u[d] / vectors.length;
  }
  return c;
}

export const round = (x: number, digits = 4) => Math.round(x * 10 ** digits) / 10 ** digits;

export function tally(values: Iterable<string>): Map<string, number> {
  const m = new Map<string, number>();
  for (const v of values) m.set(v, (m.get(v) ?? 0) + 1);
  return m;
}

/** Values shared by at least half of the members (and at least two), most shared first. */
export function shared(rows: readonly JudgmentRow[], pick: (r: JudgmentRow) => string[]): { value: string; count: number }[] {
  const counts = tally(rows.flatMap((r) => [...new Set(pick(r))]));
  const min = Math.max(2, Math.ceil(rows.length / 2));
  return [...counts]
    .filter(([, c]) => c >= min)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, 15)
    .map(([value, count]) => ({ value, count }));
}

export const byDate = (a: { decision_date: string | null; id?: string }, b: { decision_date: string | null; id?: string }) =>
  (a.decision_date ?? "9999") < (b.decision_date ?? "9999") ? -1 : (a.decision_date ?? "9999") > (b.decision_date ?? "9999") ? 1 : 0;

// ---------------------------------------------------------------- discover (read-only)
