/**
 * `<mark>` highlighting and cropping for the in-process keyword path, matching Meilisearch's `_formatted`:
 * whole words for exact/typo matches, only the matched prefix for a prefix match ("<mark>robb</mark>ery"); crop to
 * N words around the densest run of matches with "…" where text was cut. Text is HTML-escaped first (&, <, >, ")
 * so the result is safe to render as HTML.
 *
 * A text's words come indexed (text-words.ts: offsets, sentence starts and where each folded word occurs, found once
 * per text), so a query finds its matches with a binary search per marked term instead of reading every word; the
 * crop window is chosen from the matches' positions and only the words inside it are rendered.
 */
import { HIGHLIGHT_POST_TAG, HIGHLIGHT_PRE_TAG } from "../index-settings";
import { escapeHtml } from "@/lib/text/html";
import { bloomBit, textWords, wordId, type TextWords } from "./text-words";

/*
 * Module-local copies of imported constants: the loops below read them per word, and an imported binding compiles to
 * a getter call under the CommonJS interop tsx and the bundler emit (it was most of a crop's time).
 */
const PRE = HIGHLIGHT_PRE_TAG;
const POST = HIGHLIGHT_POST_TAG;

/** Folded term → characters to mark (null = the whole word). */
export type MarkTerms = Map<string, number | null>;

/** A match's mark: characters to mark, or the whole word. */
const WHOLE = -1;

/**
 * The terms being highlighted now as folded ids with their marks: a page's hits are formatted in one synchronous run
 * with one query's terms, so they are looked up once per query, not per text. Rebuilt when the terms change (a new
 * map, or one whose size changed) or the vocabulary started a new epoch. A term no text holds yet gets its id too, so
 * a text indexed after the lookup still finds it.
 */
const matcher = {
  terms: new Map() as MarkTerms,
  size: 0,
  epoch: -1,
  ids: [] as number[],
  marks: [] as number[],
  /** Each term's Bloom field (0-2) and bit in it (text-words.ts bloomBit). */
  field: [] as number[],
  bit: [] as number[],
};

/** The matcher for `terms` in the vocabulary epoch `epoch` (the current one: that of a text just checked or indexed). */
function matcherFor(terms: MarkTerms, epoch: number): typeof matcher {
  const m = matcher;
  if (m.terms === terms && m.size === terms.size && m.epoch === epoch) return m;
  m.ids.length = 0;
  m.marks.length = 0;
  m.field.length = 0;
  m.bit.length = 0;
  for (const [t, k] of terms) {
    const id = wordId(t);
    const b = bloomBit(id);
    m.ids.push(id);
    m.marks.push(k === null ? WHOLE : k);
    m.field.push(b >> 5);
    m.bit.push(1 << (b & 31));
  }
  m.terms = terms;
  m.size = terms.size;
  m.epoch = epoch;
  return m;
}

/** Matched words of the text being formatted, in word order (module scratch: formatting is synchronous). */
let matchPos = new Int32Array(256);
let matchMark = new Int32Array(256);

function growMatches(need: number): void {
  if (need <= matchPos.length) return;
  const size = Math.max(need, matchPos.length * 2);
  const p = new Int32Array(size);
  p.set(matchPos);
  matchPos = p;
  const k = new Int32Array(size);
  k.set(matchMark);
  matchMark = k;
}

/** Index j of `id` among the text's distinct ids, or -1. */
function findId(tw: TextWords, id: number): number {
  const a = tw.a;
  let lo = 0;
  let hi = tw.u;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const v = a[tw.idsAt + mid];
    if (v === id) return mid;
    if (v < id) lo = mid + 1;
    else hi = mid;
  }
  return -1;
}

/** Finds the marked words of `tw` into matchPos/matchMark, in word order; returns their count. */
function findMatches(tw: TextWords, terms: MarkTerms): number {
  if (terms.size === 0 || tw.u === 0) return 0;
  const { ids, marks, field, bit } = matcherFor(terms, tw.epoch);
  const a = tw.a;
  let m = 0;
  for (let t = 0; t < ids.length; t++) {
    const f = field[t];
    if (((f === 0 ? tw.b0 : f === 1 ? tw.b1 : tw.b2) & bit[t]) === 0) continue;
    const j = findId(tw, ids[t]);
    if (j < 0) continue;
    const from = a[tw.offAt + j];
    const to = a[tw.offAt + j + 1];
    growMatches(m + to - from);
    const sorted = m;
    for (let p = from; p < to; p++) {
      matchPos[m] = a[tw.posAt + p];
      matchMark[m] = marks[t];
      m++;
    }
    // Merge into word order (each term's words are in order; terms are few).
    if (sorted > 0) {
      for (let x = sorted; x < m; x++) {
        const pos = matchPos[x];
        const mark = matchMark[x];
        let y = x - 1;
        while (y >= 0 && matchPos[y] > pos) {
          matchPos[y + 1] = matchPos[y];
          matchMark[y + 1] = matchMark[y];
          y--;
        }
        matchPos[y + 1] = pos;
        matchMark[y + 1] = mark;
      }
    }
  }
  return m;
}

