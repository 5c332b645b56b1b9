/**
 * Links the references of a judgment in its rendered HTML: each reference's text, found in the text between tags, is
 * wrapped in an <a> to the cited judgment or the provision page. Plain string work like withToc, so the server render
 * and the browser produce the same markup; the spans the extractor stored are offsets into full_text, not into this
 * HTML (an importer's own markup differs), so the texts are looked up in order instead: each after the previous one.
 */
import { escapeHtml } from "@/lib/text/html";
import { decodeEntities } from "./judgment";

export interface ReferenceLink {
  text: string;
  href: string;
  kind: "case" | "legislation";
}

/** Whitespace in a reference's text matches any run of whitespace (the HTML may wrap lines differently). */
function pattern(text: string): RegExp | null {
  const t = text.trim();
  if (t.length < 2) return null;
  return new RegExp(t.split(/\s+/).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("\\s+"), "g");
}

/** A text segment of the HTML: its decoded text and, per decoded character, its offset in the raw segment. */
function decode(raw: string): { text: string; at: number[] } {
  let text = "";
  const at: number[] = [];
  const re = /&(#x[0-9a-f]+|#\d+|[a-z]+);/gi;
  let pos = 0;
  for (let m = re.exec(raw); ; m = re.exec(raw)) {
    const stop = m ? m.index : raw.length;
    for (let i = pos; i < stop; i++) {
      text += raw[i];
      at.push(i);
    }
    if (!m) break;
    const ch = decodeEntities(m[0]);
    for (let k = 0; k < ch.length; k++) at.push(m.index);
    text += ch;
    pos = m.index + m[0].length;
  }
  at.push(raw.length);
  return { text, at };
}

/**
 * `html` with each reference linked, in the order given (the references' order in the text). A reference not found
 * in one text node after the previous one (split by markup, or absent) stays plain; text already inside a link is
 * left alone.
 */
export function linkReferences(html: string, refs: readonly ReferenceLink[]): string {
  if (refs.length === 0 || !html) return html;
  const parts = html.split(/(<[^>]*>)/);
  // Per text part: the [start, end) raw ranges to wrap and their link.
  const wraps = new Map<number, { s: number; e: number; ref: ReferenceLink }[]>();
  let part = 0;
  let from = 0;
  let inLink = 0;
  const decoded = new Map<number, ReturnType<typeof decode>>();
  const textOf = (i: number) => {
    let d = decoded.get(i);
    if (!d) decoded.set(i, (d = decode(parts[i])));
    return d;
  };
  // Link depth before each part, so text already in an <a> is skipped.
  const depth: number[] = [];
  for (let i = 0; i < parts.length; i++) {
    depth.push(inLink);
    if (i % 2 === 1) {
      if (/^<a[\s>]/i.test(parts[i])) inLink++;
      else if (/^<\/a\s*>/i.test(parts[i])) inLink = Math.max(0, inLink - 1);
    }
  }
  for (const ref of refs) {
    const re = pattern(ref.text);
    if (!re) continue;
    for (let i = part; i < parts.length; i++) {
      if (i % 2 === 1 || depth[i] > 0 || !parts[i]) continue;
      const { text, at } = textOf(i);
      re.lastIndex = i === part ? from : 0;
      const m = re.exec(text);
      if (!m) continue;
      const list = wraps.get(i) ?? [];
      list.push({ s: at[m.index], e: at[m.index + m[0].length], ref });
      wraps.set(i, list);
      part = i;
      from = m.index + m[0].length;
      break;
    }
  }
  for (const [i, list] of wraps) {
    const raw = parts[i];
    let out = "";
    let pos = 0;
    for (const { s, e, ref } of list) {
      out += raw.slice(pos, s) + `<a href="${escapeHtml(ref.href)}" class="ref-link" data-ref="${ref.kind}">` + raw.slice(s, e) + "</a>";
      pos = e;
    }
    parts[i] = out + raw.slice(pos);
  }
  return parts.join("");
}
