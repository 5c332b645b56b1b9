/**
 * Judgment detail parts behind GET /api/documents/{id}/metadata, /html, /similar, POST /api/documents/search
 * (semantic chunk search) and POST /api/documents/batch (spec: Search and documents). Details come from Postgres
 * through the caller's client (RPC judgment_detail / judgments_by_ids, RLS applies); similarity and chunks come
 * from the search engine.
 */
import sanitizeHtml from "sanitize-html";
import { z } from "zod";
import { safeText } from "@/lib/schema/text";
import { ApiError, fromDatabaseError, type DatabaseError } from "@/lib/errors";
import { config } from "@/lib/config";
import { ENGINE_PAGE_OFFSET_MAX, pageLimit, pageLimitParam, pageOffset, pageOffsetParam } from "@/lib/schema/requests/paging";
import { isoDate } from "@/lib/schema/requests/dates";
import { dateToEpochSeconds } from "@/lib/search/document";
import { getSearchEngine } from "@/lib/search/engine";
import { andAll, type FilterNode } from "@/lib/search/filter";
import { escapeHtml } from "@/lib/text/html";
import { SANITIZE_OPTIONS } from "@/lib/import/common";
import { isUuid } from "@/lib/schema/uuid";
import type { FilterIssueParams } from "@/lib/schema/filter-issues";
import { isJsonObject } from "@/lib/supabase/json";
import type { Identity } from "./identity";
import { mapSearchErrors, parseFilterParam } from "./search";

/** Malformed id → 400 (checked before any lookup). */
export function checkId(id: string | undefined): string {
  if (!isUuid(id)) throw new ApiError("INVALID_ID", "The judgment id must be a UUID");
  return id.toLowerCase();
}

function notFound(): ApiError {
  return new ApiError("DOCUMENT_NOT_FOUND", "Judgment not found");
}

/**
 * A failed read through the one database mapper (lib/errors): a missing row is 404 DOCUMENT_NOT_FOUND, a time-out 504
 * UPSTREAM_TIMEOUT, an unreachable database 503 DATABASE_UNAVAILABLE, anything else 500 DATABASE_ERROR (was 503 for
 * every failure).
 */
function readFailed(error: DatabaseError): ApiError {
  const mapped = fromDatabaseError(error);
  return mapped.code === "NOT_FOUND" ? notFound() : mapped;
}

async function detail(id: string, identity: Identity): Promise<Record<string, unknown>> {
  const { data, error } = await identity.db.rpc("judgment_detail", { p_id: id });
  if (error) throw readFailed(error);
  // judgment_detail answers a jsonb object, or null when the caller cannot see the judgment.
  if (!isJsonObject(data)) throw notFound();
  return data;
}

function withoutNulls(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null));
}

/**
 * The spec's Judgment fields and detail-record keys (R-RES-018): always present in a detail answer, null allowed, so
 * a caller can tell "no value" from "no such field". Other columns (base_* fields, statuses) keep dropping nulls.
 */
export const JUDGMENT_DETAIL_KEYS = [
  "id",
  "case_number",
  "title",
  "summary",
  "court_name",
  "court_level",
  "jurisdiction",
  "case_type",
  "decision_type",
  "outcome",
  "decision_date",
  "publication_date",
  "judges",
  "keywords",
  "legal_topics",
  "cited_legislation",
  "source_url",
  "metadata",
  "created_at",
  "updated_at",
] as const;

/** Everything about a judgment except its full text (that is /html); the listed keys are there even when null. */
export async function documentMetadata(rawId: string | undefined, identity: Identity) {
  const id = checkId(rawId);
  return metadataOf(await detail(id, identity));
}

function fullTextOf(d: Record<string, unknown>): string {
  return typeof d.full_text === "string" ? d.full_text : "";
}

function metadataOf(d: Record<string, unknown>) {
  const { full_text: _omitted, full_html: _html, ...rest } = d;
  const listed = Object.fromEntries(JUDGMENT_DETAIL_KEYS.map((k) => [k, rest[k] ?? null]));
  return { ...withoutNulls(rest), ...listed, full_text_length: fullTextOf(d).length };
}

/**
 * The document page's server render: the metadata answer and the sanitised HTML answer of the two routes
 * above, from one read of the judgment, so the judgment text is in the page's HTML.
 */
export async function documentPage(rawId: string | undefined, identity: Identity) {
  const id = checkId(rawId);
  const d = await detail(id, identity);
  return { metadata: metadataOf(d), html: htmlOf(d) };
}

/**
 * The page's HTML: the source's own markup kept by an importer (lib/import, sanitised on import and again here with
 * the same allowlist, so a row written by other means cannot carry more), else paragraphs rebuilt from the text.
 */
function htmlOf(d: Record<string, unknown>): string {
  if (typeof d.full_html === "string" && d.full_html.trim()) return sanitizeHtml(d.full_html, SANITIZE_OPTIONS);
  return fullTextToHtml(fullTextOf(d));
}

