/**
 * The keyword query language of the LanceDB adapter, the port's syntax (types.ts `SearchDocumentsRequest.q`, written
 * by ../query-syntax.ts from what users type): words, "quoted phrases", `-word` and `-"phrase"` exclusions, `OR`
 * between words or quoted phrases, prefix on the last word, ten word slots at most.
 */
import { words } from "../text/tokenize";
import type { QueryWord } from "./keyword-segment";

/** One side of an OR that holds a quoted phrase: its words, and whether it was quoted (exact, adjacent, in order). */
export interface OrMember {
  words: string[];
  quoted: boolean;
}

export interface ParsedQuery {
  /** One per word slot: its first (or only) word. */
  words: QueryWord[];
  /** Per slot, every word that may fill it (`a OR b` → [a, b]; a single word → [it]). */
  alternatives: QueryWord[][];
  /** Words that can never be dropped by the matching strategy (quoted phrases, OR groups with a phrase). */
  required: boolean[];
  /** Quoted phrases of two words or more (folded): their words must be adjacent, in order (checked on the text). */
  phrases: string[][];
  /** `-word` (one word) and `-"phrase"`: documents holding them are left out. */
  excluded: string[][];
  /**
   * OR groups with a quoted phrase among their members (`"kitchen knife" OR machete`): each is one required slot
   * filled by any member's words, and a matching document must hold one member whole (query-constraints.ts).
   */
  orGroups: OrMember[][];
}

const MAX_WORDS = 10;

/** A word or quoted run of the query, with whether an OR joins it to the one before. */
interface Item {
  ws: string[];
  quoted: boolean;
  orBefore: boolean;
}

/** Splits a query into word slots, phrases, OR groups and exclusions. */
export function parseQuery(q: string): ParsedQuery {
  const out: ParsedQuery = { words: [], alternatives: [], required: [], phrases: [], excluded: [], orGroups: [] };
  const items: Item[] = [];
  let orPending = false;
  // A quoted run (optionally negated, possibly unclosed) or a run of non-space, non-quote characters.
  const re = /(-?)"([^"]*)"?|[^\s"]+/g;
  let endsOnWord = false;
  for (const m of q.matchAll(re)) {
    const token = m[0];
    endsOnWord = false;
    if (m[2] !== undefined) {
      const ws = words(m[2]);
      if (ws.length === 0 || m[1] === "-") {
        if (ws.length > 0) out.excluded.push(ws);
        orPending = false;
        continue;
      }
      items.push({ ws, quoted: true, orBefore: orPending });
      orPending = false;
      continue;
    }
    if (token === "OR") {
      orPending = items.length > 0;
      continue;
    }
    if (token.startsWith("-") && token.length > 1) {
      const ws = words(token.slice(1));
      if (ws.length > 0) out.excluded.push(ws);
      orPending = false;
      continue;
    }
    const ws = words(token);
    if (ws.length === 0) continue;
    items.push({ ws, quoted: false, orBefore: orPending });
    orPending = false;
    endsOnWord = true;
  }
  const slot = (alts: QueryWord[], required: boolean) => {
    out.words.push(alts[0]);
    out.alternatives.push(alts);
    out.required.push(required);
  };
  const word = (text: string, quoted: boolean): QueryWord => ({ text, prefix: false, typos: !quoted });
  for (let i = 0; i < items.length; ) {
    let j = i + 1;
    while (j < items.length && items[j].orBefore) j++;
    const group = items.slice(i, j);
    i = j;
    if (group.some((it) => it.quoted) && group.length > 1) {
      // One slot for the whole group: any member's word fills it, and the document must hold a member whole.
      slot(
        group.flatMap((it) => it.ws.map((w) => word(w, it.quoted))),
        true,
      );
      out.orGroups.push(group.map((it) => ({ words: it.ws, quoted: it.quoted })));
      continue;
    }
    for (let k = 0; k < group.length; k++) {
      const it = group[k];
      if (it.quoted) {
        for (const w of it.ws) slot([word(w, true)], true);
        if (it.ws.length > 1) out.phrases.push(it.ws);
        continue;
      }
      // `a OR b` between words: the word after OR joins the slot of the word before it.
      const [first, ...rest] = it.ws;
      if (k > 0) out.alternatives[out.alternatives.length - 1].push(word(first, false));
      else slot([word(first, false)], false);
      for (const w of rest) slot([word(w, false)], false);
    }
  }
  // Prefix on the last word unless the query ends with a space or a closing quote (Meilisearch behaviour); with
  // `a OR b` last, on the word typed last.
  const last = out.alternatives.length - 1;
  if (last >= 0 && endsOnWord && !out.required[last] && /[\p{L}\p{N}]$/u.test(q)) {
    const alts = out.alternatives[last];
    alts[alts.length - 1].prefix = true;
  }
  // Meilisearch caps queries at 10 words; so do we (bounds the work per query).
  out.words = out.words.slice(0, MAX_WORDS);
  out.alternatives = out.alternatives.slice(0, MAX_WORDS);
  out.required = out.required.slice(0, MAX_WORDS);
  return out;
}
