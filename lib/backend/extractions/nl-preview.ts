/**
 * POST /extractions/base-schema/nl-filter/preview: how many judgments a proposed filter (the NL box's chips) matches
 * before the user applies it, and, when it matches none, how many each chip alone would let through if dropped — so
 * the page can say which chip emptied the cohort and offer to drop it. Counts come from the filter route's own query
 * (filterDocuments, one row asked, its total read): the one matching predicate, no second counting path.
 */
import { z } from "zod";
import type { DbClient } from "@/lib/supabase/db-client";
import { filtersField, type BaseSchemaFilters } from "@/lib/schema/filters";
import { safeText } from "@/lib/schema/text";
import { filterDocuments } from "./filter";

/** A text query is a chip like any filter key; it is named by this key in `without`. */
export const TEXT_CHIP = "text_query";

/**
 * Most chips a zero answer is explained for: each costs one more count query, so a hand-made body with dozens of keys
 * gets the total only (`without: null`). A question the NL box translates sets far fewer.
 */
export const MAX_EXPLAINED_CHIPS = 12;

export const NlPreviewRequestSchema = z.strictObject({
  filters: filtersField({ collectionIds: "refuse" }),
  text_query: safeText().max(1000).nullable().optional(),
});
export type NlPreviewRequest = z.infer<typeof NlPreviewRequestSchema>;

export interface NlPreviewResponse {
  /** Judgments the whole proposal matches. */
  total: number;
  /**
   * Only when `total` is 0 and there is something to drop: for each chip (a filter key, or "text_query"), the count
   * with that chip dropped and the others kept, in the proposal's order. Else null.
   */
  without: { chip: string; total: number }[] | null;
}

async function count(db: DbClient, filters: BaseSchemaFilters, textQuery: string | null): Promise<number> {
  const page = await filterDocuments(db, { filters, text_query: textQuery, limit: 1, offset: 0 });
  return page.total;
}

export async function nlPreview(db: DbClient, req: NlPreviewRequest): Promise<NlPreviewResponse> {
  const filters = req.filters;
  const textQuery = req.text_query?.trim() || null;
  const total = await count(db, filters, textQuery);
  const chips = [...Object.keys(filters), ...(textQuery ? [TEXT_CHIP] : [])];
  if (total > 0 || chips.length === 0 || chips.length > MAX_EXPLAINED_CHIPS) return { total, without: null };
  // Sequential on purpose: a handful of short queries, and one request should not hold several pool connections.
  const without: { chip: string; total: number }[] = [];
  for (const chip of chips) {
    const rest: BaseSchemaFilters = Object.fromEntries(Object.entries(filters).filter(([k]) => k !== chip));
    without.push({ chip, total: await count(db, rest, chip === TEXT_CHIP ? null : textQuery) });
  }
  return { total, without };
}
