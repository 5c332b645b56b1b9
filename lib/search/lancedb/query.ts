/**
 * The keyword query language of the LanceDB adapter, the port's syntax (types.ts `SearchDocumentsRequest.q`, written
 * by ../query-syntax.ts from what users type): words, "quoted phrases", `-word` and `-"phrase"` exclusions, `a OR b`
 * between two words, prefix on the last word, ten words at most.
 */
import { words } from "../text/tokenize";
import type { QueryWord } from "./keyword-segment";

export interface ParsedQuery {
  /** One per word slot: its first (or only) word. */
  words: QueryWord[];
  /** Per slot, every word that may fill it (`a OR b` → [a, b]; a single word → [it]). */
  alternatives: QueryWord[][];
  /** Words that can never be dropped by the matching strategy (quoted phrases). */
  required: boolean[];
  /** Quoted phrases of two words or more (folded): their words must be adjacent, in order (checked on the text). */
  phrases: string[][];
  /** `-word` (one word) and `-"phrase"`: documents holding them are left out. */
  excluded: string[][];
}

const MAX_WORDS = 10;

/** Splits a query into word slots, phrases and exclusions. */
export function parseQuery(q: string): ParsedQuery {
  const out: ParsedQuery = { words: [], alternatives: [], required: [], phrases: [], excluded: [] };
  let orPending = false;
  const push = (text: string, required: boolean) => {
    const w: QueryWord = { text, prefix: false, typos: !required };
    const last = out.alternatives.length - 1;
    if (orPending && !required && last >= 0 && !out.required[last]) {
      out.alternatives[last].push(w);
    } else {
      out.words.push(w);
      out.alternatives.push([w]);
      out.required.push(required);
    }
    orPending = false;
  };
  // A quoted run (optionally negated, possibly unclosed) or a run of non-space, non-quote characters.
  const re = /(-?)"([^"]*)"?|[^\s"]+/g;
  let lastWordEnd = -1;
  for (const m of q.matchAll(re)) {
    const token = m[0];
    if (m[2] !== undefined) {
      const ws = words(m[2]);
      orPending = false;
      lastWordEnd = -1;
      if (ws.length === 0) continue;
      if (m[1] === "-") {
        out.excluded.push(ws);
        continue;
      }
      for (const w of ws) push(w, true);
      if (ws.length > 1) out.phrases.push(ws);
      continue;
    }
    if (token === "OR") {
      orPending = out.alternatives.length > 0;
      continue;
    }
    if (token.startsWith("-") && token.length > 1) {
      const ws = words(token.slice(1));
      if (ws.length > 0) out.excluded.push(ws);
      orPending = false;
      lastWordEnd = -1;
      continue;
    }
    const ws = words(token);
    for (const w of ws) push(w, false);
    lastWordEnd = ws.length > 0 ? out.alternatives.length - 1 : -1;
  }
  // Prefix on the last word unless the query ends with a space or a closing quote (Meilisearch behaviour); with
  // `a OR b` last, on the word typed last.
  const last = out.alternatives.length - 1;
  if (last >= 0 && last === lastWordEnd && !out.required[last] && /[\p{L}\p{N}]$/u.test(q)) {
    const alts = out.alternatives[last];
    alts[alts.length - 1].prefix = true;
  }
  // Meilisearch caps queries at 10 words; so do we (bounds the work per query).
  out.words = out.words.slice(0, MAX_WORDS);
  out.alternatives = out.alternatives.slice(0, MAX_WORDS);
  out.required = out.required.slice(0, MAX_WORDS);
  return out;
}
