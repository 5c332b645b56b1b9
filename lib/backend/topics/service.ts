/**
 * The topics routes' entry points over the process's search engine (the routes stay thin wrappers): each reads the
 * topics index once and hands it to the pure parts in ./public.ts.
 */
import type { DbClient } from "@/lib/supabase/db-client";
import { ApiError } from "@/lib/errors";
import type { Identity } from "../identity";
import { getSearchEngine } from "@/lib/search/engine";
import { mapSearchErrors } from "../search";
import type { AnalyzeTopicsRequest } from "@/lib/schema/requests/topics";
import { refreshTopicsIndexSoon } from "./index-build";
import { myTopicClicks, recordTopicClick, topicsMeta, trendingTopics, type Clicker } from "./public";
import { analyzeTopicRun } from "./runs";

const readIndex = () => mapSearchErrors(() => getSearchEngine().topics.read());

/**
 * POST /api/topic-modeling/analyze: the run, stored for the caller. An admin's run becomes the public topics index
 * (P-83): the index is rebuilt from it before answering (one small read and a file or 30-document write), so its
 * topics are trending as soon as the admin has the answer; a failed rebuild is logged, never the run's failure (the
 * worker's next scheduled pass repairs the index). A researcher's run is theirs only and leaves the index as it is.
 */
export function analyzeAndIndex(db: DbClient, serviceDb: DbClient, identity: Pick<Identity, "userId" | "role">, req: AnalyzeTopicsRequest) {
  if (!identity.userId) throw new ApiError("UNAUTHORIZED");
  const publicIndex = identity.role === "admin";
  return analyzeTopicRun(db, serviceDb, { userId: identity.userId, publicIndex }, req, publicIndex ? () => refreshTopicsIndexSoon(serviceDb, getSearchEngine) : undefined);
}

export async function getTopicsMeta() {
  return topicsMeta(await readIndex());
}

export async function getTrendingTopics(db: DbClient, limit: number) {
  return trendingTopics(db, await readIndex(), limit);
}

export async function clickTopic(serviceDb: DbClient, body: { topic_id: string; query?: string }, clicker: Clicker) {
  return recordTopicClick(serviceDb, await readIndex(), body, clicker);
}

export async function getMyTopicClicks(db: DbClient, limit: number) {
  return myTopicClicks(db, await readIndex(), limit);
}
