/** Typeahead over the phrases and topics mined at full sync (`suggest`, autocomplete's `topic_hits`). */
import { fold, words } from "../text/tokenize";
import type { Suggestion, TopicHit } from "../types";

/** Suggestions sorted by folded text (prefix lookups), with their keys and where the topics are (topic_hits). */
export interface SuggestionIndex {
  list: Suggestion[];
  keys: string[];
  /** Positions of the topic suggestions: a few dozen among tens of thousands of phrases. */
  topicRows: number[];
}

export function suggestionIndex(suggestions: Suggestion[]): SuggestionIndex {
  const keyed = suggestions.map((s) => ({ s, k: fold(s.text) }));
  keyed.sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0));
  const topicRows: number[] = [];
  keyed.forEach((x, i) => {
    if (x.s.kind === "topic") topicRows.push(i);
  });
  return { list: keyed.map((x) => x.s), keys: keyed.map((x) => x.k), topicRows };
}

/** Topics containing the query's words at a word start, most judgments first (autocomplete's `topic_hits`). */
export function topicHits(index: SuggestionIndex, q: string, limit: number): TopicHit[] {
  const ws = words(q);
  if (ws.length === 0) return [];
  const key = ws.join(" ");
  const out: TopicHit[] = [];
  const { list, keys, topicRows } = index;
  for (const i of topicRows) {
    const s = list[i];
    const k = keys[i];
    if (k.startsWith(key) || k.includes(" " + key)) out.push({ topic: s.text, count: s.count ?? Math.round(s.score / 2) });
  }
  return out.sort((a, b) => b.count - a.count || a.topic.localeCompare(b.topic)).slice(0, limit);
}

/** The suggestions whose folded text starts with `key` (binary search for the first), best score first. */
export function suggestionsStartingWith(index: SuggestionIndex, key: string, limit: number): Suggestion[] {
  let lo = 0;
  const { list, keys } = index;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  const found: Suggestion[] = [];
  for (let i = lo; i < keys.length && keys[i].startsWith(key); i++) {
    found.push(list[i]);
  }
  found.sort((a, b) => b.score - a.score || a.text.localeCompare(b.text));
  return found.slice(0, limit);
}
