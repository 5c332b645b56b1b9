/**
 * The OpenAPI 3.1 document of the reference API (`GET /api/v1/openapi.json`), generated from the
 * very zod schemas the route handlers validate with (zod 4's JSON Schema output, draft 2020-12 = OpenAPI 3.1's
 * dialect). `V1_OPERATIONS` is the one table of /api/v1 routes: tests/unit/api-v1-openapi.test.ts proves every
 * `app/api/v1/**\/route.ts` method is in it and every entry has a route.
 */
import { z } from "zod";
import { config } from "@/lib/config";
import {
  V1ChatBody,
  V1DocumentsListQuery,
  V1FacetsBody,
  V1FeedbackBody,
  V1GenerateSchemaBody,
  V1PageQuery,
  V1QaBody,
  V1SearchBody,
  V1SemanticBody,
  V1SimilarBody,
  V1StatisticsQuery,
} from "@/lib/schema/requests/api-v1";
import { CompareCohortsSchema } from "@/lib/schema/requests/cohorts";
import { schemaFieldSchema } from "@/lib/schema/requests/schemas";
import { CitedByQuery } from "../citations";
import { LegislationLookupQuery, ProvisionQuery } from "../legislation";
import { AggregateRequestSchema, CreateCollectionSchema, FilterRequestSchema } from "@/lib/schema/requests/structured";

export interface V1Operation {
  method: "get" | "post";
  /** OpenAPI path template (`{id}`), under /api/v1. */
  path: string;
  tag: "documents" | "citations" | "search" | "extractions" | "collections" | "analytics" | "capabilities" | "service";
  summary: string;
  description?: string;
  query?: z.ZodType;
  body?: z.ZodType;
  /** The success status and what it returns; `schema` (a zod object) documents the answer's shape when given. */
  success: { status: 200 | 201; description: string; schema?: z.ZodType };
  /** Further documented errors of this operation: status → when it happens (error code). */
  errors?: Readonly<Record<number, string>>;
  /** A GET list: limit/offset and a Link header (first, next). POST searches page by their body's limit/offset. */
  list?: boolean;
  /** Needs a key issued to a user (user data, RLS as that user). */
  userData?: boolean;
  /** Readable without a key (the document itself). */
  public?: boolean;
}

/** The answer of POST /api/v1/cohorts/compare (lib/backend/cohorts/compare.ts). */
const V1CompareValue = z.object({
  value: z.string(),
  a_count: z.int(),
  b_count: z.int(),
  a_share: z.number(),
  b_share: z.number(),
  diff: z.number().meta({ description: "a_share − b_share." }),
  ci_low: z.number().meta({ description: "95 % Newcombe hybrid score (Wilson-based) interval of diff, lower end." }),
  ci_high: z.number(),
});
const V1NumericSummary = z.object({ n: z.int(), median: z.number().nullable(), q1: z.number().nullable(), q3: z.number().nullable(), min: z.number().nullable(), max: z.number().nullable() });
const V1CompareAnswer = z.object({
  a: z.object({ size: z.int() }),
  b: z.object({ size: z.int() }),
  confidence: z.literal(0.95),
  seed: z.int().meta({ description: "The bootstrap seed used (the request's, or the fixed default)." }),
  bootstrap_resamples: z.int(),
  fields: z.array(
    z.union([
      z.object({ field: z.string(), kind: z.enum(["categorical", "year"]), multi: z.boolean(), a_covered: z.int(), b_covered: z.int(), values: z.array(V1CompareValue) }),
      z.object({
        field: z.string(),
        kind: z.literal("numeric"),
        a: V1NumericSummary,
        b: V1NumericSummary,
        diff: z.number().nullable().meta({ description: "median a − median b." }),
        ci_low: z.number().nullable().meta({ description: "95 % percentile bootstrap interval of diff (seeded), lower end." }),
        ci_high: z.number().nullable(),
        bins: z.array(z.object({ lo: z.number(), hi: z.number(), a_count: z.int(), b_count: z.int() })),
      }),
    ]),
  ),
});

