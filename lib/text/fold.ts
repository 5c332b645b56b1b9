/**
 * The one diacritic folder, shared by search matching (lib/search/text/tokenize.ts) and the browser (export file
 * names). Polish "ł" has no decomposition, so it is mapped by hand.
 */

const MARKS_RE = /\p{M}+/gu;

const withoutMarks = (s: string): string => s.normalize("NFD").replace(MARKS_RE, "");

/** Letters without their diacritics, letter case kept: "Rozbój Łódź" → "Rozboj Lodz". */
export function stripDiacritics(s: string): string {
  return withoutMarks(s).replace(/ł/g, "l").replace(/Ł/g, "L");
}

/**
 * Case- and diacritic-folded, the form matching compares, like Meilisearch's normaliser: "Zabójstwo" → "zabojstwo",
 * "Ł" → "l", "ß" → "ss".
 */
export function foldDiacritics(s: string): string {
  // Lower-cased before the "ł" mapping, so "Ł" needs no pass of its own (this is the indexing hot path).
  return withoutMarks(s).toLowerCase().replace(/ł/g, "l").replace(/ß/g, "ss");
}
