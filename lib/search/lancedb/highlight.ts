/**
 * `<mark>` highlighting and cropping for the in-process keyword path, matching Meilisearch's `_formatted`:
 * whole words for exact/typo matches, only the matched prefix for a prefix match ("<mark>robb</mark>ery"); crop to
 * N words around the densest run of matches with "…" where text was cut. Text is HTML-escaped first (&, <, >, ")
 * so the result is safe to render as HTML.
 */
import { HIGHLIGHT_POST_TAG, HIGHLIGHT_PRE_TAG } from "../index-settings";
import { spans, type Span } from "../text/tokenize";

/** Folded term → characters to mark (null = the whole word). */
export type MarkTerms = Map<string, number | null>;

export function escapeHtml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

function markOf(span: Span, terms: MarkTerms): number | null | undefined {
  if (!terms.has(span.term)) return undefined;
  return terms.get(span.term);
}

/** Render text[from, to) with marks on the matched words. */
function render(text: string, ss: Span[], terms: MarkTerms, from: number, to: number): string {
  let out = "";
  let pos = from;
  for (const s of ss) {
    if (s.start < from || s.end > to) continue;
    const m = markOf(s, terms);
    if (m === undefined) continue;
    const len = m === null ? s.end - s.start : Math.min(m, s.end - s.start);
    out += escapeHtml(text.slice(pos, s.start));
    out += HIGHLIGHT_PRE_TAG + escapeHtml(text.slice(s.start, s.start + len)) + HIGHLIGHT_POST_TAG;
    pos = s.start + len;
  }
  out += escapeHtml(text.slice(pos, to));
  return out;
}

export function highlight(text: string, terms: MarkTerms): string {
  return render(text, spans(text), terms, 0, text.length);
}

/** Crop to `cropLength` words around the best window of matches (the start when nothing matches), then mark. */
export function crop(text: string, terms: MarkTerms, cropLength: number, mark: boolean): string {
  const ss = spans(text);
  if (ss.length <= cropLength) return mark ? render(text, ss, terms, 0, text.length) : escapeHtml(text);
  let bestStart = 0;
  let bestCount = -1;
  const isMatch = ss.map((s) => terms.has(s.term));
  let count = 0;
  for (let i = 0; i < cropLength; i++) if (isMatch[i]) count++;
  // Prefer the window whose first match sits nearest its centre, among those with the most matches.
  const firstMatch = isMatch.indexOf(true);
  if (firstMatch >= 0) {
    for (let start = 0; start + cropLength <= ss.length; start++) {
      if (start > 0) {
        if (isMatch[start - 1]) count--;
        if (isMatch[start + cropLength - 1]) count++;
      }
      if (count > bestCount) {
        bestCount = count;
        bestStart = start;
      }
    }
    // Centre the window on its first match when that does not lose matches.
    const fm = isMatch.indexOf(true, bestStart);
    const centred = Math.max(0, Math.min(ss.length - cropLength, fm - Math.floor((cropLength - 1) / 2)));
    let centredCount = 0;
    for (let i = centred; i < centred + cropLength; i++) if (isMatch[i]) centredCount++;
    if (centredCount >= bestCount) bestStart = centred;
  }
  const first = ss[bestStart];
  const last = ss[bestStart + cropLength - 1];
  const from = first.start;
  const to = last.end;
  const body = mark ? render(text, ss, terms, from, to) : escapeHtml(text.slice(from, to));
  return (bestStart > 0 ? "…" : "") + body + (bestStart + cropLength < ss.length ? "…" : "");
}