function esc(tw: TextWords, s: string): string {
  return tw.plain ? s : escapeHtml(s);
}

/** Render text[from, to) with the marks of matches [j, m) that end by `to`. */
function render(tw: TextWords, m: number, j: number, from: number, to: number): string {
  const { text, a } = tw;
  let out = "";
  let pos = from;
  for (; j < m; j++) {
    const i = matchPos[j];
    const start = a[2 * i];
    const end = a[2 * i + 1];
    if (end > to) break;
    const k = matchMark[j];
    const len = k === WHOLE ? end - start : Math.min(k, end - start);
    out += esc(tw, text.slice(pos, start));
    out += PRE + esc(tw, text.slice(start, start + len)) + POST;
    pos = start + len;
  }
  return out + esc(tw, text.slice(pos, to));
}

export function highlight(text: string, terms: MarkTerms, words?: TextWords): string {
  if (terms.size === 0) return escapeHtml(text);
  const tw = words ?? textWords(text);
  const m = findMatches(tw, terms);
  if (m > 0) return render(tw, m, 0, 0, text.length);
  if (tw.plain) return text;
  return unmarked(tw, -1, () => escapeHtml(text));
}

/** tw's text formatted without marks (cropped to `cropLength` words, or whole at -1), made once and kept. */
function unmarked(tw: TextWords, cropLength: number, make: () => string): string {
  if (tw.unmarked === undefined || tw.unmarkedCropLength !== cropLength) {
    tw.unmarked = make();
    tw.unmarkedCropLength = cropLength;
  }
  return tw.unmarked;
}

/** Index of the first match at or after word `s` (matches [0, m) are in word order). */
function firstMatchFrom(s: number, m: number): number {
  let lo = 0;
  let hi = m;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (matchPos[mid] < s) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Matches among words [s, s + len). */
function matchesIn(s: number, len: number, m: number): number {
  return firstMatchFrom(s + len, m) - firstMatchFrom(s, m);
}

function beginsSentence(tw: TextWords, i: number): boolean {
  return ((tw.a[tw.sentAt + (i >> 5)] >>> (i & 31)) & 1) !== 0;
}

/**
 * The start of the `cropLength`-word window to show, given m ≥ 1 matches among n > cropLength words: the earliest
 * window with the most matches (the count only rises where a window's last word is a match, so those starts and 0
 * are the only candidates); centred on its first match when that keeps as many; then moved back or forward, nearer
 * first and earlier first at equal distance, to the nearest sentence start within half a window that keeps as many (a
 * snippet that begins a sentence reads better than one cut mid-clause), unchanged when there is none.
 */
function windowStart(tw: TextWords, m: number, cropLength: number): number {
  const n = tw.n;
  let bestStart = 0;
  let bestCount = matchesIn(0, cropLength, m);
  for (let j = 0; j < m; j++) {
    const s = matchPos[j] - cropLength + 1;
    if (s <= 0) continue;
    const c = matchesIn(s, cropLength, m);
    if (c > bestCount) {
      bestCount = c;
      bestStart = s;
    }
  }
  const fm = matchPos[firstMatchFrom(bestStart, m)];
  const centred = Math.max(0, Math.min(n - cropLength, fm - Math.floor((cropLength - 1) / 2)));
  const centredCount = matchesIn(centred, cropLength, m);
  if (centredCount >= bestCount) bestStart = centred;
  if (beginsSentence(tw, bestStart)) return bestStart;
  const keep = Math.max(bestCount, centredCount);
  const reach = Math.floor(cropLength / 2);
  for (let d = 1; d <= reach; d++) {
    for (let side = 0; side < 2; side++) {
      const s = side === 0 ? bestStart - d : bestStart + d;
      if (s < 0 || s + cropLength > n) continue;
      if (beginsSentence(tw, s) && matchesIn(s, cropLength, m) >= keep) return s;
    }
  }
  return bestStart;
}

/** Crop to `cropLength` words around the best window of matches (the start when nothing matches), then mark. */
export function crop(text: string, terms: MarkTerms, wanted: number, mark: boolean, words?: TextWords): string {
  // Callers ask for 10 to 40 words; a window of none would have no end word.
  const cropLength = Math.max(1, wanted);
  const tw = words ?? textWords(text);
  const n = tw.n;
  if (n <= cropLength) return mark ? highlight(text, terms, tw) : escapeHtml(text);
  const m = findMatches(tw, terms);
  // Without a match the window is the text's first cropLength words, the same for every query.
  if (m === 0) return unmarked(tw, cropLength, () => cropAt(tw, 0, cropLength, m, mark));
  return cropAt(tw, windowStart(tw, m, cropLength), cropLength, m, mark);
}

/** The window of `cropLength` words from word `first`, marked when `mark`. */
function cropAt(tw: TextWords, first: number, cropLength: number, m: number, mark: boolean): string {
  const last = first + cropLength;
  const a = tw.a;
  const from = a[2 * first];
  const to = a[2 * (last - 1) + 1];
  const body = mark ? render(tw, m, firstMatchFrom(first, m), from, to) : esc(tw, tw.text.slice(from, to));
  return (first > 0 ? "…" : "") + body + (last < tw.n ? "…" : "");
}
