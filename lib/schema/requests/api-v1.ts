/**
 * Request schemas of the reference API for servers (`/api/v1/**`). The route handlers validate with these
 * and the OpenAPI document (lib/backend/api-v1/openapi.ts) is generated from the same objects, so the contract cannot
 * drift from what the handlers accept. `.meta({description})` carries the field's documentation into the document.
 */
import { z } from "zod";
import { safeText } from "@/lib/schema/text";
import { isoDate } from "./dates";
import { uuidSchema } from "../uuid";
import { CITES_VALUE_PATTERN } from "../provision-id";

const limit = (def: number) => z.int().min(1).max(100).default(def).meta({ description: `Page size, 1-100 (default ${def}).` });
const offset = z.int().min(0).max(10_000).default(0).meta({ description: "Rows to skip (default 0, at most 10000)." });
/** Query strings are text: the numbers are coerced, then checked like the body's. */
const qLimit = (def: number) => z.coerce.number().int().min(1).max(100).default(def).meta({ description: `Page size, 1-100 (default ${def}).` });
const qOffset = z.coerce.number().int().min(0).max(10_000).default(0).meta({ description: "Rows to skip (default 0, at most 10000)." });
const jurisdiction = z.enum(["PL", "UK"]).meta({ description: "PL (Poland) or UK (England and Wales)." });
const date = isoDate.meta({ description: "YYYY-MM-DD." });
/** A filter value: no quotes or backslashes (they would need escaping in the engine's filter expressions). */
const filterValue = safeText().trim().min(1).max(100).regex(/^[^"\\]*$/, "must not contain quotes or backslashes");

/** GET /api/v1/documents */
export const V1DocumentsListQuery = z.strictObject({
  limit: qLimit(20),
  offset: qOffset,
  jurisdiction: jurisdiction.optional(),
  court_name: safeText().trim().min(1).max(300).optional().meta({ description: "Exact court name." }),
  date_from: date.optional(),
  date_to: date.optional(),
  sort_by: z.enum(["date", "relevance"]).default("date").meta({ description: "date (default) or relevance (no query here: orders like date)." }),
  sort_order: z.enum(["asc", "desc"]).default("desc"),
});

/** The reference search filters (spec: Reference endpoints). */
export const V1SearchFilters = z
  .strictObject({
    jurisdiction: jurisdiction.optional(),
    court_level: filterValue.optional(),
    decision_date_from: date.optional(),
    decision_date_to: date.optional(),
    keywords: z.array(safeText().trim().min(1).max(100)).max(20).optional().meta({ description: "Every keyword must occur in the judgment (search: added to the text query)." }),
    case_type: filterValue.optional(),
    cites: z
      .array(safeText().regex(new RegExp(CITES_VALUE_PATTERN, "u"), "must be a provision id (PL/kk/279/§1, UK/ukpga/1861/100/s18) or a judgment id"))
      .min(1)
      .max(20)
      .optional()
      .meta({
        description:
          "Judgments citing any of these: canonical provision ids (PL/kk/279/§1; an article or act includes its sub-provisions; see GET /api/v1/legislation?q=) or corpus judgment ids (docs/citations.md).",
      }),
  })
  .meta({ description: "Reference search filters." });
export type V1SearchFiltersT = z.infer<typeof V1SearchFilters>;

/** POST /api/v1/documents/search */
export const V1SearchBody = z.strictObject({
  query: safeText().trim().min(1).max(1000),
  filters: V1SearchFilters.optional(),
  search_type: z.enum(["text", "semantic", "hybrid"]).default("hybrid"),
  limit: limit(20),
  offset,
  include_highlights: z.boolean().default(true),
  include_similar: z.boolean().default(false).meta({ description: "Add up to 3 similar judgments to each of the first 5 results." }),
  sort: z
    .enum(["relevance", "newest", "oldest", "cited_by"])
    .optional()
    .meta({ description: "relevance (default), newest or oldest by decision date, or cited_by (most cited first: the citator's count of citing judgments)." }),
});

/** POST /api/v1/documents/{id}/similar */
export const V1SimilarBody = z.strictObject({ limit: limit(10) });

/** POST /api/v1/search/semantic */
export const V1SemanticBody = z.strictObject({
  query: safeText().trim().min(1).max(1000),
  limit: limit(10),
  min_similarity: z.number().min(0).max(1).default(0),
  filters: V1SearchFilters.optional(),
});

/** POST /api/v1/search/facets */
// The counts come from one SQL function over the judgment columns (api_v1 facets), which has no `cites`: refused, not ignored.
export const V1FacetsBody = z.strictObject({ filters: V1SearchFilters.omit({ cites: true }).optional() });

/** GET /api/v1/collections */
export const V1PageQuery = z.strictObject({ limit: qLimit(20), offset: qOffset });

/** GET /api/v1/statistics */
export const V1StatisticsQuery = z.strictObject({
  jurisdiction: jurisdiction.optional(),
  date_from: date.optional(),
  date_to: date.optional(),
});

/** POST /api/v1/feedback */
export const V1FeedbackBody = z.strictObject({
  type: z.enum(["search", "chat", "document"]),
  rating: z.int().min(1).max(5),
  comment: safeText().max(2000).optional(),
  context: z.strictObject({ query: safeText().max(1000).optional(), document_id: uuidSchema.optional() }).optional(),
});

// Schemas and the assistants (chat, qa) answer over the web tier's backends.
/** POST /api/v1/schemas/generate: the web route's rules (a description of 10-4000 characters once trimmed). */
export const V1GenerateSchemaBody = z.strictObject({
  description: safeText().trim().min(10).max(4000).meta({ description: "What to extract, in plain words (10-4000 characters)." }),
  example_document_id: uuidSchema.optional().meta({ description: "A judgment whose opening the model is shown as an example." }),
});
/**
 * The filters chat and question answering retrieve under: the reference filters the passage index can apply
 * (jurisdiction and decision dates; keywords join the retrieval query). court_level and case_type are not attributes
 * of passages, so they are refused (422) rather than ignored.
 */
export const V1AssistantFilters = V1SearchFilters.omit({ court_level: true, case_type: true }).meta({
  description: "Retrieval filters: jurisdiction, decision_date_from, decision_date_to, keywords (added to the retrieval query).",
});
export type V1AssistantFiltersT = z.infer<typeof V1AssistantFilters>;
/** POST /api/v1/chat */
export const V1ChatBody = z
  .strictObject({
    message: safeText().trim().min(1).max(4000),
    thread_id: uuidSchema.optional().meta({ description: "Not kept by the reference API (each call answers one message; threads live in the web app): given → 422." }),
    filters: V1AssistantFilters.optional(),
    stream: z.boolean().default(true).meta({ description: "true (default): server-sent events token, sources, done; false: one JSON object." }),
  })
  .refine((b) => b.thread_id === undefined, { path: ["thread_id"], message: "threads are not kept by the reference API; send the message without thread_id" });
/** POST /api/v1/qa */
export const V1QaBody = z.strictObject({ question: safeText().trim().min(1).max(2000), context_filters: V1AssistantFilters.optional() });
