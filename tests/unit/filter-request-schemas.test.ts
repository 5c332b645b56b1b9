/**
 * Filters are typed in the request schemas (lib/schema/filters.ts filtersField): a handler receives a BaseSchemaFilters,
 * and the route wrapper's validationError answers the codes the filter routes always answered, in the same order —
 * other fields first (VALIDATION_ERROR), then COLLECTION_IDS_NOT_ALLOWED (D-10) / INVALID_COLLECTION_ID, then
 * FILTER_INVALID naming the key (D-06). A `filters` key of another shape (/api/v1) stays VALIDATION_ERROR.
 */
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { validationError } from "@/lib/api/route";
import type { ApiError } from "@/lib/errors";
import { ChunkSearchBody } from "@/lib/backend/documents";
import { ChatBody, QaBody } from "@/lib/backend/assistants/chat";
import { collectionIdsOf, parseFilters } from "@/lib/schema/filters";
import { PrecedentsRequestSchema } from "@/lib/schema/requests/assistant-tools";
import { DiscoverRequestSchema } from "@/lib/schema/requests/discover";
import { AggregateRequestSchema, FacetsQuerySchema, FilterRequestSchema, FromFilterRequestSchema } from "@/lib/schema/requests/structured";
import { AnalyzeTopicsSchema } from "@/lib/schema/requests/topics";
import { V1SearchBody } from "@/lib/schema/requests/api-v1";

const UUID = "6f9619ff-8b86-4d01-b42d-00cf4fc964ff";

/** What withRoute answers for `input` against `schema`: the parsed value, or the error's status, code and extra. */
function answer(schema: z.ZodType, input: unknown, where: "body" | "query" = "body") {
  const r = schema.safeParse(input);
  if (r.success) return { ok: r.data };
  const e: ApiError = validationError(r.error, where);
  return { status: e.status, code: e.code, message: e.message, ...e.extra };
}

