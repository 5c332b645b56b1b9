/**
 * Tokenisation shared by the keyword index, highlighting, chunking, suggestions and the lexical embedder, so a word
 * is the same word everywhere. Words are runs of letters/digits (Unicode); matching folds case and diacritics like
 * Meilisearch's normaliser (Polish "zabójstwo" matches "zabojstwo"; "ł" → "l").
 */

const WORD_RE = /[\p{L}\p{N}]+/gu;
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

/** Case- and diacritic-folded form of a word (or any string). */
export function fold(s: string): string {
  if (ASCII_RE.test(s)) return s.toLowerCase();
  let f = foldMemo.get(s);
  if (f === undefined) {
    f = foldSlow(s);
    if (foldMemo.size > 200_000) foldMemo.clear();
    foldMemo.set(s, f);
  }
  return f;
}

/** Folded words of a text, in order. */
export function words(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(WORD_RE)) out.push(fold(m[0]));
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
  for (const m of text.matchAll(WORD_RE)) {
    const start = m.index ?? 0;
    out.push({ term: fold(m[0]), start, end: start + m[0].length });
  }
  return out;
}
