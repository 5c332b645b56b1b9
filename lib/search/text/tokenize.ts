/**
 * Tokenisation shared by the keyword index, highlighting, chunking, suggestions and the lexical embedder, so a word
 * is the same word everywhere. Words are runs of letters/digits (Unicode): exactly the matches of
 * /[\p{L}\p{N}]+/gu (combining marks are not word characters). Matching folds case and diacritics like
 * Meilisearch's normaliser (Polish "zabójstwo" matches "zabojstwo"; "ł" → "l").
 */

import { foldDiacritics } from "@/lib/text/fold";

const ASCII_RE = /^[\x00-\x7f]*$/;

/**
 * Folding is the hot path of indexing (tens of millions of words): ASCII needs only lower-casing, and the folded form
 * of other words is memoised (the vocabulary is far smaller than the text). The memo is cleared when it grows large.
 */
const foldMemo = new Map<string, string>();

function foldNonAscii(s: string): string {
  let f = foldMemo.get(s);
  if (f === undefined) {
    f = foldDiacritics(s);
    if (foldMemo.size > 200_000) foldMemo.clear();
    foldMemo.set(s, f);
  }
  return f;
}

/** Case- and diacritic-folded form of a word (or any string). */
export function fold(s: string): string {
  if (ASCII_RE.test(s)) return s.toLowerCase();
  return foldNonAscii(s);
}

/*
 * The scanner: a hand-written equivalent of /[\p{L}\p{N}]+/gu over char codes (the regex was a third of the
 * highlighting time). ASCII is a fixed table; other BMP code units are classified once with the same Unicode
 * property regex and remembered; a surrogate pair is one code point (classified through a small map), and a lone
 * surrogate is never a word character, as in the regex's unicode mode.
 */
const WORD_CHAR_RE = /^[\p{L}\p{N}]$/u;
/** Per BMP code unit: 0 = not classified yet, 1 = word character, 2 = not. */
const BMP_CLASS = new Uint8Array(0x10000);
for (let c = 0; c < 0x80; c++) BMP_CLASS[c] = WORD_CHAR_RE.test(String.fromCharCode(c)) ? 1 : 2;
BMP_CLASS.fill(2, 0xd800, 0xe000);
const astralClass = new Map<number, boolean>();

function bmpIsWord(c: number): boolean {
  let k = BMP_CLASS[c];
  if (k === 0) {
    k = WORD_CHAR_RE.test(String.fromCharCode(c)) ? 1 : 2;
    BMP_CLASS[c] = k;
  }
  return k === 1;
}

function astralIsWord(cp: number): boolean {
  let w = astralClass.get(cp);
  if (w === undefined) {
    w = WORD_CHAR_RE.test(String.fromCodePoint(cp));
    astralClass.set(cp, w);
  }
  return w;
}

/**
 * Code units taken by the word character at `i` (1, or 2 for a surrogate pair), or 0 when text[i] is not one.
 * Skipping a non-word character one unit at a time is safe: the low half of a pair is never a word character alone.
 */
function wordCharLen(text: string, i: number, len: number): number {
  const c = text.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < len) {
    const d = text.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return astralIsWord(((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000) ? 2 : 0;
  }
  return bmpIsWord(c) ? 1 : 0;
}

// Where the last nextWord() call found its word (module scratch: scans are synchronous, no caller can interleave).
let wordStart = 0;
let wordAscii = true;

/** End of the first word at or after `from` (its start in wordStart, whether it is all ASCII in wordAscii), or -1. */
function nextWord(text: string, from: number): number {
  const len = text.length;
  let i = from;
  for (;;) {
    if (i >= len) return -1;
    const c = text.charCodeAt(i);
    if (c < 0x80) {
      if (BMP_CLASS[c] === 1) break;
      i++;
    } else if (wordCharLen(text, i, len) > 0) break;
    else i++;
  }
  wordStart = i;
  let ascii = true;
  while (i < len) {
    const c = text.charCodeAt(i);
    if (c < 0x80) {
      if (BMP_CLASS[c] !== 1) break;
      i++;
    } else {
      const n = wordCharLen(text, i, len);
      if (n === 0) break;
      ascii = false;
      i += n;
    }
  }
  wordAscii = ascii;
  return i;
}

/** Folded form of the word text[start, end); `ascii` when all its characters are (then it is just lower-cased). */
export function foldWord(text: string, start: number, end: number, ascii: boolean): string {
  const w = text.slice(start, end);
  return ascii ? w.toLowerCase() : foldNonAscii(w);
}

/** Word boundaries of a text in reusable arrays: word i is [start[i], end[i]), all ASCII when ascii[i] is 1. */
export interface WordRuns {
  start: Int32Array;
  end: Int32Array;
  ascii: Uint8Array;
}

export function newWordRuns(capacity = 256): WordRuns {
  return { start: new Int32Array(capacity), end: new Int32Array(capacity), ascii: new Uint8Array(capacity) };
}

/**
 * Every word of `text` into `runs` (grown as needed), without a string or object per word; returns the count. For
 * hot loops such as highlighting, which folds only the few words that can match.
 */
export function scanWords(text: string, runs: WordRuns): number {
  let n = 0;
  for (let end = nextWord(text, 0); end >= 0; end = nextWord(text, end)) {
    if (n === runs.start.length) {
      const grown = newWordRuns(n * 2);
      grown.start.set(runs.start);
      grown.end.set(runs.end);
      grown.ascii.set(runs.ascii);
      runs.start = grown.start;
      runs.end = grown.end;
      runs.ascii = grown.ascii;
    }
    runs.start[n] = wordStart;
    runs.end[n] = end;
    runs.ascii[n] = wordAscii ? 1 : 0;
    n++;
  }
  return n;
}

/** Folded words of a text, in order. */
export function words(text: string): string[] {
  const out: string[] = [];
  for (let end = nextWord(text, 0); end >= 0; end = nextWord(text, end)) {
    out.push(foldWord(text, wordStart, end, wordAscii));
  }
  return out;
}

export interface Span {
  /** Folded word. */
  term: string;
  /** UTF-16 offsets of the original word in the text. */
  start: number;
  end: number;
}

/** Words with their offsets in the original text (for highlighting and cropping). */
export function spans(text: string): Span[] {
  const out: Span[] = [];
  for (let end = nextWord(text, 0); end >= 0; end = nextWord(text, end)) {
    const start = wordStart;
    out.push({ term: foldWord(text, start, end, wordAscii), start, end });
  }
  return out;
}
