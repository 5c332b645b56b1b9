/**
 * Request schemas of cohorts: compare two cohorts, cite a cohort. A cohort is a filter object (parsed by the one filter
 * parser, lib/schema/filters.ts) with an optional text query, or one of the caller's collections.
 */
import { z } from "zod";
import { safeText } from "@/lib/schema/text";
import { filtersField } from "../filters";
import { uuidSchema } from "../uuid";

const textQuery = safeText().max(1000).nullable().optional();
const seed = z.int().min(-2_147_483_648).max(2_147_483_647);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** One side of a compare: `{filters, text_query?}` or `{collection_id}`, exactly one of the two. */
const CohortSideSchema = z
  .unknown()
  .superRefine((raw, ctx) => {
    if (!isObject(raw)) {
      ctx.addIssue({ code: "custom", message: "must be {filters} or {collection_id}" });
      return;
    }
    const hasFilters = Object.prototype.hasOwnProperty.call(raw, "filters");
    const hasCollection = Object.prototype.hasOwnProperty.call(raw, "collection_id");
    if (hasFilters === hasCollection) ctx.addIssue({ code: "custom", message: "give exactly one of filters and collection_id" });
    if (hasCollection && Object.prototype.hasOwnProperty.call(raw, "text_query")) {
      ctx.addIssue({ code: "custom", message: "text_query goes with filters, not with collection_id" });
    }
  })
  .pipe(
    z.strictObject({
      // collection_ids inside a filter is refused: a collection is named by collection_id, whose ownership is checked.
      filters: filtersField({ collectionIds: "refuse" }),
      text_query: textQuery,
      collection_id: uuidSchema.optional(),
    }),
  );
export type CohortSide = z.infer<typeof CohortSideSchema>;

/** POST /api/cohorts/compare (and /api/v1/cohorts/compare). */
export const CompareCohortsSchema = z.strictObject({
  a: CohortSideSchema,
  b: CohortSideSchema,
  fields: z.array(safeText().max(100)).min(1).max(20),
  /** Values listed per categorical field, most frequent over both cohorts first. */
  top_n: z.int().min(1).max(100).default(20),
  /** The bootstrap's seed; the default is fixed, so a compare is reproducible without one. */
  seed: seed.default(20261208),
});
export type CompareCohortsRequest = z.infer<typeof CompareCohortsSchema>;

/** POST /api/cohorts {filters, text_query?, seed?}: cite a cohort. */
export const CreateCohortSchema = z.strictObject({
  filters: filtersField({ collectionIds: "refuse", required: true }),
  text_query: textQuery,
  /** The sample seed the citing page used (e.g. its aggregate sample), stored so the sample can be drawn again. */
  seed: seed.nullable().optional(),
});
export type CreateCohortRequest = z.infer<typeof CreateCohortSchema>;

/** A cited cohort's short id: 12 base62 characters (ids are made by lib/backend/cohorts). */
export const COHORT_ID_PATTERN = /^[0-9A-Za-z]{12}$/;
