/**
 * In-document find: which words of a query to look for, and where they occur in a text, compared folded (case and
 * diacritics ignored, lib/text/fold.ts) so "kradziez" finds "kradzież". A term matches at the start of a word and
 * the mark runs to the end of that word, so a term finds its inflected forms ("kradzież" → "kradzieży"). The DOM half
 * wraps the matches of a rendered judgment in <mark> elements and removes them again.
 */
import { foldDiacritics } from "@/lib/text/fold";

/**
 * The search's stop-words (lib/search/text/stopwords.ts, which browser code may not import; a unit test keeps the two
 * lists equal): never marked, as the search never matches on them.
 */
export const FIND_STOPWORDS: ReadonlySet<string> = new Set(
  (
    "a an and are as at be by for from has have he her his i in is it its of on or that the their this to was were " +
    "which with v vs r " +
    "w z na do od po o u za ze we ze sie nie jest sa to jak lub oraz albo przez przy dla ktory ktora ktore " +
    "jego jej ich tym tej ten ta te co czy bo ale tez"
  ).split(/\s+/),
);

const WORD_CHAR = /[\p{L}\p{N}]/u;
/** Query-syntax words that are not text: OR between terms, field prefixes (court:, year:2015..2019). */
const FIELD_RE = /^[a-z_]+:/i;

/**
 * The folded terms of a query: quoted phrases whole, other words one by one; exclusions (-word, -"phrase"), field
 * terms (court:…), OR, stop-words and one-letter tokens dropped (they would mark half the text).
 */
export function findTerms(query: string): string[] {
  const terms: string[] = [];
  const re = /(-?)"([^"]*)"|(\S+)/g;
  for (const m of query.matchAll(re)) {
    if (m[2] !== undefined) {
      if (m[1] === "-") continue;
      const phrase = foldDiacritics(m[2]).replace(/\s+/g, " ").trim();
      if (phrase.length >= 2) terms.push(phrase);
      continue;
    }
    const raw = m[3];
    if (raw.startsWith("-") || raw === "OR" || FIELD_RE.test(raw)) continue;
    const word = foldDiacritics(raw).replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "");
    if (word.length < 2 || FIND_STOPWORDS.has(word)) continue;
    terms.push(word);
  }
  // Longer terms first, so a phrase wins over a word it starts with; no duplicates.
  return [...new Set(terms)].sort((a, b) => b.length - a.length);
}

/** The text folded character by character, with each folded character's index in the original. */
function foldWithMap(text: string): { folded: string; at: number[] } {
  let folded = "";
  const at: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // A surrogate pair is one character: fold it whole.
    const ch = code >= 0xd800 && code <= 0xdbff && i + 1 < text.length ? text.slice(i, i + 2) : text[i];
    // A run of whitespace folds to one space, so a phrase matches across line breaks and double spaces.
    const space = /\s/.test(ch);
    if (space && folded.endsWith(" ")) continue;
    const f = space ? " " : foldDiacritics(ch);
    for (let k = 0; k < f.length; k++) at.push(i);
    folded += f;
    if (ch.length === 2) i++;
  }
  return { folded, at };
}

/** [start, end) ranges of the original text where a term starts a word, each run to the end of its word; in order, disjoint. */
export function findRanges(text: string, terms: readonly string[]): Array<[number, number]> {
  if (terms.length === 0 || !text) return [];
  const { folded, at } = foldWithMap(text);
  const ranges: Array<[number, number]> = [];
  for (const term of terms) {
    let from = 0;
    for (;;) {
      const i = folded.indexOf(term, from);
      if (i < 0) break;
      from = i + 1;
      if (i > 0 && WORD_CHAR.test(folded[i - 1])) continue;
      let end = i + term.length;
      while (end < folded.length && WORD_CHAR.test(folded[end])) end++;
      const start = at[i];
      const stop = end < at.length ? at[end] : text.length;
      if (ranges.some(([s, e]) => start < e && stop > s)) continue;
      ranges.push([start, stop]);
    }
  }
  return ranges.sort((a, b) => a[0] - b[0]);
}

export const MARK_ATTR = "data-find-mark";

/** Remove the marks `markMatches` added, leaving the text as it was. */
export function clearMarks(root: HTMLElement): void {
  for (const mark of Array.from(root.querySelectorAll(`mark[${MARK_ATTR}]`))) {
    const parent = mark.parentNode;
    if (!parent) continue;
    parent.replaceChild(document.createTextNode(mark.textContent ?? ""), mark);
    parent.normalize();
  }
}

/** Wrap every match of `terms` in the text under `root` in <mark data-find-mark>; the marks in document order. */
export function markMatches(root: HTMLElement, terms: readonly string[]): HTMLElement[] {
  clearMarks(root);
  if (terms.length === 0) return [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const nodes: Text[] = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) nodes.push(n as Text);
  const marks: HTMLElement[] = [];
  for (const node of nodes) {
    const text = node.data;
    const ranges = findRanges(text, terms);
    if (ranges.length === 0) continue;
    const frag = document.createDocumentFragment();
    let pos = 0;
    for (const [s, e] of ranges) {
      if (s > pos) frag.appendChild(document.createTextNode(text.slice(pos, s)));
      const mark = document.createElement("mark");
      mark.setAttribute(MARK_ATTR, "");
      mark.textContent = text.slice(s, e);
      frag.appendChild(mark);
      marks.push(mark);
      pos = e;
    }
    if (pos < text.length) frag.appendChild(document.createTextNode(text.slice(pos)));
    node.parentNode?.replaceChild(frag, node);
  }
  return marks;
}
