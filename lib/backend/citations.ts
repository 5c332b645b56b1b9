/**
 * The citation graph's reads (GET /api/documents/{id}/references, /cited-by): what a judgment cites, with each
 * target's id when the reference resolved, and the judgments citing it, paged. Through the caller's client and the
 * RPCs of migration 20261207700100 (public like the judgment's own reads: lib/auth/public-routes.ts).
 */
import { z } from "zod";
import { ApiError, fromDatabaseError } from "@/lib/errors";
import { checkId } from "./documents";
import type { Identity } from "./identity";
import { pageLimitParam, pageOffsetParam } from "@/lib/schema/requests/paging";
import { safeText } from "@/lib/schema/text";

const judgmentSummary = z.object({
  id: z.string(),
  case_number: z.string().nullable(),
  title: z.string().nullable(),
  court_name: z.string().nullable(),
  decision_date: z.string().nullable(),
  jurisdiction: z.string(),
});

const referenceRow = z.object({
  kind: z.enum(["case", "legislation", "guideline"]),
  jurisdiction: z.enum(["PL", "UK"]),
  origin: z.enum(["text", "structured"]),
  text: z.string(),
  start: z.number().int().nullable(),
  end: z.number().int().nullable(),
  canonical_id: z.string().nullable(),
  resolved: z.boolean(),
  target_id: z.string().nullable(),
  target: judgmentSummary.nullable(),
  court: z.string().nullable(),
  date: z.string().nullable(),
  case_name: z.string().nullable(),
  group: z.number().int().nullable(),
});

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "a date as YYYY-MM-DD");

/** Filters and sort of a citing-judgments list (provision pages and "Cited by" panels). */
export const CitingListQuery = z.object({
  jurisdiction: z.enum(["PL", "UK"]).optional(),
  court: safeText().trim().min(1).max(300).optional(),
  outcome: safeText().trim().min(1).max(100).optional(),
  date_from: isoDate.optional(),
  date_to: isoDate.optional(),
  sort: z.enum(["newest", "oldest", "cited_by"]).default("newest"),
  limit: pageLimitParam(),
  offset: pageOffsetParam(),
});

const citingItem = judgmentSummary.extend({
  outcome: z.string().nullable(),
  cited_by_count: z.number().int(),
  /** How many references of this judgment name the target. */
  references: z.number().int(),
});

export type CitingItem = z.infer<typeof citingItem>;

const citingBody = z.object({
  total: z.number().int(),
  by_year: z.array(z.object({ year: z.number().int(), count: z.number().int() })),
  by_outcome: z.array(z.object({ outcome: z.string(), count: z.number().int() })),
  items: z.array(citingItem),
});

export type CitingList = z.infer<typeof citingBody> & { limit: number; offset: number };

/** The judgments whose `cites` hold `target` (a provision id, or a judgment id), filtered; null: no such judgment. */
export async function citingJudgments(target: string, q: z.infer<typeof CitingListQuery>, identity: Identity, cap?: number): Promise<CitingList | null> {
  const limit = cap ?? q.limit;
  const { data, error } = await identity.db.rpc("citing_judgments", {
    p_cites: target,
    p_jurisdiction: q.jurisdiction ?? null,
    p_court: q.court ?? null,
    p_outcome: q.outcome ?? null,
    p_from: q.date_from ?? null,
    p_to: q.date_to ?? null,
    p_sort: q.sort,
    p_limit: limit,
    p_offset: cap ? 0 : q.offset,
  });
  if (error) throw fromDatabaseError(error);
  if (data === null) return null;
  return { ...citingBody.parse(data), limit, offset: cap ? 0 : q.offset };
}


export type DocumentReference = z.infer<typeof referenceRow>;

/** GET /api/documents/{id}/references. */
export interface DocumentReferencesBody {
  document_id: string;
  items: DocumentReference[];
  total: number;
}

/** GET /api/documents/{id}/cited-by: the citing judgments (filtered, sorted, paged) and counts per year and outcome. */
export interface CitedByBody extends CitingList {
  document_id: string;
}

/** Filters (jurisdiction, court, outcome, date range), sort (newest, oldest, cited_by) and paging. */
export const CitedByQuery = CitingListQuery;

const notFound = () => new ApiError("DOCUMENT_NOT_FOUND", "Judgment not found");

export async function documentReferences(rawId: string | undefined, identity: Identity): Promise<DocumentReferencesBody> {
  const id = checkId(rawId);
  const { data, error } = await identity.db.rpc("judgment_references_of", { p_id: id });
  if (error) throw fromDatabaseError(error);
  if (data === null) throw notFound();
  const items = z.array(referenceRow).parse(data);
  return { document_id: id, items, total: items.length };
}

export async function documentCitedBy(rawId: string | undefined, query: z.infer<typeof CitedByQuery>, identity: Identity): Promise<CitedByBody> {
  const id = checkId(rawId);
  const list = await citingJudgments(id, query, identity);
  if (list === null) throw notFound();
  return { document_id: id, ...list };
}
