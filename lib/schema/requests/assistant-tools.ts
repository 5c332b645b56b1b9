/** Request schemas of the precedent finder, argumentation analysis and document helpers. */
import { z } from "zod";
import { safeText } from "@/lib/schema/text";
import { uuidSchema } from "../uuid";
import { filtersField } from "../filters";

/** POST /api/precedents/find. `filters` is a BaseSchemaFilters object (FILTER_INVALID; collection_ids refused, D-10). */
export const PrecedentsRequestSchema = z.strictObject({
  query: safeText().trim().min(10, "at least 10 characters").max(5000),
  document_id: uuidSchema.optional(),
  filters: filtersField({ collectionIds: "refuse" }),
  limit: z.int().min(1).max(50).default(10),
  /** With a model configured: re-score the candidates with it (default true); false keeps the no-model ranking. */
  include_analysis: z.boolean().optional(),
});
export type PrecedentsRequest = z.infer<typeof PrecedentsRequestSchema>;

export const REASONING_PATTERN_VALUES = ["deductive", "analogical", "policy", "textual", "teleological"] as const;

/** POST /api/argumentation/argumentation/analyze. */
export const ArgumentationRequestSchema = z.strictObject({
  document_ids: z
    .array(uuidSchema)
    .min(1)
    .max(5)
    .refine((a) => new Set(a.map((x) => x.toLowerCase())).size === a.length, "document ids must be distinct"),
  focus_areas: z.array(safeText().trim().min(1).max(200)).max(5).optional(),
  detail_level: z.enum(["basic", "detailed"]).default("basic"),
});
export type ArgumentationRequest = z.infer<typeof ArgumentationRequestSchema>;

export const SUMMARY_LENGTHS = ["short", "medium", "long"] as const;
export type SummaryLength = (typeof SUMMARY_LENGTHS)[number];

/** POST /api/documents/summarize: one document_id or up to five document_ids (exactly one of the two). */
export const SummarizeRequestSchema = z
  .strictObject({
    document_id: uuidSchema.optional(),
    document_ids: z
      .array(uuidSchema)
      .min(1)
      .max(5)
      .refine((a) => new Set(a.map((x) => x.toLowerCase())).size === a.length, "document ids must be distinct")
      .optional(),
    length: z.enum(SUMMARY_LENGTHS).default("medium"),
  })
  .refine((b) => (b.document_id === undefined) !== (b.document_ids === undefined), {
    message: "give document_id or document_ids (not both)",
    path: ["document_id"],
  });
export type SummarizeRequest = z.infer<typeof SummarizeRequestSchema>;

/** POST /api/documents/key-points. */
export const KeyPointsRequestSchema = z.strictObject({ document_id: uuidSchema });

/** GET /api/documents/{id}/versions?limit=&before= */
export const VersionsQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  before: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
});
