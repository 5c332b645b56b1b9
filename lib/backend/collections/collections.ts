/**
 * Collections CRUD over the collection RPCs (supabase/migrations/20260103000100_collections.sql), always with the
 * caller's client: RLS makes another user's collection invisible, which the API reports as a plain 404 (D-30).
 */
import type { SupabaseClient } from "@supabase/supabase-js";
import { ApiError } from "@/lib/api/errors";
import { collectionNotFound, rpcError } from "@/lib/backend/extractions/db-errors";
import { UUID_PATTERN } from "@/lib/schema/requests/structured";

export interface Collection {
  id: string;
  user_id: string;
  name: string;
  description: string | null;
  created_at: string;
  updated_at: string;
  document_count: number;
  /** Free labels given at creation (R-END-142); [] when none. */
  tags: string[];
}

export interface CollectionDocument {
  id: string;
  case_number: string | null;
  title: string | null;
  jurisdiction: string;
  decision_date: string | null;
  added_at: string;
}

type RawCollection = Omit<Collection, "document_count" | "tags"> & { document_count: number | string; tags?: string[] | null };

const toCollection = (r: RawCollection): Collection => ({ ...r, document_count: Number(r.document_count), tags: r.tags ?? [] });

/** How many members GET /api/collections/{id} embeds (the newest first); the rest are paged by /documents. */
export const COLLECTION_DOCUMENTS_PREVIEW = 20;

/** A path id must be a UUID before any lookup. */
export function collectionId(raw: string | undefined): string {
  if (!raw || !UUID_PATTERN.test(raw)) throw new ApiError(400, "INVALID_COLLECTION_ID", "The collection id must be a UUID.");
  return raw.toLowerCase();
}

/** One page of the caller's collections, newest first, with the caller's total (R-LIM-028, R-END-151). */
export async function listCollections(
  db: SupabaseClient,
  page: { limit: number; offset: number },
): Promise<{ collections: Collection[]; total: number; limit: number; offset: number; has_more: boolean }> {
  const [list, count] = await Promise.all([
    db.rpc("list_collections", { p_limit: page.limit, p_offset: page.offset }),
    db.rpc("count_collections"),
  ]);
  if (list.error) throw rpcError(list.error);
  if (count.error) throw rpcError(count.error);
  const collections = ((list.data ?? []) as RawCollection[]).map(toCollection);
  const total = Number(count.data);
  return { collections, total, limit: page.limit, offset: page.offset, has_more: page.offset + collections.length < total };
}

/**
 * Create a collection, optionally with tags and first members (R-END-142). One database call: an unknown document id
 * is 404 DOCUMENT_NOT_FOUND (as when adding) and nothing is created.
 */
export async function createCollection(
  db: SupabaseClient,
  name: string,
  description: string | null | undefined,
  extra: { tags?: string[]; documentIds?: string[] } = {},
): Promise<Collection> {
  const { data, error } = await db.rpc("create_collection", {
    p_name: name,
    p_description: description ?? null,
    ...(extra.tags?.length ? { p_tags: extra.tags } : {}),
    ...(extra.documentIds?.length ? { p_document_ids: extra.documentIds } : {}),
  });
  if (error) throw rpcError(error);
  return toCollection(data as RawCollection);
}

export async function getCollection(db: SupabaseClient, id: string): Promise<Collection> {
  const { data, error } = await db.rpc("get_collection", { p_collection_id: id });
  if (error) throw rpcError(error);
  const row = ((data ?? []) as RawCollection[])[0];
  if (!row) throw collectionNotFound();
  return toCollection(row);
}

/**
 * GET /api/collections/{id}: the collection plus its newest COLLECTION_DOCUMENTS_PREVIEW members as
 * documents[{id, case_number, title, added_at}] (R-END-143); document_count says whether there are more.
 */
export async function getCollectionWithDocuments(
  db: SupabaseClient,
  id: string,
): Promise<Collection & { documents: Pick<CollectionDocument, "id" | "case_number" | "title" | "added_at">[] }> {
  const collection = await getCollection(db, id); // 404 first, as for /documents
  const rows = await documentRows(db, id, COLLECTION_DOCUMENTS_PREVIEW, 0);
  return { ...collection, documents: rows.map((d) => ({ id: d.id, case_number: d.case_number, title: d.title, added_at: d.added_at })) };
}

async function documentRows(db: SupabaseClient, id: string, limit: number, offset: number): Promise<CollectionDocument[]> {
  const { data, error } = await db.rpc("list_collection_documents", { p_collection_id: id, p_limit: limit, p_offset: offset });
  if (error) throw rpcError(error);
  return ((data ?? []) as (CollectionDocument & { total_count: number | string })[]).map(({ total_count: _t, ...d }) => d);
}

export async function updateCollection(db: SupabaseClient, id: string, patch: { name?: string; description?: string | null }): Promise<Collection> {
  const { data, error } = await db.rpc("update_collection", { p_collection_id: id, p_patch: patch });
  if (error) throw rpcError(error);
  const row = ((data ?? []) as RawCollection[])[0];
  if (!row) throw collectionNotFound();
  return toCollection(row);
}

export async function deleteCollection(db: SupabaseClient, id: string): Promise<void> {
  const { data, error } = await db.rpc("delete_collection", { p_collection_id: id });
  if (error) throw rpcError(error);
  if (data !== true) throw collectionNotFound();
}

export async function listCollectionDocuments(
  db: SupabaseClient,
  id: string,
  limit: number,
  offset: number,
): Promise<{ documents: CollectionDocument[]; total: number; limit: number; offset: number; has_more: boolean }> {
  const collection = await getCollection(db, id); // 404 before an empty page could hide a foreign id
  const rows = await documentRows(db, id, limit, offset);
  const total = collection.document_count;
  return {
    documents: rows,
    total,
    limit,
    offset,
    has_more: offset + rows.length < total,
  };
}

/** Upsert membership; returns how many pairs were new. Unknown judgments → 404 DOCUMENT_NOT_FOUND, nothing added. */
export async function addDocuments(db: SupabaseClient, id: string, documentIds: string[]): Promise<number> {
  const { data, error } = await db.rpc("add_collection_documents", { p_collection_id: id, p_document_ids: documentIds });
  if (error) throw rpcError(error);
  return Number(data);
}

export async function removeDocuments(db: SupabaseClient, id: string, documentIds: string[]): Promise<number> {
  const { data, error } = await db.rpc("remove_collection_documents", { p_collection_id: id, p_document_ids: documentIds });
  if (error) throw rpcError(error);
  return Number(data);
}

/** How many of the given ids name collections the caller owns (RLS). */
export async function countVisibleCollections(db: SupabaseClient, ids: string[]): Promise<number> {
  const { data, error } = await db.rpc("count_visible_collections", { p_collection_ids: ids });
  if (error) throw rpcError(error);
  return Number(data);
}