/** One entry of the schema list (the answer shape of GET /api/v1/schemas, spec "list schemas"). */
const V1SchemaSummary = z.object({
  id: z.string().meta({ description: '"base" for the built-in, read-only base schema; otherwise the schema\'s UUID.' }),
  name: z.string(),
  description: z.string().nullable(),
  version: z.int().min(1).meta({ description: "The schema's current version number." }),
  created_at: z.string().meta({ description: "ISO 8601 timestamp." }),
});
const V1SchemaListAnswer = z.object({
  schemas: z.array(V1SchemaSummary),
  total: z.int().meta({ description: "The base schema plus the key's user's own schemas." }),
  page: z.int(),
  per_page: z.int(),
  pages: z.int(),
});
/** The answer of POST /api/v1/schemas/generate (spec "generate schema": {schema}), with the draft's fields beside it. */
const V1GeneratedSchemaAnswer = z.object({
  schema: z.record(z.string(), z.unknown()).meta({ description: "A JSON Schema (draft-07) object: one property per drafted field (optional ones nullable), compiled with ajv." }),
  name: z.string(),
  description: z.string(),
  fields: z.array(schemaFieldSchema()).meta({ description: "The drafted fields, in the form POST /api/schemas saves (the draft itself is not stored)." }),
  mode: z.literal("model"),
});

