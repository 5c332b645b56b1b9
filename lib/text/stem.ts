/**
 * A light stemmer for folded (lower-case, diacritic-free) Polish and English words: it strips one inflectional ending
 * so the forms of a word meet ("szabla", "szabli", "szablą" → "szabl"; "sentenced", "sentences" → "sentenc"). Not a
 * linguistic stemmer: it only has to make a question's word and the judgment's word agree, and a stem keeps at least
 * four letters so short words stay whole.
 */

/** Endings, longest first within each length, of folded Polish and English inflection. */
const ENDINGS = [
  // Polish (folded: ą→a, ę→e, ó→o, ł→l, ż/ź→z …)
  "owiach", "owie", "ami", "ach", "ego", "emu", "ych", "ymi", "imi", "ich", "iej", "owi", "om", "ow", "ej", "em", "ie",
  "ym", "im", "a", "e", "i", "o", "u", "y",
  // English
  "ing", "ies", "ied", "es", "ed", "ly", "s",
].sort((a, b) => b.length - a.length);

const MIN_STEM = 4;

export function stem(word: string): string {
  if (word.length <= MIN_STEM || /\d/.test(word)) return word;
  for (const e of ENDINGS) {
    if (word.endsWith(e) && word.length - e.length >= MIN_STEM) return word.slice(0, word.length - e.length);
  }
  return word;
}
