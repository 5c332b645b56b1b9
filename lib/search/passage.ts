/**
 * The passage shown for a semantic hit: the judgment's chunk nearest the query (chunk search over the page's
 * judgments), cropped around the query's words and with them marked where present (never stop-words or one-letter
 * words, text/markable.ts). A keyword snippet of the summary says little about why a semantic hit matched.
 */
import { crop, type MarkTerms } from "./lancedb/highlight";
import { words } from "./text/tokenize";
import { marksQueryWord } from "./text/markable";
import type { SearchEngine } from "./types";

/** Words of the passage shown. */
export const PASSAGE_WORDS = 40;

/** The marked passage per judgment id of `ids` (those with a chunk), for the query `q` (the port's syntax). */
export async function semanticPassages(engine: SearchEngine, q: string, ids: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (ids.length === 0) return out;
  // The query's words without exclusions or field syntax: what the passage should be near.
  const plain = q.replace(/(^|\s)-("[^"]*"?|\S+)/g, " ").replace(/"/g, " ").replace(/\bOR\b/g, " ").trim();
  if (plain === "") return out;
  const r = await engine.searchChunks({
    query: plain,
    limit: Math.min(100, ids.length * 5),
    filter: { type: "in", attribute: "judgment_id", values: [...ids], negated: false },
  });
  const terms: MarkTerms = new Map();
  for (const w of words(plain)) if (marksQueryWord(w)) terms.set(w, null);
  // Hits come nearest first: the first chunk of each judgment is its passage.
  for (const h of r.hits) {
    if (!out.has(h.judgmentId)) out.set(h.judgmentId, crop(h.text, terms, PASSAGE_WORDS, true));
  }
  return out;
}