export const V1_OPERATIONS: readonly V1Operation[] = [
  { method: "get", path: "/api/v1/health", tag: "service", summary: "Service health (D-20)", success: { status: 200, description: "{status, version, commit, built_at, timestamp, services{database, cache, llm_provider}}" } },
  { method: "get", path: "/api/v1/openapi.json", tag: "service", summary: "This document", public: true, success: { status: 200, description: "The OpenAPI 3.1 document." } },
  { method: "get", path: "/api/v1/documents", tag: "documents", summary: "List judgments", query: V1DocumentsListQuery, list: true, success: { status: 200, description: "{results: [summary], total, page, per_page, pages}" } },
  { method: "get", path: "/api/v1/documents/{id}", tag: "documents", summary: "One judgment's full detail record", success: { status: 200, description: "The full judgment detail record (full_text, judges, metadata{language, page_count}, …)." } },
  { method: "get", path: "/api/v1/documents/{id}/references", tag: "citations", summary: "What a judgment cites", success: { status: 200, description: "{document_id, items[{kind, text, start, end, canonical_id, resolved, target_id, target}], total}; 404 for an id that is no judgment." } },
  {
    method: "get",
    path: "/api/v1/documents/{id}/cited-by",
    tag: "citations",
    summary: "The judgments citing a judgment",
    query: CitedByQuery,
    success: { status: 200, description: "{document_id, items[{id, case_number, title, court_name, decision_date, outcome, cited_by_count, references}], total, by_year, by_outcome, limit, offset}" },
  },
  { method: "get", path: "/api/v1/legislation", tag: "citations", summary: "Find provisions by text", query: LegislationLookupQuery, success: { status: 200, description: "{query, provision, results[{id, name, count}]}: \"279 § 1 kk\" → PL/kk/279/§1 first, then its sub-provisions; other text matches provision names." } },
  {
    method: "get",
    path: "/api/v1/legislation/{id}",
    tag: "citations",
    summary: "A provision and the judgments applying it",
    description: "The id holds slashes (PL/kk/279/§1, UK/ukpga/1861/100/s18); an article's list includes the judgments citing its paragraphs. 422 INVALID_PROVISION for anything else.",
    query: ProvisionQuery,
    success: { status: 200, description: "{id, name, parent, total, by_year[{year, count}], by_outcome[{outcome, count}], items, limit, offset}; format=csv: the list as CSV (at most 5,000 rows)." },
  },
  {
    method: "post",
    path: "/api/v1/documents/search",
    tag: "search",
    summary: "Search judgments (text, semantic or hybrid)",
    body: V1SearchBody,
    success: { status: 200, description: "{results: [summary + score + highlights{full_text[], summary[]}], total, page, per_page, pages, search_metadata{query_time_ms, search_type, embedding_time_ms, query_warnings?}}; the query language of docs/search.md" },
  },
  { method: "post", path: "/api/v1/documents/{id}/similar", tag: "search", summary: "Judgments similar to one", body: V1SimilarBody, success: { status: 200, description: "{results: [{id, case_number, title, similarity}], total}" } },
  { method: "post", path: "/api/v1/search/semantic", tag: "search", summary: "Semantic search", body: V1SemanticBody, success: { status: 200, description: "{results: [{id, case_number, title, similarity, excerpt}], total, query_metadata{embedding_time_ms, search_time_ms}}" } },
  { method: "post", path: "/api/v1/search/facets", tag: "search", summary: "Counts by jurisdiction, court level, case type and year", body: V1FacetsBody, success: { status: 200, description: "{facets: {jurisdiction, court_level, case_type, year}, total}" } },
  {
    method: "post",
    path: "/api/v1/extractions/base-schema/filter",
    tag: "extractions",
    summary: "Filter judgments by extracted base-schema fields",
    description: "The user-free path (D-17): filters.collection_ids is refused with 400 COLLECTION_IDS_NOT_ALLOWED.",
    body: FilterRequestSchema,
    success: { status: 200, description: "{results, total, limit, offset, has_more}" },
  },
  {
    method: "post",
    path: "/api/v1/extractions/base-schema/aggregate",
    tag: "extractions",
    summary: "Distributions of extracted fields over a filtered cohort",
    description: "filters.collection_ids is refused with 400 COLLECTION_IDS_NOT_ALLOWED.",
    body: AggregateRequestSchema,
    success: { status: 200, description: "The aggregate result (spec: Aggregate result)." },
  },
  {
    method: "post",
    path: "/api/v1/cohorts/compare",
    tag: "extractions",
    summary: "Compare two cohorts field by field, with 95 % intervals of the differences",
    description:
      "a and b are each {filters, text_query?} (a filter object as on the filter route; collection_ids refused) or {collection_id} (one of the key's user's collections; another user's is 404 COLLECTION_NOT_FOUND). fields are aggregable fields (else 422 FIELD_NOT_AGGREGABLE). Shares: Newcombe's hybrid score interval; numeric fields: medians with a seeded percentile bootstrap interval (seed in the body, fixed by default).",
    body: CompareCohortsSchema,
    userData: true,
    errors: { 404: "A collection_id that is not the key's user's (COLLECTION_NOT_FOUND)." },
    success: { status: 200, description: "Sizes and, per field, the two shares of each value (or the medians) with diff, ci_low, ci_high.", schema: V1CompareAnswer },
  },
  { method: "get", path: "/api/v1/collections", tag: "collections", summary: "The key's user's collections", query: V1PageQuery, list: true, userData: true, success: { status: 200, description: "{collections: [Collection], total, page, per_page, pages}" } },
  { method: "post", path: "/api/v1/collections", tag: "collections", summary: "Create a collection", body: CreateCollectionSchema, userData: true, success: { status: 201, description: "{id, name, description, document_count, created_at, …}" } },
  { method: "get", path: "/api/v1/collections/{id}", tag: "collections", summary: "One collection with its newest documents", userData: true, success: { status: 200, description: "Collection plus documents[{id, case_number, title, added_at}]; another user's id is 404." } },
  { method: "get", path: "/api/v1/statistics", tag: "analytics", summary: "Corpus and search-activity statistics", query: V1StatisticsQuery, success: { status: 200, description: "{total_documents, by_jurisdiction, by_court_level, by_year, search_activity{total_searches, avg_searches_per_day, popular_queries[{query, count}]}}" } },
  { method: "get", path: "/api/v1/trends", tag: "analytics", summary: "Decisions per month and case types over time", success: { status: 200, description: "{trends: {decisions_by_month[{month, count}], case_types_trend}}" } },
  {
    method: "get",
    path: "/api/v1/schemas",
    tag: "capabilities",
    summary: "The key's user's extraction schemas",
    description: "The built-in base schema (id \"base\", read-only) first, then the key's user's own schemas, newest first (RLS as that user: another user's schemas never appear).",
    query: V1PageQuery,
    list: true,
    userData: true,
    success: { status: 200, description: "{schemas: [{id, name, description, version, created_at}], total, page, per_page, pages}", schema: V1SchemaListAnswer },
  },
  {
    method: "post",
    path: "/api/v1/schemas/generate",
    tag: "capabilities",
    summary: "Draft an extraction schema from a description",
    description:
      "A language model drafts the fields from the description (and the opening of example_document_id, when given); the draft is not stored. Model mode only: without a configured model the answer is 503 LLM_NOT_CONFIGURED.",
    body: V1GenerateSchemaBody,
    success: { status: 200, description: "{schema (JSON Schema object), name, description, fields, mode: \"model\"}", schema: V1GeneratedSchemaAnswer },
    errors: {
      404: "example_document_id names no judgment (DOCUMENT_NOT_FOUND).",
      502: "The model's answer was not a valid schema (SCHEMA_GENERATION_FAILED).",
      503: "No language model is configured on this server (LLM_NOT_CONFIGURED).",
      504: "The model took too long to answer (UPSTREAM_TIMEOUT).",
    },
  },
  {
    method: "post",
    path: "/api/v1/chat",
    tag: "capabilities",
    summary: "Chat over the corpus: an answer from retrieved judgment passages",
    description:
      "The web chat's answer: mode llm when a model is configured (it cites the passages as [n]), else extractive (the best-matching sentences of the passages, each with its citation). stream true (default): text/event-stream of data objects token {content}, sources {sources}, done {metadata} (an error part-way ends with done carrying error). No thread is kept: thread_id is refused (422).",
    body: V1ChatBody,
    success: { status: 200, description: "stream false: {response, sources[{id, case_number, title, relevance}], metadata{model, mode, tokens_used, retrieval_time_ms, generation_time_ms}}; stream true: server-sent events." },
  },
  {
    method: "post",
    path: "/api/v1/qa",
    tag: "capabilities",
    summary: "Question answering over retrieved judgment passages",
    description: "The same retrieval and answer as chat, not streamed. confidence is a heuristic (the share of the question's words the evidence covers, scaled by the best passage's relevance).",
    body: V1QaBody,
    success: { status: 200, description: "{answer, confidence 0-1, sources[{id, case_number, excerpt}], mode: llm | extractive}" },
  },
  { method: "post", path: "/api/v1/feedback", tag: "service", summary: "Send feedback", body: V1FeedbackBody, success: { status: 201, description: "{id, message, created_at}" } },
];

