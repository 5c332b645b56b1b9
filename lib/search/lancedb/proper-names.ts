/**
 * Proper names: folded words that the stored documents' fields only ever spell capitalised ("Robert", "ROBERTS",
 * "Kowalski"), never in lower case. A query word gets no typo expansion to them (docs/search.md "Query language"):
 * `robery` is one typo from both "robbery" and "Robert", and the name must not outrank the offence. Read from the
 * stored fields (titles, summaries, courts, judges, keywords, base fields; not full_text, which is not in memory),
 * once per main segment; the delta's few documents are not read.
 */
import { foldWord, newWordRuns, scanWords } from "../text/tokenize";
import type { KeywordSegment } from "./keyword-segment";
import type { LiveIndex } from "./live-index";

const computed = new WeakMap<KeywordSegment, ReadonlySet<string>>();

function visit(v: unknown, f: (s: string) => void): void {
  if (typeof v === "string") f(v);
  else if (Array.isArray(v)) for (const x of v) visit(x, f);
  else if (v !== null && typeof v === "object") for (const x of Object.values(v)) visit(x, f);
}

/** The proper names of the live main segment's documents (an empty set before any is built). */
export function properNames(live: LiveIndex): ReadonlySet<string> {
  const main = live.main;
  if (!main) return new Set();
  const hit = computed.get(main);
  if (hit) return hit;
  const capital = new Set<string>();
  const lower = new Set<string>();
  const runs = newWordRuns(256);
  const scan = (text: string) => {
    const n = scanWords(text, runs);
    for (let i = 0; i < n; i++) {
      const s = runs.start[i];
      const c = text[s];
      // Digits and caseless scripts say nothing either way.
      if (c.toLowerCase() === c.toUpperCase()) continue;
      const w = foldWord(text, s, runs.end[i], runs.ascii[i] === 1);
      if (c === c.toLowerCase()) lower.add(w);
      else capital.add(w);
    }
  };
  for (const id of main.ids) {
    const doc = live.docs.get(id);
    if (!doc) continue;
    for (const [k, v] of Object.entries(doc)) {
      if (k === "id" || k === "source_url") continue;
      visit(v, scan);
    }
  }
  const names = new Set<string>();
  for (const w of capital) if (!lower.has(w)) names.add(w);
  computed.set(main, names);
  return names;
}
