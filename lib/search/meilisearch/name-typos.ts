/**
 * Typos that reach a proper name (docs/meilisearch.md "Typos and proper names"). Meilisearch's typo settings act on
 * query words, not on the documents' words, so `robery` (one typo from "robbery" and from "Robert") matches a
 * judgment titled "R v Robert" as well as a robbery judgment, and its `typo` rule ranks the two alike. The embedded
 * engine never expands a typo to a name (../text/proper-names.ts); on Meilisearch the adapter comes as close as the
 * response lets it: when a query word is within its typo budget of a corpus name (the list the full sync wrote into
 * `typoTolerance.disableOnWords`), the search reads further than the page, highlights the retrieved attributes, and
 * moves after the others every hit whose visible matches of that word are all names other than the word itself.
 * Demoted, not dropped: full_text is not displayed, so it may hold the word itself.
 */
import { HIGHLIGHT_POST_TAG, HIGHLIGHT_PRE_TAG } from "../index-settings";
import { fold, words as foldedWords } from "../text/tokenize";
import { boundedLevenshtein, typoBudget } from "../text/typos";
import type { MeiliConnection, Raw } from "./connection";

/** Hits read past the page's end to find the ones a name-only match pushed ahead (docs/meilisearch.md). */
export const NAME_TYPO_LOOKAHEAD = 100;

/** How long the names read from the index's settings are trusted (a full sync rewrites them). */
const NAMES_TTL_MS = 60_000;

/** The corpus's proper names as the live index's settings hold them, read once a minute at most. */
export class ProperNameList {
  private cached: { uid: string; at: number; names: Promise<ReadonlySet<string>> } | null = null;

  constructor(
    private readonly conn: MeiliConnection,
    private readonly ttlMs = NAMES_TTL_MS,
  ) {}

  names(): Promise<ReadonlySet<string>> {
    const uid = this.conn.uids.documents;
    const now = Date.now();
    if (!this.cached || this.cached.uid !== uid || now - this.cached.at > this.ttlMs) {
      const names = this.conn
        .index(uid)
        .getSettings()
        .then(
          (s) => new Set((s.typoTolerance?.disableOnWords ?? []).map(fold)) as ReadonlySet<string>,
          // No settings to read (the search itself will say why): no guard rather than a failed search.
          () => new Set<string>() as ReadonlySet<string>,
        );
      this.cached = { uid, at: now, names };
    }
    return this.cached.names;
  }
}

/** A plain query word Meilisearch may match with typos; `prefix` when it is the query's last, unfinished word. */
export interface GuardedWord {
  word: string;
  prefix: boolean;
}

/** The query's tokens as the adapter reads the port's syntax: `"a phrase"`, `-word`, `-"a phrase"`, `OR`, words. */
export function queryTokens(q: string): string[] {
  return q.match(/-?"[^"]*"?|[^\s"]+/g) ?? [];
}

/** The query's plain words (no quoted phrase, no `-` exclusion, no `OR`), folded, with the last one's prefix flag. */
function plainWords(q: string): GuardedWord[] {
  const tokens = queryTokens(q);
  const out: GuardedWord[] = [];
  tokens.forEach((t, i) => {
    if (t.startsWith("-") || t.startsWith('"') || t === "OR") return;
    const ws = foldedWords(t);
    // Meilisearch matches the query's last word as a prefix unless the query ends with a space.
    const prefixLast = i === tokens.length - 1 && !/\s$/.test(q);
    ws.forEach((w, j) => out.push({ word: w, prefix: prefixLast && j === ws.length - 1 }));
  });
  return out;
}

type Match = "exact" | "typo" | null;

/** How Meilisearch matches query word `w` to the folded document word `f`: exactly or as a prefix, by a typo, or not. */
function matchOf(w: GuardedWord, f: string): Match {
  if (f === w.word || (w.prefix && f.startsWith(w.word))) return "exact";
  const budget = typoBudget(w.word.length);
  if (budget === 0) return null;
  if (boundedLevenshtein(w.word, f, budget) <= budget) return "typo";
  if (w.prefix && f.length > w.word.length && boundedLevenshtein(w.word, f.slice(0, w.word.length), budget) <= budget) return "typo";
  return null;
}

/** The query words that a typo can carry to a corpus name (none when the word is itself a name). */
export function wordsAtRisk(q: string, names: ReadonlySet<string>): GuardedWord[] {
  if (names.size === 0) return [];
  return plainWords(q).filter((w) => {
    if (typoBudget(w.word.length) === 0 || names.has(w.word)) return false;
    for (const n of names) if (matchOf(w, n) === "typo") return true;
    return false;
  });
}

const MARKED = /<mark>([^<]*)<\/mark>([\p{L}\p{N}]*)/gu;

/** The folded whole words a hit's `_formatted` marks (a prefix mark is read with the rest of its word). */
function markedWords(formatted: unknown, into: Set<string>): void {
  if (typeof formatted === "string") {
    for (const m of formatted.matchAll(MARKED)) for (const w of foldedWords(m[1] + m[2])) into.add(w);
  } else if (Array.isArray(formatted)) formatted.forEach((v) => markedWords(v, into));
  else if (formatted && typeof formatted === "object") Object.values(formatted).forEach((v) => markedWords(v, into));
}

/** Whether every visible match of some word at risk is a typo landing on a name. */
function matchesOnlyNames(hit: Raw, atRisk: readonly GuardedWord[], names: ReadonlySet<string>): boolean {
  const marked = new Set<string>();
  markedWords(hit._formatted, marked);
  return atRisk.some((w) => {
    let onName = false;
    for (const f of marked) {
      const m = matchOf(w, f);
      if (m === "exact" || (m === "typo" && !names.has(f))) return false;
      if (m === "typo") onName = true;
    }
    return onName;
  });
}

/** `hits` with those matching a word at risk only through names moved after the others (each group keeps its order). */
export function demoteNameTypos(hits: readonly Raw[], atRisk: readonly GuardedWord[], names: ReadonlySet<string>): Raw[] {
  const kept: Raw[] = [];
  const demoted: Raw[] = [];
  for (const h of hits) (matchesOnlyNames(h, atRisk, names) ? demoted : kept).push(h);
  return [...kept, ...demoted];
}

/** A hit with the marks taken out of the formatted attributes the caller did not ask to highlight. */
export function keepRequestedMarks(hit: Raw, highlighted: readonly string[] | undefined): Raw {
  const f = hit._formatted as Record<string, unknown> | undefined;
  if (!f || highlighted?.includes("*")) return hit;
  const keep = new Set(highlighted ?? []);
  const strip = (v: unknown): unknown =>
    typeof v === "string"
      ? v.split(HIGHLIGHT_PRE_TAG).join("").split(HIGHLIGHT_POST_TAG).join("")
      : Array.isArray(v)
        ? v.map(strip)
        : v;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(f)) out[k] = keep.has(k) ? v : strip(v);
  return { ...hit, _formatted: out };
}