describe("filters typed in the request schemas", () => {
  it("hands the handler a typed filter object: absent and null are no filter", () => {
    expect(answer(FilterRequestSchema, {})).toEqual({ ok: { filters: {}, limit: 20, offset: 0 } });
    expect(answer(FilterRequestSchema, { filters: null })).toEqual({ ok: { filters: {}, limit: 20, offset: 0 } });
    expect(answer(FilterRequestSchema, { filters: { jurisdiction: ["PL"] } })).toEqual({ ok: { filters: { jurisdiction: ["PL"] }, limit: 20, offset: 0 } });
  });

  it("answers 422 FILTER_INVALID naming the key on every schema that takes a filter object", () => {
    const bad = { nope: 1 };
    const cases: [z.ZodType, unknown][] = [
      [FilterRequestSchema, { filters: bad }],
      [AggregateRequestSchema, { filters: bad }],
      [FromFilterRequestSchema, { name: "x", filters: bad }],
      [AnalyzeTopicsSchema, { filters: bad }],
      [DiscoverRequestSchema, { filters: bad }],
      [PrecedentsRequestSchema, { query: "a long enough query", filters: bad }],
      [ChatBody, { message: "x", filters: bad }],
    ];
    for (const [schema, input] of cases) expect(answer(schema, input)).toMatchObject({ status: 422, code: "FILTER_INVALID", field: "nope" });
    expect(answer(QaBody, { question: "x", context_filters: { offender_gender: ["robot"] } })).toMatchObject({
      status: 422,
      code: "FILTER_INVALID",
      field: "offender_gender",
    });
    expect(answer(FilterRequestSchema, { filters: [1] })).toMatchObject({ code: "FILTER_INVALID", field: "filters", message: "filters must be a JSON object." });
  });

  it("reads query-string filters as JSON: bad JSON and bad keys are FILTER_INVALID", () => {
    expect(answer(FacetsQuerySchema, { field: "court_name", filters: "{nope" }, "query")).toMatchObject({ status: 422, code: "FILTER_INVALID", field: "filters" });
    expect(answer(FacetsQuerySchema, { field: "court_name", filters: '{"nope":1}' }, "query")).toMatchObject({ code: "FILTER_INVALID", field: "nope" });
    expect(answer(FacetsQuerySchema, { field: "court_name", filters: '{"jurisdiction":["UK"]}' }, "query")).toEqual({
      ok: { field: "court_name", filters: { jurisdiction: ["UK"] } },
    });
  });

  it("refuses collection_ids before anything else about the filter (D-10), and other fields before the filter", () => {
    expect(answer(FilterRequestSchema, { filters: { collection_ids: ["not-a-uuid"], nope: 1 } })).toMatchObject({ status: 400, code: "COLLECTION_IDS_NOT_ALLOWED" });
    expect(answer(AggregateRequestSchema, { filters: { collection_ids: [] } })).toMatchObject({ status: 400, code: "COLLECTION_IDS_NOT_ALLOWED" });
    expect(answer(FacetsQuerySchema, { field: "x", filters: '{"collection_ids":[]}' }, "query")).toMatchObject({ status: 400, code: "COLLECTION_IDS_NOT_ALLOWED" });
    const both = answer(FilterRequestSchema, { filters: { nope: 1 }, limit: 101 });
    expect(both).toMatchObject({ status: 422, code: "VALIDATION_ERROR" });
    expect((both as unknown as { fields: { field: string }[] }).fields.map((f) => f.field)).toEqual(["limit"]);
  });

  it("from-filter: filters required (VALIDATION_ERROR), then INVALID_COLLECTION_ID, then FILTER_INVALID; ids lower-cased and distinct", () => {
    for (const filters of [undefined, null]) {
      const r = answer(FromFilterRequestSchema, { name: "x", filters });
      expect(r).toMatchObject({ status: 422, code: "VALIDATION_ERROR" });
      expect((r as unknown as { fields: { field: string }[] }).fields.map((f) => f.field)).toEqual(["filters"]);
    }
    expect(answer(FromFilterRequestSchema, { name: "x", filters: { collection_ids: ["bad"], nope: 1 } })).toMatchObject({ status: 400, code: "INVALID_COLLECTION_ID" });
    expect(answer(FromFilterRequestSchema, { name: "x", filters: { collection_ids: [UUID], nope: 1 } })).toMatchObject({ code: "FILTER_INVALID", field: "nope" });
    const ok = answer(FromFilterRequestSchema, { name: "x", filters: { collection_ids: [UUID.toUpperCase(), UUID] } }) as { ok: { filters: Parameters<typeof collectionIdsOf>[0] } };
    expect(collectionIdsOf(ok.ok.filters)).toEqual([UUID]);
  });

  it("passage search types its own filter object, with the same FILTER_INVALID naming the key", () => {
    expect(answer(ChunkSearchBody, { query: "x", filters: { keywords: ["theft"] } })).toMatchObject({ code: "FILTER_INVALID", field: "keywords" });
    expect(answer(ChunkSearchBody, { query: "x", filters: { colour: "red" } })).toMatchObject({ code: "FILTER_INVALID", field: "colour" });
    expect(answer(ChunkSearchBody, { query: "x", filters: { jurisdiction: "UK" } })).toMatchObject({ ok: { filters: { jurisdiction: "UK" } } });
  });

  it("a `filters` key of another shape (the /api/v1 reference filters) keeps VALIDATION_ERROR", () => {
    expect(answer(V1SearchBody, { query: "x", filters: { extra: 1 } })).toMatchObject({ status: 422, code: "VALIDATION_ERROR" });
  });

  it("parseFilters (stored params, query strings read with others) throws the same errors", () => {
    const thrown = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        const a = e as ApiError;
        return { code: a.code, ...a.extra };
      }
      return null;
    };
    expect(thrown(() => parseFilters({ nope: 1 }))).toEqual({ code: "FILTER_INVALID", field: "nope" });
    expect(thrown(() => parseFilters({ collection_ids: [] }))).toEqual({ code: "COLLECTION_IDS_NOT_ALLOWED" });
    expect(parseFilters(undefined)).toEqual({});
  });
});