/**
 * The full judgment detail record of the reference API (GET /api/v1/documents/{id}, R-END-126, R-RES-018): the
 * listed keys (null allowed), `full_text`, `judges` as [{name, role}] and `metadata` as {language, page_count}.
 * Extracted base-schema fields and internal statuses are not part of this record.
 */
export async function documentDetail(rawId: string | undefined, identity: Identity) {
  const id = checkId(rawId);
  const d = await detail(id, identity);
  const meta = d.metadata && typeof d.metadata === "object" ? (d.metadata as Record<string, unknown>) : {};
  const judges = Array.isArray(d.judges) ? (d.judges as unknown[]) : [];
  return {
    ...Object.fromEntries(JUDGMENT_DETAIL_KEYS.map((k) => [k, d[k] ?? null])),
    judges: judges
      .filter((j): j is Record<string, unknown> => !!j && typeof j === "object" && typeof (j as Record<string, unknown>).name === "string")
      .map((j) => ({ name: j.name as string, role: typeof j.role === "string" ? j.role : null })),
    metadata: {
      language: typeof meta.language === "string" ? meta.language : null,
      page_count: typeof meta.page_count === "number" ? meta.page_count : null,
    },
    full_text: typeof d.full_text === "string" ? d.full_text : "",
  };
}

const HEADING_RE =
  /^(?:[IVXLC]+\.|\d+\.|UZASADNIENIE|WYROK|POSTANOWIENIE|SENTENCJA|JUDGMENT|INTRODUCTION|BACKGROUND|THE FACTS|GROUNDS OF APPEAL|DISCUSSION|CONCLUSION|DECISION|SENTENCE)\b.{0,80}$/i;

/** Sanitised HTML of the full text: paragraphs, and headings for short section-title lines. */
export function fullTextToHtml(text: string): string {
  const blocks = text
    .replace(/\r\n?/g, "\n")
    .split(/\n\s*\n|\n(?=\s*(?:[IVXLC]+\.|\d+\.)\s)/)
    .map((b) => b.trim())
    .filter(Boolean);
  const html = blocks
    .map((b) => {
      const oneLine = b.replace(/\s+/g, " ");
      const isHeading = oneLine.length <= 90 && (HEADING_RE.test(oneLine) || (oneLine === oneLine.toUpperCase() && /\p{L}/u.test(oneLine)));
      return isHeading ? `<h2>${escapeHtml(oneLine)}</h2>` : `<p>${escapeHtml(b).replace(/\n/g, "<br>")}</p>`;
    })
    .join("\n");
  // Escaped already; sanitising again is the belt to those braces (only these tags can ever come out).
  return sanitizeHtml(html, { allowedTags: ["p", "h2", "h3", "br"], allowedAttributes: {} });
}

export async function documentHtml(rawId: string | undefined, identity: Identity) {
  const id = checkId(rawId);
  return { id, html: htmlOf(await detail(id, identity)) };
}

/** Page size default 20, max 100, offset 0 (R-LIM-028); the engine is asked for offset + limit and the page is cut here. */
export const SimilarQuery = z.object({
  limit: pageLimitParam(),
  offset: pageOffsetParam(ENGINE_PAGE_OFFSET_MAX),
  filter: safeText().max(8192).optional(),
});

export async function similarDocuments(rawId: string | undefined, params: z.infer<typeof SimilarQuery>) {
  const id = checkId(rawId);
  const filter = parseFilterParam(params.filter);
  const r = await mapSearchErrors(() =>
    getSearchEngine().similar({
      id,
      limit: params.offset + params.limit,
      filter,
      attributesToRetrieve: ["id", "title", "case_number", "jurisdiction", "court_name", "decision_date"],
    }),
  );
  const page = r.hits.slice(params.offset, params.offset + params.limit);
  const embedder = await getSearchEngine().health();
  return {
    results: page.map((h) => ({ ...h.document, similarity: Number(h.score.toFixed(4)) })),
    total: page.length,
    mode: r.mode,
    embedder: embedder.embedder.label,
  };
}

const JURISDICTION = z.enum(["PL", "UK"]);
/** The reference filter keys that passages can be filtered on, on every engine (the chunk index holds these only). */
const ChunkFiltersSchema = z.strictObject({
  jurisdiction: z.union([JURISDICTION, z.array(JURISDICTION).max(2)]).optional(),
  decision_date_from: isoDate.optional(),
  decision_date_to: isoDate.optional(),
});
/** Reference keys of document search that the passage index cannot filter on: named in a 422, never ignored (D-06). */
const UNSUPPORTED_CHUNK_FILTER_KEYS = ["court_level", "case_type", "keywords"];
type ChunkFilters = z.infer<typeof ChunkFiltersSchema>;

/**
 * The reference `filters` object of semantic search, typed in the request schema (absent or null = none): a key
 * passages cannot filter on, an unknown key or a bad value is 422 FILTER_INVALID naming it (D-06).
 */
