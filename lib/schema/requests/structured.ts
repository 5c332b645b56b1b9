/**
 * Request schemas of structured search (filter, aggregate, facets, histogram) and collections. The BaseSchemaFilters
 * schema is built from the field registry (D-05): one optional key per filter key, its shape from the key's control.
 * The SQL functions check the same rules (structured.filter_clause); this is the edge check that names the field.
 */
import { z } from "zod";
import { filterFieldSpecs, type FilterFieldSpec } from "@/lib/backend/extractions/filter-fields";
import { config } from "@/lib/config";
import { isoDate } from "./dates";

/** Loose UUID text (any version), the same test the SQL applies to collection ids. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const uuidString = z.string().regex(UUID_PATTERN, "must be a UUID");

// Re-exported: isoDate lives in ./dates so light routes can import it without the field registry.
export { isoDate };

const bound = <T extends z.ZodType>(t: T) => t.nullable().optional();

/** Schema of one filter key's value, by control. */
function valueSchema(spec: FilterFieldSpec): z.ZodType {
  switch (spec.control) {
    case "enum_multi":
    case "tag_array":
      // Any-of; [] matches nothing (D-09).
      return spec.enumValues
        ? z.array(z.enum(spec.enumValues as [string, ...string[]])).max(100)
        : z.array(z.string().max(500)).max(100);
    case "boolean_tri":
      return z.boolean();
    case "numeric_range":
      return z.union([z.number(), z.strictObject({ min: bound(z.number()), max: bound(z.number()) })]);
    case "date_range":
      // ISO strings only; {min,max} are aliases of {from,to} (D-08).
      return z.union([
        isoDate,
        z.strictObject({ from: bound(isoDate), to: bound(isoDate) }),
        z.strictObject({ min: bound(isoDate), max: bound(isoDate) }),
      ]);
    case "substring":
      return z.string().max(500);
    case "uuid_membership":
      return z.array(uuidString).max(100);
  }
}

/** BaseSchemaFilters: every filter key of the registry, optional; an unknown key is an error (D-06). */
export const BaseSchemaFiltersSchema = z.strictObject(
  Object.fromEntries(
    filterFieldSpecs()
      .filter((s) => s.filterable)
      .map((s) => [s.key, valueSchema(s).optional()]),
  ),
);
export type BaseSchemaFilters = Record<string, unknown>;

const textQuery = z.string().max(1000).nullable().optional();

/** POST /api/extractions/base-schema/filter. `filters` is checked separately so errors carry FILTER_INVALID. */
export const FilterRequestSchema = z.strictObject({
  filters: z.unknown().optional(),
  text_query: textQuery,
  limit: z.int().min(1).max(100).default(20), // D-28: > 100 is a 422, not a clamp
  offset: z.int().min(0).max(10_000).default(0),
});
export type FilterRequest = z.infer<typeof FilterRequestSchema>;

/** POST /api/extractions/base-schema/aggregate (spec table; D-14 ranges). */
export const AggregateRequestSchema = z.strictObject({
  filters: z.unknown().optional(),
  text_query: textQuery,
  fields: z.array(z.string()).min(1).max(50).nullable().optional(),
  sample_size: z.int().min(1).max(20_000).nullable().optional(),
  seed: z.int().min(-2_147_483_648).max(2_147_483_647).nullable().optional(),
  top_n: z.int().min(1).max(100).default(20),
});
export type AggregateRequest = z.infer<typeof AggregateRequestSchema>;

/** Query strings carry the filter as JSON text (`filters`), as the page URL carries it base64url-encoded. */
const filtersParam = z
  .string()
  .max(20_000)
  .optional()
  .transform((s, ctx) => {
    if (s === undefined || s.trim() === "") return {};
    try {
      return JSON.parse(s) as unknown;
    } catch {
      ctx.addIssue({ code: "custom", message: "must be JSON" });
      return z.NEVER;
    }
  });

/** GET /api/extractions/base-schema/facets?field=&q=&limit=&filters=&text_query= */
export const FacetsQuerySchema = z.strictObject({
  field: z.string().min(1).max(100),
  q: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
  filters: filtersParam,
  text_query: z.string().max(1000).optional(),
});
export type FacetsQuery = z.infer<typeof FacetsQuerySchema>;

/** GET /api/extractions/base-schema/histogram?field=&filters=&text_query= */
export const HistogramQuerySchema = z.strictObject({
  field: z.string().min(1).max(100),
  filters: filtersParam,
  text_query: z.string().max(1000).optional(),
});
export type HistogramQuery = z.infer<typeof HistogramQuerySchema>;

const collectionName = z
  .string()
  .max(255)
  .refine((s) => s.trim().length >= 1, "must not be blank");
const collectionDescription = z.string().max(1000);

/** POST /api/collections/from-filter. `filters` is checked in steps (INVALID_COLLECTION_ID first, spec table). */
export const FromFilterRequestSchema = z.strictObject({
  name: collectionName,
  description: collectionDescription.nullable().optional(),
  // Required and not null (R-END-075): null would otherwise read as "no filter", i.e. the whole completed corpus.
  filters: z.unknown().refine((v) => v !== undefined && v !== null, "is required (a filter object; null is not one)"),
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
      .pipe(z.string().min(1, "must not be blank").max(COLLECTION_TAG_MAX_CHARS, `at most ${COLLECTION_TAG_MAX_CHARS} characters`)),
  )
  .max(COLLECTION_TAGS_MAX, `at most ${COLLECTION_TAGS_MAX} tags`)
  .transform((tags) => [...new Set(tags)]);

/** POST /api/collections {name, description?, document_ids?, tags?} (R-END-142): documents and tags in one atomic call. */
export const CreateCollectionSchema = z.strictObject({
  name: collectionName,
  description: collectionDescription.nullable().optional(),
  document_ids: z
    .array(uuidString)
    .superRefine((ids, ctx) => {
      const max = config().MAX_BATCH_DOCUMENT_IDS;
      if (ids.length > max) ctx.addIssue({ code: "custom", message: `at most ${max} ids per call` });
    })
    .optional(),
  tags: collectionTags.optional(),
});
export type CreateCollectionRequest = z.infer<typeof CreateCollectionSchema>;

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
export const AddDocumentSchema = z.strictObject({ document_id: uuidString });

/** Lists of document ids (batch add, remove): 1 to MAX_BATCH_DOCUMENT_IDS (default 100), read when a request is parsed. */
export const DocumentIdsSchema = z.strictObject({
  document_ids: z
    .array(uuidString)
    .min(1)
    .superRefine((ids, ctx) => {
      const max = config().MAX_BATCH_DOCUMENT_IDS;
      if (ids.length > max) ctx.addIssue({ code: "custom", message: `at most ${max} ids per call` });
    }),
});
