/**
 * Request schemas of structured search (filter, aggregate, facets, histogram) and collections. The filter object
 * itself is parsed by lib/schema/filters.ts (BaseSchemaFiltersSchema, built from the field registry, D-05).
 */
import { z } from "zod";
import { safeText } from "@/lib/schema/text";
import { config } from "@/lib/config";
import { isoDate } from "./dates";
import { uuidSchema } from "../uuid";

// The filter object's schema, type and UUID test live in lib/schema/filters.ts (the one parser); re-exported here for
// the request schemas' callers.
export { BaseSchemaFiltersSchema, type BaseSchemaFilters } from "../filters";
import { filtersField, filtersQueryField } from "../filters";

// Re-exported: isoDate lives in ./dates so light routes can import it without the field registry.
export { isoDate };

const textQuery = safeText().max(1000).nullable().optional();

/** POST /api/extractions/base-schema/filter. Issues under `filters` answer FILTER_INVALID; collection_ids is refused (D-10). */
export const FilterRequestSchema = z.strictObject({
  filters: filtersField({ collectionIds: "refuse" }),
  text_query: textQuery,
  limit: z.int().min(1).max(100).default(20), // D-28: > 100 is a 422, not a clamp
  offset: z.int().min(0).max(10_000).default(0),
});
export type FilterRequest = z.infer<typeof FilterRequestSchema>;

/** POST /api/extractions/base-schema/aggregate (spec table; D-14 ranges). */
export const AggregateRequestSchema = z.strictObject({
  filters: filtersField({ collectionIds: "refuse" }),
  text_query: textQuery,
  fields: z.array(safeText()).min(1).max(50).nullable().optional(),
  sample_size: z.int().min(1).max(20_000).nullable().optional(),
  seed: z.int().min(-2_147_483_648).max(2_147_483_647).nullable().optional(),
  top_n: z.int().min(1).max(100).default(20),
});
export type AggregateRequest = z.infer<typeof AggregateRequestSchema>;

/** Query strings carry the filter as JSON text (`filters`), as the page URL carries it base64url-encoded. */
const filtersParam = filtersQueryField({ collectionIds: "refuse", maxChars: 20_000 });

/**
 * `include`: a JSON array of values whose count in the cohort is always returned, 0 when none has them (the page
 * sends a fixed value set and the user's selection, so nothing is offered with a count it does not have there).
 */
const includeParam = safeText()
  .max(20_000)
  .optional()
  .transform((s, ctx): string[] | undefined => {
    if (s === undefined || s.trim() === "") return undefined;
    let raw: unknown;
    try {
      raw = JSON.parse(s);
    } catch {
      raw = null;
    }
    const parsed = z.array(safeText().min(1).max(500)).max(100).safeParse(raw);
    if (!parsed.success) {
      ctx.addIssue({ code: "custom", message: "include must be a JSON array of at most 100 strings" });
      return z.NEVER;
    }
    return parsed.data;
  });

/** GET /api/extractions/base-schema/facets?field=&q=&limit=&filters=&text_query=&include= */
export const FacetsQuerySchema = z.strictObject({
  field: safeText().min(1).max(100),
  q: safeText().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
  filters: filtersParam,
  text_query: safeText().max(1000).optional(),
  include: includeParam,
});
export type FacetsQuery = z.infer<typeof FacetsQuerySchema>;

/** GET /api/extractions/base-schema/histogram?field=&filters=&text_query= */
export const HistogramQuerySchema = z.strictObject({
  field: safeText().min(1).max(100),
  filters: filtersParam,
  text_query: safeText().max(1000).optional(),
});
export type HistogramQuery = z.infer<typeof HistogramQuerySchema>;

const collectionName = safeText()
  .max(255)
  .refine((s) => s.trim().length >= 1, "must not be blank");
const collectionDescription = safeText().max(1000);

/** POST /api/collections/from-filter. `filters` is checked in steps (INVALID_COLLECTION_ID first, spec table). */
export const FromFilterRequestSchema = z.strictObject({
  name: collectionName,
  description: collectionDescription.nullable().optional(),
  // Required and not null (R-END-075): null would otherwise read as "no filter", i.e. the whole completed corpus.
  filters: filtersField({ collectionIds: "uuids", required: true }),
  text_query: textQuery,
});
export type FromFilterRequest = z.infer<typeof FromFilterRequestSchema>;

/** Collection tags: the same limits as the database check public.collection_tags_valid (migration 20260110000100). */
export const COLLECTION_TAGS_MAX = 20;
export const COLLECTION_TAG_MAX_CHARS = 50;
const collectionTags = z
  .array(
    z
      .string()
      .transform((t) => t.trim())
      .pipe(safeText().min(1, "must not be blank").max(COLLECTION_TAG_MAX_CHARS, `at most ${COLLECTION_TAG_MAX_CHARS} characters`)),
  )
  .max(COLLECTION_TAGS_MAX, `at most ${COLLECTION_TAGS_MAX} tags`)
  .transform((tags) => [...new Set(tags)]);

/** POST /api/collections {name, description?, document_ids?, tags?} (R-END-142): documents and tags in one atomic call. */
export const CreateCollectionSchema = z.strictObject({
  name: collectionName,
  description: collectionDescription.nullable().optional(),
  document_ids: z
    .array(uuidSchema)
    .superRefine((ids, ctx) => {
      const max = config().MAX_BATCH_DOCUMENT_IDS;
      if (ids.length > max) ctx.addIssue({ code: "custom", message: `at most ${max} ids per call` });
    })
    .optional(),
  tags: collectionTags.optional(),
});

/** PATCH /api/collections/{id}: at least one of name, description (null clears it). */
export const PatchCollectionSchema = z
  .strictObject({
    name: collectionName.optional(),
    description: collectionDescription.nullable().optional(),
  })
  .refine((p) => p.name !== undefined || p.description !== undefined, "give name or description");

/** GET list pages. */
export const PageQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).max(10_000).default(0),
});

/** POST /api/collections/{id}/documents */
export const AddDocumentSchema = z.strictObject({ document_id: uuidSchema });

/** Lists of document ids (batch add, remove): 1 to MAX_BATCH_DOCUMENT_IDS (default 100), read when a request is parsed. */
export const DocumentIdsSchema = z.strictObject({
  document_ids: z
    .array(uuidSchema)
    .min(1)
    .superRefine((ids, ctx) => {
      const max = config().MAX_BATCH_DOCUMENT_IDS;
      if (ids.length > max) ctx.addIssue({ code: "custom", message: `at most ${max} ids per call` });
    }),
});
