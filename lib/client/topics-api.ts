/**
 * Client calls for topic modelling and the topics routes: /api/topic-modeling/analyze, /runs, /runs/{id},
 * /api/search/topics/trending and /api/search/topic-click. The bodies are the types lib/backend/topics builds.
 */
import type { TopicRunPage, TopicRunResponse, TrendingTopicsBody } from "@/lib/backend/responses";
import { DEVICE_KEY } from "@/lib/events/track";
import type { TopicRunFields } from "@/lib/schema/requests/topics-form";
import { apiFetch, qs } from "./api";

export type { TopicRunPage, TopicRunResponse, TrendingTopic, TrendingTopicsBody } from "@/lib/backend/responses";

export function analyzeTopics(fields: TopicRunFields): Promise<TopicRunResponse> {
  return apiFetch<TopicRunResponse>("/api/topic-modeling/analyze", { method: "POST", json: fields });
}

export function listTopicRuns(limit = 10): Promise<TopicRunPage> {
  return apiFetch<TopicRunPage>(`/api/topic-modeling/runs${qs({ limit, offset: 0 })}`);
}

export function getTopicRun(id: string): Promise<TopicRunResponse> {
  return apiFetch<TopicRunResponse>(`/api/topic-modeling/runs/${encodeURIComponent(id)}`);
}

export function trendingTopics(limit = 10): Promise<TrendingTopicsBody> {
  return apiFetch<TrendingTopicsBody>(`/api/search/topics/trending${qs({ limit })}`);
}

/** The device id the event tracker keeps (D-23), so a guest's clicks count once per device. */
function deviceId(): string | null {
  try {
    return window.localStorage.getItem(DEVICE_KEY);
  } catch {
    return null;
  }
}

/** Record a topic click; fire-and-forget (a failed count never blocks the way to the search). */
export function recordTopicClick(topicId: string, query?: string): void {
  const id = deviceId();
  apiFetch("/api/search/topic-click", {
    method: "POST",
    json: { topic_id: topicId, ...(query ? { query } : {}) },
    headers: id ? { "x-device-id": id } : undefined,
    keepalive: true,
  }).catch(() => undefined);
}

/** The /search link of a topic: its first keywords as the query. */
export function topicSearchHref(keywords: readonly string[]): string {
  return `/search?${new URLSearchParams({ q: keywords.slice(0, 3).join(" ") }).toString()}`;
}
