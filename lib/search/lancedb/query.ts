/** The keyword query language of the LanceDB adapter: words, "quoted phrases", prefix on the last word. */
import { words } from "../text/tokenize";
import type { QueryWord } from "./keyword-segment";

export interface ParsedQuery {
  words: QueryWord[];
  /** Words that can never be dropped by the matching strategy (quoted phrases). */
  required: boolean[];
}

/** Splits a query into words; "quoted phrases" are required words without typos or prefix. */
export function parseQuery(q: string): ParsedQuery {
  const out: ParsedQuery = { words: [], required: [] };
  const re = /"([^"]*)"?|([^"]+)/g;
  for (const m of q.matchAll(re)) {
    if (m[1] !== undefined) {
      for (const w of words(m[1])) {
        out.words.push({ text: w, prefix: false, typos: false });
        out.required.push(true);
      }
    } else if (m[2] !== undefined) {
      for (const w of words(m[2])) {
        out.words.push({ text: w, prefix: false, typos: true });
        out.required.push(false);
      }
    }
  }
  // Prefix on the last word unless the query ends with a space or a closing quote (Meilisearch behaviour).
  const last = out.words.length - 1;
  if (last >= 0 && !out.required[last] && /[\p{L}\p{N}]$/u.test(q)) out.words[last].prefix = true;
  // Meilisearch caps queries at 10 words; so do we (bounds the work per query).
  out.words = out.words.slice(0, 10);
  out.required = out.required.slice(0, 10);
  return out;
}
