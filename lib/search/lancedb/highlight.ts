/**
 * `<mark>` highlighting and cropping for the in-process keyword path, matching Meilisearch's `_formatted`:
 * whole words for exact/typo matches, only the matched prefix for a prefix match ("<mark>robb</mark>ery"); crop to
 * N words around the densest run of matches with "…" where text was cut. Text is HTML-escaped first (&, <, >, ")
 * so the result is safe to render as HTML.
 */
import { HIGHLIGHT_POST_TAG, HIGHLIGHT_PRE_TAG } from "../index-settings";
import { LruCache } from "@/lib/lru";
import { escapeHtml } from "@/lib/text/html";
import { fold, foldWord, newWordRuns, scanWords, type WordRuns } from "../text/tokenize";

/** Folded term → characters to mark (null = the whole word). */
export type MarkTerms = Map<string, number | null>;


/*
 * Most words of a hit match no query term, and an ASCII word folds to its own lower case (same length, same
 * letters), so a bitmap of (length, first letter) of the ASCII terms rules most words out without slicing or
 * folding them. Other words are ruled out by the folded form of their first character (the fold of a word starts
 * with the fold of its first character: decomposition and case mapping work character by character, and the only
 * contextual lower-casing, final sigma, needs a preceding letter). Rebuilt when the terms change (a new map, or
 * one whose size changed).
 */
const MAX_KEYED_LEN = 64;

interface Matcher {
  terms: MarkTerms;
  size: number;
  /** [len * 128 + first char] = 1 when some ASCII term has that length and first character. */
  asciiKeys: Uint8Array;
  /** Some ASCII term is longer than MAX_KEYED_LEN - 1 (words that long are always looked up). */
  longAscii: boolean;
  /** [first char & FIRST_MASK] = 1 when some term starts with that char (a filter: collisions only cost a lookup). */
  firstKeys: Uint8Array;
  /** Entries set in the two bitmaps (cleared when the next query's terms take the bitmaps over). */
  setAscii: number[];
  setFirst: number[];
}

const FIRST_MASK = 0xfff;
/** Per BMP code unit: the first char of its folded form; -1 = not worked out yet, -2 = none (no filtering). */
const FIRST_FOLD = new Int32Array(0x10000).fill(-1);

function firstFolded(c: number): number {
  let f = FIRST_FOLD[c];
  if (f === -1) {
    const s = c >= 0xd800 && c <= 0xdfff ? "" : fold(String.fromCharCode(c));
    f = s.length > 0 ? s.charCodeAt(0) : -2;
    FIRST_FOLD[c] = f;
  }
  return f;
}

/**
 * One matcher at a time, for the terms being highlighted now: a page's hits are formatted in one synchronous run
 * with one query's terms, so the bitmaps are reused from query to query instead of allocated for each.
 */
const matcher: Matcher = {
  terms: new Map(),
  size: 0,
  asciiKeys: new Uint8Array(MAX_KEYED_LEN * 128),
  longAscii: false,
  firstKeys: new Uint8Array(FIRST_MASK + 1),
  setAscii: [],
  setFirst: [],
};

function matcherOf(terms: MarkTerms): Matcher {
  const m = matcher;
  if (m.terms === terms && m.size === terms.size) return m;
  for (const i of m.setAscii) m.asciiKeys[i] = 0;
  for (const i of m.setFirst) m.firstKeys[i] = 0;
  m.setAscii.length = 0;
  m.setFirst.length = 0;
  m.longAscii = false;
  for (const t of terms.keys()) {
    if (t.length === 0) continue;
    const f = t.charCodeAt(0) & FIRST_MASK;
    m.firstKeys[f] = 1;
    m.setFirst.push(f);
    if (!/^[\x00-\x7f]*$/.test(t)) continue;
    if (t.length >= MAX_KEYED_LEN) m.longAscii = true;
    else {
      const k = t.length * 128 + t.charCodeAt(0);
      m.asciiKeys[k] = 1;
      m.setAscii.push(k);
    }
  }
  m.terms = terms;
  m.size = terms.size;
  return m;
}

/**
 * The words of one text for render/crop: `runs` points at the text's word runs (the scratch, or a cached copy), with
 * each word's mark in the scratch `wMark` (module state: highlight and crop are synchronous).
 * mark[i] = characters to mark, -1 = whole word, -2 = no match.
 */
const scratch = newWordRuns(1024);
let runs: WordRuns = scratch;
let wMark = new Int32Array(1024);
const NO_MATCH = -2;
const WHOLE = -1;

/*
 * Word runs of the longer texts formatted lately. The same documents' fields are formatted query after query (a
 * page's summaries, titles), and finding their words was a fifth of a keyword search's time; the runs do not depend
 * on the query, only the marks do. Keyed by the text itself (a stored field's string is one object, its hash
 * computed once); bounded, ~1-2 KB a summary. Short texts are cheaper to scan than to look up.
 */
const CACHED_MIN_LENGTH = 64;
const runsCache = new LruCache<string, { n: number; runs: WordRuns }>(4096);

/** Points `runs` at the word runs of `text`; returns the word count. */
function findWords(text: string): number {
  if (text.length < CACHED_MIN_LENGTH) {
    runs = scratch;
    return scanWords(text, scratch);
  }
  let hit = runsCache.get(text);
  if (!hit) {
    const n = scanWords(text, scratch);
    hit = { n, runs: { start: scratch.start.slice(0, n), end: scratch.end.slice(0, n), ascii: scratch.ascii.slice(0, n) } };
    runsCache.set(text, hit);
  }
  runs = hit.runs;
  return hit.n;
}

