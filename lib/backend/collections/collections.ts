/**
 * Collections CRUD over the collection RPCs (supabase/migrations/20260103000100_collections.sql), always with the
 * caller's client: RLS makes another user's collection invisible, which the API reports as a plain 404 (D-30).
 */
import { z } from "zod";
import type { DbClient } from "@/lib/supabase/db-client";
import { ApiError, fromDatabaseError } from "@/lib/errors";
import { collectionNotFound } from "@/lib/backend/extractions/db-errors";
import { isUuid } from "@/lib/schema/uuid";

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

/**
 * A collection_row as the functions answer it. It is a composite type, so the generated types make every attribute
 * nullable; the functions never return a row without id or name, and this parse (not a cast) says so.
 */
const CollectionRow = z.object({
  id: z.string(),
  user_id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  document_count: z.coerce.number(),
  tags: z
    .array(z.string())
    .nullish()
    .transform((t) => t ?? []),
});

export const toCollection = (r: unknown): Collection => CollectionRow.parse(r);

/** GET /api/collections: one page of the caller's collections. */
export interface CollectionPage {
  collections: Collection[];
  total: number;
  limit: number;
  offset: number;
  has_more: boolean;
}

/** GET /api/collections/{id}: the collection and its newest members. */
export type CollectionWithDocuments = Collection & { documents: Pick<CollectionDocument, "id" | "case_number" | "title" | "added_at">[] };

/** GET /api/collections/{id}/documents: one page of a collection's members. */
export interface CollectionDocumentPage {
  documents: CollectionDocument[];
  total: number;
  limit: number;
  offset: number;
  has_more: boolean;
}

/** How many members GET /api/collections/{id} embeds (the newest first); the rest are paged by /documents. */
export const COLLECTION_DOCUMENTS_PREVIEW = 20;

/** A path id must be a UUID before any lookup. */
export function collectionId(raw: string | undefined): string {
  if (!raw || !isUuid(raw)) throw new ApiError("INVALID_COLLECTION_ID", "The collection id must be a UUID.");
  return raw.toLowerCase();
}

/** One page of the caller's collections, newest first, with the caller's total (R-LIM-028, R-END-151). */
export async function listCollections(
  db: DbClient,
  page: { limit: number; offset: number },
): Promise<CollectionPage> {
  const [list, count] = await Promise.all([
    db.rpc("list_collections", { p_limit: page.limit, p_offset: page.offset }),
    db.rpc("count_collections"),
  ]);
  if (list.error) throw fromDatabaseError(list.error);
  if (count.error) throw fromDatabaseError(count.error);
  const collections = list.data.map(toCollection);
  const total = Number(count.data);
  return { collections, total, limit: page.limit, offset: page.offset, has_more: page.offset + collections.length < total };
}

/**
 * Create a collection, optionally with tags and first members (R-END-142). One database call: an unknown document id
 * is 404 DOCUMENT_NOT_FOUND (as when adding) and nothing is created.
 */
export async function createCollection(
  db: DbClient,
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
  if (error) throw fromDatabaseError(error);
  return toCollection(data);
}

export async function getCollection(db: DbClient, id: string): Promise<Collection> {
  const { data, error } = await db.rpc("get_collection", { p_collection_id: id });
  if (error) throw fromDatabaseError(error);
  const row = data[0];
  if (!row) throw collectionNotFound();
  return toCollection(row);
}

/**
 * GET /api/collections/{id}: the collection plus its newest COLLECTION_DOCUMENTS_PREVIEW members as
 * documents[{id, case_number, title, added_at}] (R-END-143); document_count says whether there are more.
 */
export async function getCollectionWithDocuments(
  db: DbClient,
  id: string,
): Promise<CollectionWithDocuments> {
  const collection = await getCollection(db, id); // 404 first, as for /documents
  const rows = await documentRows(db, id, COLLECTION_DOCUMENTS_PREVIEW, 0);
  return { ...collection, documents: rows.map((d) => ({ id: d.id, case_number: d.case_number, title: d.title, added_at: d.added_at })) };
}

async function documentRows(db: DbClient, id: string, limit: number, offset: number): Promise<CollectionDocument[]> {
  const { data, error } = await db.rpc("list_collection_documents", { p_collection_id: id, p_limit: limit, p_offset: offset });
  if (error) throw fromDatabaseError(error);
  return data.map(({ total_count: _t, ...d }) => d);
}

export async function updateCollection(db: DbClient, id: string, patch: { name?: string; description?: string | null }): Promise<Collection> {
  const { data, error } = await db.rpc("update_collection", { p_collection_id: id, p_patch: patch });
  if (error) throw fromDatabaseError(error);
  const row = data[0];
  if (!row) throw collectionNotFound();
  return toCollection(row);
}

export async function deleteCollection(db: DbClient, id: string): Promise<void> {
  const { data, error } = await db.rpc("delete_collection", { p_collection_id: id });
  if (error) throw fromDatabaseError(error);
  if (data !== true) throw collectionNotFound();
}

export async function listCollectionDocuments(
  db: DbClient,
  id: string,
  limit: number,
  offset: number,
): Promise<CollectionDocumentPage> {
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
export async function addDocuments(db: DbClient, id: string, documentIds: string[]): Promise<number> {
  const { data, error } = await db.rpc("add_collection_documents", { p_collection_id: id, p_document_ids: documentIds });
  if (error) throw fromDatabaseError(error);
  return Number(data);
}

export async function removeDocuments(db: DbClient, id: string, documentIds: string[]): Promise<number> {
  const { data, error } = await db.rpc("remove_collection_documents", { p_collection_id: id, p_document_ids: documentIds });
  if (error) throw fromDatabaseError(error);
  return Number(data);
}

/** How many of the given ids name collections the caller owns (RLS). */
export async function countVisibleCollections(db: DbClient, ids: string[]): Promise<number> {
  const { data, error } = await db.rpc("count_visible_collections", { p_collection_ids: ids });
  if (error) throw fromDatabaseError(error);
  return Number(data);
}
