/**
 * Judgment detail parts behind GET /api/documents/{id}/metadata, /html, /similar, POST /api/documents/search
 * (semantic chunk search) and POST /api/documents/batch (spec: Search and documents). Details come from Postgres
 * through the caller's client (RPC judgment_detail / judgments_by_ids, RLS applies); similarity and chunks come
 * from the search engine.
 */
import sanitizeHtml from "sanitize-html";
import { z } from "zod";
import { ApiError } from "@/lib/api/errors";
import type { Identity } from "@/lib/api/identity";
import { config } from "@/lib/config";
import { getSearchEngine } from "@/lib/search/engine";
import { escapeHtml } from "@/lib/search/lancedb/highlight";
import { mapSearchErrors, parseFilterParam } from "./search";

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Malformed id → 400 (checked before any lookup). */
export function checkId(id: string | undefined): string {
  if (!id || !UUID_RE.test(id)) throw new ApiError(400, "INVALID_ID", "The judgment id must be a UUID");
  return id.toLowerCase();
}

function notFound(): ApiError {
  return new ApiError(404, "DOCUMENT_NOT_FOUND", "Judgment not found");
}

async function detail(id: string, identity: Identity): Promise<Record<string, unknown>> {
  const { data, error } = await identity.db.rpc("judgment_detail", { p_id: id });
  if (error) throw new ApiError(503, "DATABASE_UNAVAILABLE", "The judgment could not be read");
  if (!data) throw notFound();
  return data as Record<string, unknown>;
}

function withoutNulls(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null));
}

/** Everything about a judgment except its full text (that is /html). */
export async function documentMetadata(rawId: string | undefined, identity: Identity) {
  const id = checkId(rawId);
  const d = await detail(id, identity);
  const ft = typeof d.full_text === "string" ? d.full_text : "";
  delete d.full_text;
  return { ...withoutNulls(d), full_text_length: ft.length };
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
  const d = await detail(id, identity);
  return { id, html: fullTextToHtml(typeof d.full_text === "string" ? d.full_text : "") };
}

export const SimilarQuery = z.object({
  limit: z.coerce.number().int().min(1).max(50).default(10),
  filter: z.string().max(8192).optional(),
});

export async function similarDocuments(rawId: string | undefined, params: z.infer<typeof SimilarQuery>) {
  const id = checkId(rawId);
  const filter = parseFilterParam(params.filter);
  const r = await mapSearchErrors(() =>
    getSearchEngine().similar({
      id,
      limit: params.limit,
      filter,
      attributesToRetrieve: ["id", "title", "case_number", "jurisdiction", "court_name", "decision_date"],
    }),
  );
  const embedder = await getSearchEngine().health();
  return {
    results: r.hits.map((h) => ({ ...h.document, similarity: Number(h.score.toFixed(4)) })),
    total: r.hits.length,
    mode: r.mode,
    embedder: embedder.embedder.label,
  };
}

export const ChunkSearchBody = z.object({
  query: z.string().trim().min(1).max(1000),
  limit: z.number().int().min(1).max(100).default(10),
  min_similarity: z.number().min(-1).max(1).optional(),
  filter: z.string().max(8192).optional(),
});

/** Semantic chunk search (signed in): passages with their judgment and position. */
export async function searchChunks(body: z.infer<typeof ChunkSearchBody>) {
  const filter = parseFilterParam(body.filter);
  const engine = getSearchEngine();
  const r = await mapSearchErrors(() =>
    engine.searchChunks({ query: body.query, limit: body.limit, minSimilarity: body.min_similarity, filter }),
  );
  const ids = [...new Set(r.hits.map((h) => h.judgmentId))];
  const docs = new Map(
    (await mapSearchErrors(() => engine.getDocuments(ids, ["id", "title", "case_number"]))).map((d) => [d.id, d]),
  );
  return {
    results: r.hits.map((h) => ({
      id: h.judgmentId,
      case_number: docs.get(h.judgmentId)?.case_number ?? null,
      title: docs.get(h.judgmentId)?.title ?? null,
      position: h.position,
      similarity: Number(h.similarity.toFixed(4)),
      excerpt: h.text,
    })),
    total: r.hits.length,
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
  if (error) throw new ApiError(503, "DATABASE_UNAVAILABLE", "The judgments could not be read");
  const byId = new Map(((data ?? []) as Record<string, unknown>[]).map((d) => [String(d.id), withoutNulls(d)]));
  return {
    documents: ids.filter((id) => byId.has(id)).map((id) => byId.get(id)),
    missing: ids.filter((id) => !byId.has(id)),
  };
}
