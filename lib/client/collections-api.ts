/**
 * Client calls for collections (web routes /api/collections, /api/collections/{id}, /documents, /documents/batch).
 * The bodies are the types lib/backend/collections builds them with.
 */
import type {
  Collection,
  CollectionDocument,
  CollectionDocumentPage,
  CollectionPage,
  CollectionWithDocuments,
} from "@/lib/backend/responses";
import { apiFetch, qs } from "./api";

export type { Collection, CollectionDocument };

/** Every collection of the caller: the list is paged (limit ≤ 100, R-LIM-028), so read it page by page. */
export async function listCollections(): Promise<Collection[]> {
  const out: Collection[] = [];
  for (let offset = 0; ; offset += 100) {
    const body = await apiFetch<CollectionPage>(`/api/collections${qs({ limit: 100, offset })}`);
    out.push(...body.collections);
    if (body.collections.length === 0 || out.length >= body.total) return out;
  }
}

export async function getCollection(id: string): Promise<CollectionWithDocuments> {
  return apiFetch<CollectionWithDocuments>(`/api/collections/${encodeURIComponent(id)}`);
}

export async function createCollection(name: string, description?: string): Promise<Collection> {
  return apiFetch<Collection>("/api/collections", { method: "POST", json: { name, ...(description ? { description } : {}) } });
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
  const body = await apiFetch<CollectionDocumentPage>(`/api/collections/${encodeURIComponent(id)}/documents${qs({ limit, offset })}`);
  return { documents: body.documents, total: body.total };
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
