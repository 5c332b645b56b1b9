/**
 * The public topics routes (D-16 makes meta, trending and topic-click public): what the topics index holds,
 * the trending topics (trend plus clicks), recording a click, and the caller's own clicks.
 *
 * Trending score (P-41): `slope + TRENDING_CLICK_WEIGHT · ln(1 + clickers)`, clickers = distinct users and guest
 * devices that clicked the topic (so one device clicking again and again counts once); ties by size, then topic id.
 * A topic growing by 10 % of its mean weight per period (the "emerging" threshold) is worth as much as ~1.7 clickers.
 */
import { createHmac } from "node:crypto";
import { z } from "zod";
import type { DbClient } from "@/lib/supabase/db-client";
import { config } from "@/lib/config";
import { ApiError, fromDatabaseError } from "@/lib/errors";
import type { TopicIndexEntry, TopicsIndex } from "@/lib/search/types";
import { isUuid } from "@/lib/schema/uuid";
import { TOPIC_ID_PATTERN } from "@/lib/schema/requests/topics";

/** Weight of ln(1 + distinct clickers) against the relative slope in the trending score (P-41). */
export const TRENDING_CLICK_WEIGHT = 0.2;

/** GET /api/search/topics/meta. Nulls and zeros before the first run. */
export interface TopicsMeta {
  run_id: string | null;
  computed_at: string | null;
  topic_count: number;
  document_count: number;
}

export interface TrendingTopic extends Omit<TopicIndexEntry, "id" | "run_id" | "topic"> {
  topic_id: string;
  clicks: number;
  clickers: number;
  score: number;
}

/** GET /api/search/topics/trending. */
export interface TrendingTopicsBody {
  run_id: string | null;
  computed_at: string | null;
  topics: TrendingTopic[];
}

/** GET /api/search/topics/my-clicks. `label` is null once the topic's run is no longer the indexed one. */
export interface MyTopicClick {
  topic_id: string;
  run_id: string;
  topic: number;
  label: string | null;
  query: string | null;
  created_at: string;
}
export interface MyTopicClicksBody {
  clicks: MyTopicClick[];
}

export function topicsMeta(index: TopicsIndex | null): TopicsMeta {
  if (!index) return { run_id: null, computed_at: null, topic_count: 0, document_count: 0 };
  return { run_id: index.run_id, computed_at: index.computed_at, topic_count: index.topic_count, document_count: index.document_count };
}

const CountRow = z.object({ topic: z.coerce.number(), clicks: z.coerce.number(), clickers: z.coerce.number() });

const round = (x: number) => Math.round(x * 1e6) / 1e6;

/** Rank the index's topics by trend and clicks (pure: the route passes the counts). */
export function rankTrending(index: TopicsIndex, counts: readonly z.infer<typeof CountRow>[], limit: number): TrendingTopic[] {
  const byTopic = new Map(counts.map((c) => [c.topic, c]));
  return index.topics
    .map((t) => {
      const c = byTopic.get(t.topic) ?? { clicks: 0, clickers: 0 };
      const { id, run_id: _run, topic: _topic, ...rest } = t;
      return { ...rest, topic_id: id, clicks: c.clicks, clickers: c.clickers, score: round(t.slope + TRENDING_CLICK_WEIGHT * Math.log1p(c.clickers)), n: t.topic };
    })
    .sort((a, b) => b.score - a.score || b.size - a.size || a.n - b.n)
    .slice(0, limit)
    .map(({ n: _n, ...t }) => t);
}

export async function trendingTopics(db: DbClient, index: TopicsIndex | null, limit: number): Promise<TrendingTopicsBody> {
  if (!index) return { run_id: null, computed_at: null, topics: [] };
  const { data, error } = await db.rpc("search_topic_click_counts", { p_run_id: index.run_id });
  if (error) throw fromDatabaseError(error);
  return { run_id: index.run_id, computed_at: index.computed_at, topics: rankTrending(index, z.array(CountRow).parse(data ?? []), limit) };
}

/** Who clicked: the signed-in user, else the guest device (D-23 device id, else the guest cookie, else the address). */
export interface Clicker {
  userId: string | null;
  deviceId: string | null;
  guestSessionId: string | null;
  address: string;
}

/** A guest's key: a device or guest-session UUID as is (random, not personal), an address only as a keyed hash. */
export function guestKeyOf(c: Clicker): string {
  if (c.deviceId && isUuid(c.deviceId)) return `device:${c.deviceId.toLowerCase()}`;
  if (c.guestSessionId && isUuid(c.guestSessionId)) return `guest:${c.guestSessionId.toLowerCase()}`;
  const secret = config().RATE_LIMIT_IDENTITY_SECRET ?? config().SUPABASE_SERVICE_ROLE_KEY ?? "local-topic-clicks";
  return `addr:${createHmac("sha256", secret).update(`topic-click:${c.address}`).digest("hex").slice(0, 32)}`;
}

/**
 * POST /api/search/topic-click: the topic must be in the current topics index (404 TOPIC_NOT_FOUND otherwise, so
 * clicks never pile up on topics nobody can see). Written with the service client (record_topic_click is granted to
 * it only), the clicker taken from the verified identity, never from the body.
 */
export async function recordTopicClick(
  serviceDb: DbClient,
  index: TopicsIndex | null,
  body: { topic_id: string; query?: string },
  clicker: Clicker,
): Promise<{ topic_id: string; recorded: true }> {
  const m = TOPIC_ID_PATTERN.exec(body.topic_id);
  const entry = m && index ? index.topics.find((t) => t.id === body.topic_id) : undefined;
  if (!m || !entry) throw new ApiError("TOPIC_NOT_FOUND");
  const { error } = await serviceDb.rpc("record_topic_click", {
    p_run_id: entry.run_id,
    p_topic: entry.topic,
    p_query: body.query?.trim() || undefined,
    p_user_id: clicker.userId ?? undefined,
    p_guest_key: clicker.userId ? undefined : guestKeyOf(clicker),
  });
  if (error) throw fromDatabaseError(error);
  return { topic_id: entry.id, recorded: true };
}

const ClickRow = z.object({ run_id: z.string(), topic: z.coerce.number(), query: z.string().nullable(), created_at: z.string() });

export async function myTopicClicks(db: DbClient, index: TopicsIndex | null, limit: number): Promise<MyTopicClicksBody> {
  const { data, error } = await db.rpc("my_topic_clicks", { p_limit: limit });
  if (error) throw fromDatabaseError(error);
  const labels = new Map((index?.topics ?? []).map((t) => [t.id, t.label]));
  return {
    clicks: z
      .array(ClickRow)
      .parse(data ?? [])
      .map((r) => {
        const topic_id = `${r.run_id}_${r.topic}`;
        return { topic_id, run_id: r.run_id, topic: r.topic, label: labels.get(topic_id) ?? null, query: r.query, created_at: r.created_at };
      }),
  };
}
