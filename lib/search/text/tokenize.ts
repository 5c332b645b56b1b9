/**
 * Tokenisation shared by the keyword index, highlighting, chunking, suggestions and the lexical embedder, so a word
 * is the same word everywhere. Words are runs of letters/digits (Unicode): exactly the matches of
 * /[\p{L}\p{N}]+/gu (combining marks are not word characters). Matching folds case and diacritics like
 * Meilisearch's normaliser (Polish "zabójstwo" matches "zabojstwo"; "ł" → "l").
 */

const MARKS_RE = /\p{M}+/gu;

const ASCII_RE = /^[\x00-\x7f]*$/;

function foldSlow(s: string): string {
  return s.normalize("NFD").replace(MARKS_RE, "").toLowerCase().replace(/ł/g, "l").replace(/ß/g, "ss");
}

/**
 * Folding is the hot path of indexing (tens of millions of words): ASCII needs only lower-casing, and the folded form
 * of other words is memoised (the vocabulary is far smaller than the text). The memo is cleared when it grows large.
 */
const foldMemo = new Map<string, string>();

function foldNonAscii(s: string): string {
  let f = foldMemo.get(s);
  if (f === undefined) {
    f = foldSlow(s);
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

/** Where scanWord() found a word (a caller-owned struct, reused from word to word). */
export interface WordScan {
  start: number;
  end: number;
  /** Every character is ASCII (its folded form is just its lower case). */
  ascii: boolean;
}

/**
 * Finds the first word at or after `from` and writes it to `scan`; false when there is none. For hot loops that
 * want no object or string per word (highlighting skips most words without ever slicing them).
 */
export function scanWord(text: string, from: number, scan: WordScan): boolean {
  const len = text.length;
  let i = from;
  for (;;) {
    if (i >= len) return false;
    const c = text.charCodeAt(i);
    if (c < 0x80) {
      if (BMP_CLASS[c] === 1) break;
      i++;
    } else if (wordCharLen(text, i, len) > 0) break;
    else i++;
  }
  scan.start = i;
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
  scan.end = i;
  scan.ascii = ascii;
  return true;
}

/** Folded form of the word `scan` found in `text`. */
export function foldWord(text: string, scan: WordScan): string {
  const w = text.slice(scan.start, scan.end);
  return scan.ascii ? w.toLowerCase() : foldNonAscii(w);
}

/** Folded words of a text, in order. */
export function words(text: string): string[] {
  const out: string[] = [];
  const scan: WordScan = { start: 0, end: 0, ascii: true };
  for (let from = 0; scanWord(text, from, scan); from = scan.end) out.push(foldWord(text, scan));
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
  const scan: WordScan = { start: 0, end: 0, ascii: true };
  for (let from = 0; scanWord(text, from, scan); from = scan.end) {
    out.push({ term: foldWord(text, scan), start: scan.start, end: scan.end });
  }
  return out;
}