const chunkFiltersField = z
  .unknown()
  .optional()
  .transform((raw, ctx): ChunkFilters | undefined => {
    const invalid = (field: string, message: string) => {
      const params: FilterIssueParams = { code: "FILTER_INVALID", field };
      ctx.addIssue({ code: "custom", message, params, path: field === "filters" ? [] : [field] });
      return z.NEVER;
    };
    if (raw === undefined || raw === null) return undefined;
    if (typeof raw !== "object" || Array.isArray(raw)) return invalid("filters", "filters must be an object.");
    const unsupported = Object.keys(raw).find((k) => UNSUPPORTED_CHUNK_FILTER_KEYS.includes(k));
    if (unsupported) {
      return invalid(unsupported, `Passages cannot be filtered by "${unsupported}"; use jurisdiction, decision_date_from or decision_date_to.`);
    }
    const parsed = ChunkFiltersSchema.safeParse(raw);
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0];
    const field = issue.path.length ? String(issue.path[0]) : issue.code === "unrecognized_keys" ? issue.keys[0] : "filters";
    return invalid(field, `Invalid filter "${field}": ${issue.message}.`);
  });

/** The (typed) reference `filters` object of semantic search → filter AST (jurisdiction and the decision-date range). */
export function chunkFiltersToNode(f: ChunkFilters | undefined): FilterNode | undefined {
  if (!f) return undefined;
  const parts: FilterNode[] = [];
  if (f.jurisdiction !== undefined) {
    parts.push({ type: "in", attribute: "jurisdiction", values: Array.isArray(f.jurisdiction) ? f.jurisdiction : [f.jurisdiction], negated: false });
  }
  if (f.decision_date_from) parts.push({ type: "compare", attribute: "decision_date_ts", op: ">=", value: dateToEpochSeconds(f.decision_date_from) });
  if (f.decision_date_to) parts.push({ type: "compare", attribute: "decision_date_ts", op: "<=", value: dateToEpochSeconds(f.decision_date_to) + 86_399 });
  return andAll(parts);
}

export const ChunkSearchBody = z.object({
  query: safeText().trim().min(1).max(1000),
  limit: pageLimit(),
  offset: pageOffset(ENGINE_PAGE_OFFSET_MAX),
  min_similarity: z.number().min(-1).max(1).optional(),
  /** Filter expression in the search engine's syntax. */
  filter: safeText().max(8192).optional(),
  /** The reference name (R-END-135): a filter object of the passage index's keys (chunkFiltersField). */
  filters: chunkFiltersField,
});

/** Semantic chunk search (signed in): passages with their judgment and position. */
export async function searchChunks(body: z.infer<typeof ChunkSearchBody>) {
  // `filter` (expression) and `filters` (the reference object) are two ways to say one thing: never both (as D-01).
  if (body.filter !== undefined && body.filters !== undefined) {
    throw new ApiError("CONFLICTING_FILTER", "Pass either `filter` (an expression) or `filters` (an object), not both.");
  }
  const filter = body.filter !== undefined ? parseFilterParam(body.filter) : chunkFiltersToNode(body.filters);
  const engine = getSearchEngine();
  const r = await mapSearchErrors(() =>
    engine.searchChunks({ query: body.query, limit: body.offset + body.limit, minSimilarity: body.min_similarity, filter }),
  );
  const hits = r.hits.slice(body.offset, body.offset + body.limit);
  const ids = [...new Set(hits.map((h) => h.judgmentId))];
  const docs = new Map(
    (await mapSearchErrors(() => engine.getDocuments(ids, ["id", "title", "case_number"]))).map((d) => [d.id, d]),
  );
  return {
    results: hits.map((h) => ({
      id: h.judgmentId,
      case_number: docs.get(h.judgmentId)?.case_number ?? null,
      title: docs.get(h.judgmentId)?.title ?? null,
      position: h.position,
      similarity: Number(h.similarity.toFixed(4)),
      excerpt: h.text,
    })),
    total: hits.length,
    query_metadata: { embedding_time_ms: r.embeddingTimeMs, search_time_ms: r.processingTimeMs },
  };
}

export const BatchBody = z.object({
  ids: z
    .array(z.string())
    .min(1)
    .refine((a) => a.length <= config().MAX_BATCH_DOCUMENT_IDS, {
      message: `at most ${config().MAX_BATCH_DOCUMENT_IDS} ids`,
    }),
});

/** Summary records of up to 100 judgments, in the order asked; unknown ids listed in `missing`. */
export async function documentsBatch(body: z.infer<typeof BatchBody>, identity: Identity) {
  const ids = body.ids.map((id) => checkId(id));
  const { data, error } = await identity.db.rpc("judgments_by_ids", { p_ids: ids });
  if (error) throw readFailed(error);
  const byId = new Map(data.filter(isJsonObject).map((d) => [String(d.id), withoutNulls(d)]));
  return {
    documents: ids.filter((id) => byId.has(id)).map((id) => byId.get(id)),
    missing: ids.filter((id) => !byId.has(id)),
  };
}
