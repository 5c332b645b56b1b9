/**
 * Client calls for collections (web routes /api/collections, /api/collections/{id}, /documents, /documents/batch).
 * Lists tolerate `{collections}` / `{documents}` / `{results}` envelopes.
 */
import { apiFetch, qs } from "./api";

export interface Collection {
  id: string;
  name: string;
  description: string | null;
  created_at: string | null;
  updated_at: string | null;
  document_count: number;
}

export interface CollectionDocument {
  id: string;
  case_number: string | null;
  title: string | null;
  jurisdiction: string | null;
  court_name: string | null;
  decision_date: string | null;
  source_url: string | null;
  added_at: string | null;
}

type Raw = Record<string, unknown>;
const s = (v: unknown): string | null => (typeof v === "string" ? v : null);

function toCollection(r: Raw): Collection {
  return {
    id: String(r.id),
    name: s(r.name) ?? "",
    description: s(r.description),
    created_at: s(r.created_at),
    updated_at: s(r.updated_at),
    document_count: typeof r.document_count === "number" ? r.document_count : 0,
  };
}

function toDocument(r: Raw): CollectionDocument {
  const d = (r.document && typeof r.document === "object" ? { ...(r.document as Raw), added_at: r.added_at } : r) as Raw;
  return {
    id: String(d.id ?? d.document_id),
    case_number: s(d.case_number),
    title: s(d.base_case_name) ?? s(d.title),
    jurisdiction: s(d.jurisdiction),
    court_name: s(d.court_name),
    decision_date: s(d.decision_date),
    source_url: s(d.source_url),
    added_at: s(d.added_at),
  };
}

function rows(body: unknown, ...keys: string[]): Raw[] {
  if (Array.isArray(body)) return body as Raw[];
  if (body && typeof body === "object") for (const k of keys) if (Array.isArray((body as Raw)[k])) return (body as Raw)[k] as Raw[];
  return [];
}

/** Every collection of the caller: the list is paged (limit ≤ 100, R-LIM-028), so read it page by page. */
export async function listCollections(): Promise<Collection[]> {
  const out: Collection[] = [];
  for (let offset = 0; ; offset += 100) {
    const body = await apiFetch<unknown>(`/api/collections${qs({ limit: 100, offset })}`);
    const page = rows(body, "collections", "results").map(toCollection);
    out.push(...page);
    const total = body && typeof body === "object" && typeof (body as Raw).total === "number" ? ((body as Raw).total as number) : out.length;
    if (page.length === 0 || out.length >= total) return out;
  }
}

export async function getCollection(id: string): Promise<Collection> {
  const body = await apiFetch<Raw>(`/api/collections/${encodeURIComponent(id)}`);
  return toCollection((body.collection && typeof body.collection === "object" ? body.collection : body) as Raw);
}

export async function createCollection(name: string, description?: string): Promise<Collection> {
  const body = await apiFetch<Raw>("/api/collections", { method: "POST", json: { name, ...(description ? { description } : {}) } });
  return toCollection((body.collection && typeof body.collection === "object" ? body.collection : body) as Raw);
}

export async function renameCollection(id: string, name: string): Promise<void> {
  await apiFetch(`/api/collections/${encodeURIComponent(id)}`, { method: "PATCH", json: { name } });
}

export async function deleteCollection(id: string): Promise<void> {
  await apiFetch(`/api/collections/${encodeURIComponent(id)}`, { method: "DELETE" });
}

export interface DocumentPage {
  documents: CollectionDocument[];
  total: number;
}

export async function listCollectionDocuments(id: string, limit: number, offset: number): Promise<DocumentPage> {
  const body = await apiFetch<unknown>(`/api/collections/${encodeURIComponent(id)}/documents${qs({ limit, offset })}`);
  const docs = rows(body, "documents", "results").map(toDocument);
  const total = body && typeof body === "object" && typeof (body as Raw).total === "number" ? ((body as Raw).total as number) : docs.length;
  return { documents: docs, total };
}

/** Every document of a collection, page by page (for exports). */
export async function allCollectionDocuments(id: string, onProgress?: (loaded: number, total: number) => void): Promise<CollectionDocument[]> {
  const out: CollectionDocument[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = await listCollectionDocuments(id, 100, offset);
    out.push(...page.documents);
    onProgress?.(out.length, page.total);
    if (page.documents.length < 100 || out.length >= page.total) return out;
  }
}

/** Add documents (at most 100 per call, MAX_BATCH_DOCUMENT_IDS). */
export async function addDocuments(id: string, documentIds: string[]): Promise<void> {
  for (let i = 0; i < documentIds.length; i += 100) {
    await apiFetch(`/api/collections/${encodeURIComponent(id)}/documents/batch`, { method: "POST", json: { document_ids: documentIds.slice(i, i + 100) } });
  }
}

export async function removeDocuments(id: string, documentIds: string[]): Promise<void> {
  await apiFetch(`/api/collections/${encodeURIComponent(id)}/documents`, { method: "DELETE", json: { document_ids: documentIds } });
}
