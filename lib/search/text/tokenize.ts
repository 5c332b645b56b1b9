/**
 * Tokenisation shared by the keyword index, highlighting, chunking, suggestions and the lexical embedder, so a word
 * is the same word everywhere. Words are runs of letters/digits (Unicode); matching folds case and diacritics like
 * Meilisearch's normaliser (Polish "zabójstwo" matches "zabojstwo"; "ł" → "l").
 */

const WORD_RE = /[\p{L}\p{N}]+/gu;
const MARKS_RE = /\p{M}+/gu;

/** Case- and diacritic-folded form of a word (or any string). */
export function fold(s: string): string {
  return s.normalize("NFD").replace(MARKS_RE, "").toLowerCase().replace(/ł/g, "l").replace(/ß/g, "ss");
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
