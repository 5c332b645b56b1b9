/**
 * Mines typeahead phrases from the corpus at sync time ("1-4 word n-grams weighted by frequency"):
 * n-grams of titles, summaries and case names counted once per judgment (document frequency), plus every
 * legal_topics/keywords value as a "topic". N-grams that start or end with a stop word, contain digits only, or occur
 * in fewer than `minCount` judgments are dropped. Score = document frequency × a mild length bonus (longer phrases
 * are more useful completions when equally common).
 */
import { STOPWORDS } from "./text/stopwords";
import { words } from "./text/tokenize";
import type { IndexDocument, Suggestion } from "./types";

const STOP = STOPWORDS;

const PHRASE_FIELDS = ["title", "summary", "base_case_name"] as const;
const TOPIC_FIELDS = ["legal_topics", "keywords"] as const;

export class SuggestionMiner {
  /**
   * Phrase → document frequency (the phrase is its own display text): a bare number per entry, not an object, as
   * the map holds every distinct n-gram of the corpus (millions at 10x the demo corpus) until the build commits.
   */
  private readonly phrases = new Map<string, number>();
  private readonly topics = new Map<string, { count: number; display: string }>();

  constructor(private readonly options: { maxWords?: number; minCount?: number; maxSuggestions?: number } = {}) {}

  add(doc: IndexDocument): void {
    const maxN = this.options.maxWords ?? 4;
    const seen = new Set<string>();
    for (const f of PHRASE_FIELDS) {
      const v = doc[f];
      if (typeof v !== "string") continue;
      // Only the opening of long fields: titles/summaries hold raw opening text (spec: dated data observations).
      const ws = words(v.slice(0, 600));
      for (let i = 0; i < ws.length; i++) {
        if (STOP.has(ws[i]) || /^\d+$/.test(ws[i]) || ws[i].length < 2) continue;
        for (let n = 1; n <= maxN && i + n <= ws.length; n++) {
          const last = ws[i + n - 1];
          if (STOP.has(last) || /^\d+$/.test(last)) continue;
          seen.add(ws.slice(i, i + n).join(" "));
        }
      }
    }
    for (const key of seen) this.phrases.set(key, (this.phrases.get(key) ?? 0) + 1);
    const topicSeen = new Set<string>();
    for (const f of TOPIC_FIELDS) {
      const v = doc[f];
      if (!Array.isArray(v)) continue;
      for (const t of v) {
        if (typeof t !== "string" || t.trim() === "") continue;
        const key = words(t).join(" ");
        if (key === "" || topicSeen.has(key)) continue;
        topicSeen.add(key);
        const e = this.topics.get(key);
        if (e) e.count++;
        else this.topics.set(key, { count: 1, display: t.trim() });
      }
    }
  }

  result(): Suggestion[] {
    const minCount = this.options.minCount ?? 2;
    const max = this.options.maxSuggestions ?? 50_000;
    const out: Suggestion[] = [];
    for (const [, e] of this.topics) out.push({ text: e.display, score: e.count * 2, kind: "topic", count: e.count });
    for (const [key, count] of this.phrases) {
      if (count < minCount) continue;
      const n = key.split(" ").length;
      out.push({ text: key, score: count * (1 + 0.25 * (n - 1)), kind: "phrase", count });
    }
    out.sort((a, b) => b.score - a.score || a.text.localeCompare(b.text));
    return out.slice(0, max);
  }
}
