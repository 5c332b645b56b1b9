/**
 * The topics index, engine-neutral parts (spec: Other records): matching a query against the stored run's
 * topics for autocomplete's `topic_hits`. Both adapters answer the same way: the LanceDB one in process over the
 * whole index (at most 30 topics), the Meilisearch one over its `<index>_topics` index with the same fields.
 */
import { fold, words } from "./text/tokenize";
import type { TopicHit, TopicIndexEntry, TopicsIndex } from "./types";

/** Folded text a topic is found by: its label and keywords, one per line (a match never spans two keywords). */
export function topicSearchText(t: Pick<TopicIndexEntry, "label" | "keywords">): string {
  return [t.label, ...t.keywords.map((k) => k.term)].map((x) => fold(x)).join("\n");
}

/** A stored topic as an autocomplete topic hit: its label, the judgments it dominates, its id and keyword terms. */
export function topicHitOf(t: TopicIndexEntry): TopicHit {
  return { topic: t.label, count: t.size, topic_id: t.id, keywords: t.keywords.map((k) => k.term) };
}

/**
 * Topics whose label or a keyword has the query's words at a word start (the query's last word may be a prefix), the
 * largest first, then by topic id: autocomplete's `topic_hits` once a run is indexed.
 */
export function matchTopics(index: TopicsIndex | null, q: string, limit: number): TopicHit[] {
  if (!index) return [];
  const key = words(q).join(" ");
  if (key === "") return [];
  return index.topics
    .filter((t) =>
      topicSearchText(t)
        .split("\n")
        .some((line) => {
          const l = words(line).join(" ");
          return l.startsWith(key) || l.includes(" " + key);
        }),
    )
    .sort((a, b) => b.size - a.size || a.topic - b.topic)
    .slice(0, limit)
    .map(topicHitOf);
}
