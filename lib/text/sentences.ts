/**
 * Sentence splitting for judgment text (Polish and UK), verbatim: every sentence is a slice of the input. A boundary
 * is terminal punctuation, closing quotes/brackets, whitespace, then a capital letter, a digit or an opening quote —
 * except after the abbreviations legal text uses mid-sentence ("art. 148", "ust. 2", "s. 18", "R v. Smith",
 * "No. 3", "para. 12", "tj.", "m.in.", "wz. 1921") and after a single capital initial ("J. Smith"), where the text
 * goes on. Abbreviations that often end a sentence ("k.k.", "r.", "etc.") are boundaries when a capital follows.
 */
/** Lower case without diacritics (ł → l), for comparing abbreviations. */
const fold = (s: string) => s.normalize("NFD").replace(/\p{M}/gu, "").replace(/ł/g, "l").replace(/Ł/g, "L").toLowerCase();

export interface SentenceSpan {
  text: string;
  /** Offsets of `text` in the input. */
  start: number;
  end: number;
}

/**
 * Abbreviations after which a sentence never ends (folded, without the final dot). Kept to forms that are followed by
 * more of the same sentence: a number, a name, a clause.
 */
const NON_TERMINAL = new Set(
  [
    // Polish statutes, citations and prose
    "art", "arts", "ust", "pkt", "par", "lit", "poz", "nr", "sygn", "zw", "tj", "tzw", "tzn", "np", "m.in", "ww", "wz",
    "ul", "al", "pl", "os", "godz", "ok", "zob", "por", "dz", "dz.u", "str", "rozdz", "t", "s", "ss", "sw", "prof",
    "dr", "hab", "mgr", "inz", "adw", "zm",
    // English statutes, citations and prose
    "v", "vs", "no", "nos", "para", "paras", "sch", "reg", "regs", "ch", "cl", "sec", "cf", "e.g", "i.e", "viz", "mr",
    "mrs", "ms", "st", "cr", "app", "crim", "p", "pp", "vol", "approx", "fig", "ibid",
  ],
);

/** The word (letters and inner dots) that ends at `end` (the index of the dot), folded. */
function wordBefore(text: string, dot: number): string {
  let i = dot;
  while (i > 0 && /[\p{L}.]/u.test(text[i - 1])) i--;
  return fold(text.slice(i, dot)).replace(/^\.+/, "");
}

/** Offsets where sentences end (exclusive), boundaries only. */
function boundaries(text: string): Array<{ end: number; next: number }> {
  const out: Array<{ end: number; next: number }> = [];
  const re = /[.!?…]+["'”’»)\]]*(\s+)(?=["'“„«(]?[\p{Lu}\p{N}])/gu;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const punct = m[0].slice(0, m[0].length - m[1].length);
    const end = m.index + punct.length;
    const next = end + m[1].length;
    if (punct.startsWith(".") && punct.replace(/["'”’»)\]]+$/, "") === ".") {
      const w = wordBefore(text, m.index);
      const raw = text.slice(m.index - w.length, m.index);
      if (NON_TERMINAL.has(w)) continue;
      // A single capital initial ("J. Smith", "Michał N. Kowalski") goes on; a lone number is a list/paragraph marker.
      if (w.length === 1 && /\p{Lu}/u.test(raw) && /^\p{Lu}/u.test(text.slice(next))) continue;
    }
    out.push({ end, next });
  }
  return out;
}

/** All sentences of `text`, verbatim, with their offsets (whitespace between sentences is dropped). */
export function sentenceSpans(text: string): SentenceSpan[] {
  const out: SentenceSpan[] = [];
  let start = 0;
  const push = (from: number, to: number) => {
    let a = from;
    let b = to;
    while (a < b && /\s/.test(text[a])) a++;
    while (b > a && /\s/.test(text[b - 1])) b--;
    if (b > a) out.push({ text: text.slice(a, b), start: a, end: b });
  };
  for (const b of boundaries(text)) {
    push(start, b.end);
    start = b.next;
  }
  push(start, text.length);
  return out;
}

/** A paragraph number standing alone ("12.", "[12]") or closing a heading ("The facts 2."): not a sentence. */
const PARAGRAPH_MARK = /^(?:[\p{L}' ]{0,40}\s)?\[?(\d{1,3})[.\]]$/u;

/** The paragraph number a piece marks, if it is only a marker. */
export function paragraphMark(piece: string): number | null {
  const m = PARAGRAPH_MARK.exec(piece.trim());
  if (!m) return null;
  // "He was aged 21." is a short sentence, not a heading: a heading has at most four words and no verb of being.
  const heading = piece.trim().replace(/\[?\d{1,3}[.\]]$/, "").trim();
  if (heading && (heading.split(/\s+/).length > 4 || HEADING_VERBS.test(heading))) return null;
  return Number(m[1]);
}
const HEADING_VERBS = /\b(?:is|was|were|are|be|been|has|had|have|aged|jest|był|była|było|byli|ma|miał|miała|lat|years?)\b/iu;

/** Whether a piece reads as a whole sentence: it starts like one and ends with terminal punctuation. */
export function looksWhole(s: string): boolean {
  if (!/^["'“„«(]?[\p{Lu}\p{N}]/u.test(s) || !/[.!?…]["'”’»)\]]*$/u.test(s)) return false;
  // Ending on "art." or "No." means the text went on past the cut.
  const last = /([\p{L}.]+)\.["'”’»)\]]*$/u.exec(s);
  return !(last && NON_TERMINAL.has(fold(last[1]).replace(/^\.+/, "")));
}