type JsonSchema = Record<string, unknown>;

/** A request schema as the caller sends it (defaults make fields optional), without the top-level $schema. */
export function inputSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _s, ...rest } = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema;
  return rest;
}

/** An answer schema as the server sends it, without the top-level $schema. */
function outputSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _s, ...rest } = z.toJSONSchema(schema, { io: "output", unrepresentable: "any" }) as JsonSchema;
  return rest;
}

function queryParameters(schema: z.ZodType): JsonSchema[] {
  const js = inputSchema(schema) as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(js.properties ?? {}).map(([name, s]) => ({
    name,
    in: "query",
    required: js.required?.includes(name) ?? false,
    ...(typeof s.description === "string" ? { description: s.description } : {}),
    schema: s,
  }));
}

const errorRef = (description: string) => ({ description, content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } });

const RATE_HEADERS = {
  "X-RateLimit-Limit": { description: "Requests allowed in the window (per key: API_KEY_RATE_LIMIT_PER_HOUR).", schema: { type: "integer" } },
  "X-RateLimit-Remaining": { description: "Requests left in the window.", schema: { type: "integer" } },
  "X-RateLimit-Reset": { description: "When the window resets (epoch seconds).", schema: { type: "integer" } },
};

function operationObject(op: V1Operation): JsonSchema {
  const parameters: JsonSchema[] = [];
  if (op.path.includes("{id}")) parameters.push({ name: "id", in: "path", required: true, schema: { type: "string", format: "uuid" } });
  if (op.query) parameters.push(...queryParameters(op.query));
  const responses: Record<string, JsonSchema> = {
    [op.success.status]: {
      description: op.success.description,
      headers: { ...RATE_HEADERS, ...(op.list ? { Link: { description: "RFC 8288 links: rel=first and, when more rows exist, rel=next.", schema: { type: "string" } } } : {}) },
      content: { "application/json": { schema: op.success.schema ? outputSchema(op.success.schema) : { type: "object" } } },
    },
  };
  if (!op.public) {
    responses["401"] = errorRef("X-API-Key missing, unknown, revoked or expired.");
    responses["429"] = { description: "Rate limit exceeded.", headers: { "Retry-After": { schema: { type: "integer" } } }, content: { "application/json": { schema: { $ref: "#/components/schemas/RateLimitError" } } } };
  }
  if (op.query || op.body) responses["422"] = errorRef("Validation failed: details.fields lists each offending field.");
  if (op.path.includes("{id}")) responses["404"] = errorRef("Not found.");
  if (op.userData) responses["403"] = errorRef("The key is not issued to a user.");
  for (const [status, description] of Object.entries(op.errors ?? {})) responses[status] = errorRef(description);
  return {
    operationId: `${op.method}${op.path.replace(/^\/api\/v1/, "").replace(/[{}]/g, "").replace(/[/.-](\w)/g, (_m, c: string) => c.toUpperCase())}`,
    tags: [op.tag],
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    ...(op.public ? { security: [] } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(op.body ? { requestBody: { required: true, content: { "application/json": { schema: inputSchema(op.body) } } } } : {}),
    responses,
  };
}

let cached: JsonSchema | null = null;

/** The document (built once per process: the schemas are static). */
export function openApiDocument(version = process.env.APP_VERSION ?? "unknown"): JsonSchema {
  if (cached) return cached;
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const op of V1_OPERATIONS) (paths[op.path] ??= {})[op.method] = operationObject(op);
  cached = {
    openapi: "3.1.0",
    info: {
      title: "Judgment search: reference API for servers",
      version,
      description:
        `Every route but this document needs X-API-Key (a key from Settings → API keys); the key acts as its user. ` +
        `${config().API_KEY_RATE_LIMIT_PER_HOUR} requests per hour per key and ${config().GENERAL_RATE_LIMIT_PER_MINUTE} per minute per address. ` +
        "Errors: {error, message, details, status_code}. Guide: docs/api.md.",
    },
    servers: [{ url: "/" }],
    security: [{ ApiKey: [] }],
    tags: ["documents", "search", "extractions", "collections", "analytics", "capabilities", "service"].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: { ApiKey: { type: "apiKey", in: "header", name: "X-API-Key" } },
      schemas: {
        Error: {
          type: "object",
          required: ["error", "message", "details", "status_code"],
          properties: {
            error: { type: "string", examples: ["ValidationError"] },
            message: { type: "string" },
            details: { type: "object", properties: { code: { type: "string" }, fields: { type: "array", items: { type: "object", properties: { field: { type: "string" }, message: { type: "string" }, path: { type: "array", items: { type: ["string", "integer"] }, description: "The field's path; array indices as numbers." }, code: { type: "string", description: "The issue's kind (too_small, too_big, invalid_format, invalid_type, invalid_value, custom, …), with that kind's parameters beside it (minimum, maximum, origin, format, values, params)." } } } } } },
            status_code: { type: "integer" },
          },
        },
        RateLimitError: {
          type: "object",
          required: ["error", "message", "retry_after", "status_code"],
          properties: { error: { const: "RateLimitExceeded" }, message: { type: "string" }, retry_after: { type: "integer" }, status_code: { const: 429 } },
        },
      },
    },
  };
  return cached;
}