/** Finds the words of `text` with each word's mark; returns the word count. */
function scanText(text: string, m: Matcher): number {
  const n = findWords(text);
  if (wMark.length < n) wMark = new Int32Array(Math.max(n, wMark.length * 2));
  const { start, end, ascii } = runs;
  const terms = m.terms;
  for (let i = 0; i < n; i++) {
    wMark[i] = NO_MATCH;
    if (terms.size === 0) continue;
    const s = start[i];
    if (ascii[i] === 1) {
      const len = end[i] - s;
      if (len < MAX_KEYED_LEN) {
        let c = text.charCodeAt(s);
        if (c >= 65 && c <= 90) c += 32;
        if (m.asciiKeys[len * 128 + c] === 0) continue;
      } else if (!m.longAscii) continue;
    } else {
      const f = firstFolded(text.charCodeAt(s));
      if (f >= 0 && m.firstKeys[f & FIRST_MASK] === 0) continue;
    }
    // Values are numbers or null, so undefined means "not a term".
    const k = terms.get(foldWord(text, s, end[i], ascii[i] === 1));
    if (k !== undefined) wMark[i] = k === null ? WHOLE : k;
  }
  return n;
}

/** Render text[from, to) with marks on the matched words (words[0, n) of `runs`). */
function render(text: string, n: number, from: number, to: number): string {
  let out = "";
  let pos = from;
  for (let i = 0; i < n; i++) {
    const k = wMark[i];
    if (k === NO_MATCH) continue;
    const start = runs.start[i];
    const end = runs.end[i];
    if (start < from || end > to) continue;
    const len = k === WHOLE ? end - start : Math.min(k, end - start);
    out += escapeHtml(text.slice(pos, start));
    out += HIGHLIGHT_PRE_TAG + escapeHtml(text.slice(start, start + len)) + HIGHLIGHT_POST_TAG;
    pos = start + len;
  }
  out += escapeHtml(text.slice(pos, to));
  return out;
}

export function highlight(text: string, terms: MarkTerms): string {
  if (terms.size === 0) return escapeHtml(text);
  const n = scanText(text, matcherOf(terms));
  return render(text, n, 0, text.length);
}

/** Whether word i of `runs` begins a sentence: the text's first word, or one after ".", "!" or "?". */
function startsSentence(text: string, i: number): boolean {
  if (i === 0) return true;
  for (let p = runs.end[i - 1]; p < runs.start[i]; p++) {
    const c = text.charCodeAt(p);
    if (c === 46 || c === 33 || c === 63) return true;
  }
  return false;
}

/**
 * The window start moved back or forward to the nearest sentence start that keeps `count` matches in the window (a
 * snippet that begins a sentence reads better than one cut mid-clause); the start unchanged when there is none.
 */
function sentenceStart(text: string, start: number, cropLength: number, n: number, count: number): number {
  if (startsSentence(text, start)) return start;
  const inWindow = (s: number) => {
    let c = 0;
    for (let i = s; i < s + cropLength; i++) if (wMark[i] !== NO_MATCH) c++;
    return c;
  };
  const reach = Math.floor(cropLength / 2);
  for (let d = 1; d <= reach; d++) {
    for (const s of [start - d, start + d]) {
      if (s < 0 || s + cropLength > n) continue;
      if (startsSentence(text, s) && inWindow(s) >= count) return s;
    }
  }
  return start;
}

/** Crop to `cropLength` words around the best window of matches (the start when nothing matches), then mark. */
export function crop(text: string, terms: MarkTerms, cropLength: number, mark: boolean): string {
  const n = scanText(text, matcherOf(terms));
  if (n <= cropLength) return mark ? render(text, n, 0, text.length) : escapeHtml(text);
  let bestStart = 0;
  let bestCount = -1;
  let count = 0;
  for (let i = 0; i < cropLength; i++) if (wMark[i] !== NO_MATCH) count++;
  let firstMatch = -1;
  for (let i = 0; i < n && firstMatch < 0; i++) if (wMark[i] !== NO_MATCH) firstMatch = i;
  // Prefer the window whose first match sits nearest its centre, among those with the most matches.
  if (firstMatch >= 0) {
    for (let start = 0; start + cropLength <= n; start++) {
      if (start > 0) {
        if (wMark[start - 1] !== NO_MATCH) count--;
        if (wMark[start + cropLength - 1] !== NO_MATCH) count++;
      }
      if (count > bestCount) {
        bestCount = count;
        bestStart = start;
      }
    }
    // Centre the window on its first match when that does not lose matches.
    let fm = -1;
    for (let i = bestStart; i < n && fm < 0; i++) if (wMark[i] !== NO_MATCH) fm = i;
    const centred = Math.max(0, Math.min(n - cropLength, fm - Math.floor((cropLength - 1) / 2)));
    let centredCount = 0;
    for (let i = centred; i < centred + cropLength; i++) if (wMark[i] !== NO_MATCH) centredCount++;
    if (centredCount >= bestCount) bestStart = centred;
    bestStart = sentenceStart(text, bestStart, cropLength, n, Math.max(bestCount, centredCount));
  }
  const from = runs.start[bestStart];
  const to = runs.end[bestStart + cropLength - 1];
  const body = mark ? render(text, n, from, to) : escapeHtml(text.slice(from, to));
  return (bestStart > 0 ? "…" : "") + body + (bestStart + cropLength < n ? "…" : "");
}
