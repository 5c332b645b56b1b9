/**
 * User data, statistics and feedback of the reference API (`/api/v1`). Collections run as the key's user:
 * the api_v1_* functions switch the transaction to that user under RLS and call the web tier's collection functions
 * (supabase/migrations/20261125150000_api_v1.sql), so ownership is decided by the same policies as on the web.
 */
import { z } from "zod";
import type { DbClient } from "@/lib/supabase/db-client";
import { config } from "@/lib/config";
import { ApiError, fromDatabaseError } from "@/lib/errors";
import type { V1FeedbackBody, V1StatisticsQuery } from "@/lib/schema/requests/api-v1";
import { CreateCollectionSchema } from "@/lib/schema/requests/structured";
import type { Identity } from "../identity";
import { COLLECTION_DOCUMENTS_PREVIEW, collectionId, toCollection, type Collection, type CollectionWithDocuments } from "../collections/collections";
import { paging, type V1Paging } from "./documents";

/** The key's user, or 403 for a key issued to no user (server keys made by hand): user data needs one. */
export function keyUser(identity: Identity): string {
  if (!identity.userId) throw new ApiError("API_KEY_USER_REQUIRED");
  return identity.userId;
}

export type V1CollectionList = { collections: Collection[] } & V1Paging;

export async function listCollectionsV1(serviceDb: DbClient, identity: Identity, page: { limit: number; offset: number }): Promise<V1CollectionList> {
  const { data, error } = await serviceDb.rpc("api_v1_list_collections", { p_user_id: keyUser(identity), p_limit: page.limit, p_offset: page.offset });
  if (error) throw fromDatabaseError(error);
  const body = z.object({ collections: z.array(z.unknown()), total: z.number() }).parse(data);
  return { collections: body.collections.map(toCollection), ...paging(body.total, page.limit, page.offset) };
}

/** 201 `{id, name, description, document_count, created_at}` (the spec's create answer) plus tags and updated_at. */
export async function createCollectionV1(serviceDb: DbClient, identity: Identity, body: z.infer<typeof CreateCollectionSchema>): Promise<Collection> {
  const { data, error } = await serviceDb.rpc("api_v1_create_collection", {
    p_user_id: keyUser(identity),
    p_name: body.name,
    p_description: body.description ?? null,
    p_tags: body.tags ?? [],
    p_document_ids: body.document_ids ?? [],
  });
  if (error) throw fromDatabaseError(error);
  return toCollection(data);
}

/** The collection with its newest members, or 404 COLLECTION_NOT_FOUND (another user's id too: RLS hides it, D-30). */
export async function getCollectionV1(serviceDb: DbClient, identity: Identity, rawId: string | undefined): Promise<CollectionWithDocuments> {
  const id = collectionId(rawId);
  const { data, error } = await serviceDb.rpc("api_v1_get_collection", { p_user_id: keyUser(identity), p_collection_id: id, p_documents: COLLECTION_DOCUMENTS_PREVIEW });
  if (error) throw fromDatabaseError(error);
  if (data === null) throw new ApiError("COLLECTION_NOT_FOUND");
  const { documents } = z.object({ documents: z.array(z.object({ id: z.string(), case_number: z.string().nullable(), title: z.string().nullable(), added_at: z.string() })) }).parse(data);
  return { ...toCollection(data), documents };
}

const counts = z.record(z.string(), z.number());
const StatisticsSchema = z.object({
  total_documents: z.number(),
  by_jurisdiction: counts,
  by_court_level: counts,
  by_year: counts,
  search_activity: z.object({
    total_searches: z.number(),
    avg_searches_per_day: z.number(),
    popular_queries: z.array(z.object({ query: z.string(), count: z.number() })),
  }),
});
export type V1Statistics = z.infer<typeof StatisticsSchema>;

/**
 * GET /api/v1/statistics: the corpus counts under the filters and the search activity of the last
 * API_V1_STATISTICS_DAYS days; a query is listed only when at least API_V1_POPULAR_QUERY_MIN_COUNT searches used it.
 */
export async function statisticsV1(serviceDb: DbClient, q: z.infer<typeof V1StatisticsQuery>): Promise<V1Statistics> {
  const c = config();
  const { data, error } = await serviceDb.rpc("api_v1_statistics", {
    p_jurisdiction: q.jurisdiction ?? null,
    p_date_from: q.date_from ?? null,
    p_date_to: q.date_to ?? null,
    p_min_query_count: c.API_V1_POPULAR_QUERY_MIN_COUNT,
    p_days: c.API_V1_STATISTICS_DAYS,
  });
  if (error) throw fromDatabaseError(error);
  return StatisticsSchema.parse(data);
}

const monthCount = z.object({ month: z.string(), count: z.number() });
const TrendsSchema = z.object({
  trends: z.object({ decisions_by_month: z.array(monthCount), case_types_trend: z.record(z.string(), z.array(monthCount)) }),
});
export type V1Trends = z.infer<typeof TrendsSchema>;

/** GET /api/v1/trends: decisions per month and per case type per month over the last API_V1_TRENDS_MONTHS months. */
export async function trendsV1(serviceDb: DbClient): Promise<V1Trends> {
  const { data, error } = await serviceDb.rpc("api_v1_trends", { p_months: config().API_V1_TRENDS_MONTHS });
  if (error) throw fromDatabaseError(error);
  return TrendsSchema.parse(data);
}

/** POST /api/v1/feedback → 201 `{id, message, created_at}`; stored with the key and its user, read by admins only. */
export async function submitFeedbackV1(serviceDb: DbClient, identity: Identity, body: z.infer<typeof V1FeedbackBody>) {
  const { data, error } = await serviceDb.rpc("api_feedback_create", {
    p_type: body.type,
    p_rating: body.rating,
    p_comment: body.comment ?? null,
    p_context: body.context ?? {},
    p_user_id: identity.userId,
    p_api_key_id: identity.apiKey?.id ?? null,
  });
  if (error) throw fromDatabaseError(error);
  const row = data[0];
  if (!row) throw new ApiError("DATABASE_ERROR");
  return { id: row.id, message: "Thank you: your feedback was recorded.", created_at: row.created_at };
}
