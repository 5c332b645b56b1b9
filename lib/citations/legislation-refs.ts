/**
 * Legislation references in judgment text, PL and UK, each with its exact span and canonical provision id
 * (lib/citations/canonical.ts). Deterministic: a small scanner over the text, no model.
 *
 * PL: a chain of provisions after "art." ("art. 278 § 1 i 279 § 1 k.k.", "art. 438 pkt 2 i 4 k.p.k.", "art. 148 § 1
 * w zw. z art. 13 § 1 kk", ranges "art. 278-280") closed by the act that applies to the whole chain: an abbreviation
 * (k.k., kpk), a code's name ("kodeksu karnego"), a statute's title ("ustawy z dnia … o …"), a back-reference ("w/w
 * ustawy": the statute named last) or a Dz. U. address. A chain without an act takes the act of the reference just
 * before it (judgments write "art. 178a § 1 kk … określony w art. 178a § 4"); an act the scanner cannot identify
 * ("ustawy antymonopolowej") gives a reference without a canonical id rather than a guess.
 *
 * UK: sections and subsections ("section 18 of the Offences Against the Person Act 1861", "s.9(1)(a) Theft Act 1968",
 * "Sentencing Act 2020, s.231", "ss. 18 and 20 OAPA 1861", "section 6 of the HRA" after `(“HRA”)` defined it), the
 * acts named on their own, and Sentencing Council guidelines by name.
 */
import {
  plActByAbbreviation,
  plActByAddress,
  plActById,
  plActByName,
  plAddressId,
  plTitleId,
  PL_ACTS,
  ukActByAbbreviation,
  ukActId,
  type PlAct,
} from "./acts";
import { PL_LEVEL_RANK, plProvisionId, ukProvisionId, type PlLevel } from "./canonical";
import type { Reference } from "./types";

/** How far back (characters) a chain without its own act looks for the act of the reference before it. */
const INHERIT_WINDOW = 1500;
/** Longest range expanded into its articles ("art. 278-280"); longer ones keep their ends only. */
const MAX_RANGE = 30;

const NB = "(?![\\p{L}\\p{N}])";
const WS = /[\s\u00a0\u00ad]*/y;

interface Cursor {
  text: string;
  i: number;
}

function skipWs(c: Cursor): void {
  WS.lastIndex = c.i;
  WS.exec(c.text);
  c.i = WS.lastIndex;
}

/** Matches `re` (sticky) at the cursor after optional whitespace; advances on success. */
function take(c: Cursor, re: RegExp): RegExpExecArray | null {
  const save = c.i;
  skipWs(c);
  re.lastIndex = c.i;
  const m = re.exec(c.text);
  if (!m) {
    c.i = save;
    return null;
  }
  c.i = re.lastIndex;
  return m;
}

function peek(c: Cursor, re: RegExp): boolean {
  const save = c.i;
  const ok = take(c, re) !== null;
  c.i = save;
  return ok;
}

// ---------------------------------------------------------------------------------------------------------------- PL

// Found without look-behind (a Unicode look-behind at every position costs more than the rest of the scan); the
// character before is checked in code. "art." may follow a word without a space: texts extracted from markup glue it
// on ("na zasadzieart. 98 k.p.c.").
const PL_ART = /art(?:ykuł(?:u|em|owi|y|ów|ach|ami)|t?s?)?\.?(?=[\s\u00a0]*\d)/giu;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const LOWER = /\p{Ll}/u;

/** The start of a real "art." (not inside a word, or glued after a lower-case word as "art." exactly). */
function artStarts(text: string, m: RegExpExecArray): boolean {
  const prev = m.index > 0 ? text[m.index - 1] : "";
  if (!prev || !LETTER_OR_DIGIT.test(prev)) return true;
  return m[0] === "art." && LOWER.test(prev);
}
/** An article or unit number: 279, 178a, "178 a" (only before §), 479(31), 479^31. */
// The fifth group: a superscript flattened and split by a conversion, its last digits glued to the "§" after it
// ("art. 4793 1§ 1 k.p.c." is art. 479³¹ § 1): the digits join ("47931") and `unflatten` reads the code's superscript.
const PL_NUM = /(\d{1,4})(?:([a-z])(?![\p{L}]|\.[\s\u00a0]?\p{L})|[\s\u00a0]([a-h])(?=[\s\u00a0]*(?:§|ust\.|pkt|[;,)]|$))|(?:\^|\([\s\u00a0]*)(\d{1,3})[\s\u00a0]*\)?|[\s\u00a0](\d{1,2})(?=§))?(?![\p{N}])/uy;
const PL_MARK = /(§§?|ust\.?|ustęp(?:u|ie)?|pkt\.?|punkt(?:u|ie)?|lit\.?|litera?)(?=[\s\u00a0]*[\da-z])/iuy;
const PL_SENTENCE = /(?:zd(?:\.|anie)|zdaniu)[\s\u00a0]*(?:\d+|pierwsz\p{L}*|drugi\p{L}*|trzeci\p{L}*)|in fine|ab initio/iuy;
const PL_CONN = /(,|i|oraz|lub|albo|a także|-|–|—|w zw\.? z|w związku z|wzw\. z|w zw\. z|;)(?![\p{L}])/iuy;
const PL_ART_AHEAD = /art(?:ykuł\p{L}*|t?s?)?\.?(?=[\s\u00a0]*\d)/iuy;
const PL_LETTER = /([a-z])(?:\))?(?![\p{L}])/uy;

function markLevel(raw: string): PlLevel {
  const m = raw.toLowerCase();
  if (m.startsWith("§")) return "§";
  if (m.startsWith("us")) return "ust";
  if (m.startsWith("p")) return "pkt";
  return "lit";
}

function numText(m: RegExpExecArray): string {
  if (m[4]) return `${m[1]}^${m[4]}`;
  if (m[5]) return m[1] + m[5];
  return m[1] + (m[2] ?? m[3] ?? "");
}

/** Abbreviations of the table, longest first, dots and spaces optional: `k\.?\s?p\.?\s?k\.?`. */
const PL_ABBR = new RegExp(
  `(${[...new Set(PL_ACTS.flatMap((a) => a.abbreviations))]
    .sort((a, b) => b.length - a.length)
    .map((ab) => ab.split("").join("\\.?") + "\\.?")
    .join("|")})${NB}`,
  "iuy",
);
const PL_CODE_NAME = /((?:kodeks\p{L}*|konstytucj\p{L}*)(?:[\s\u00a0]+(?:rp|rzeczypospolitej polskiej|[\p{Ll}]+)){0,5})/iuy;
const PL_USTAWA = /(ustaw(?:a|y|ie|ą|ę))(?![\p{L}])/iuy;
const PL_BACKREF = /(?:w\/w|ww\.?|wyżej wymienionej|tej|tejże|powołanej|cyt\.?|cytowanej|przywołanej|tej samej)[\s\u00a0]+ustaw(?:y|ie|ą)(?![\p{L}])/iuy;
const PL_DU = /\(?(?:tekst jednolity:?|t\.\s?j\.:?)?[\s\u00a0]*Dz\.[\s\u00a0]?U\.[\s\u00a0]*(?:z[\s\u00a0]*)?(\d{4})?[\s\u00a0]*(?:r\.|roku)?[\s\u00a0,]*(?:Nr|nr)?[\s\u00a0]*(\d{1,3})?[\s\u00a0,]*poz\.[\s\u00a0]*(\d{1,4})/uy;
/** The title of a statute after "ustawy": "z dnia 24 lutego 1990 r. o …" or "– Prawo o ruchu drogowym". */
const PL_TITLE = new RegExp(
  "(?:z(?:[\\s\\u00a0]+dnia)?[\\s\\u00a0]+\\d{1,2}(?:[\\s\\u00a0]+\\p{L}+|\\.\\d{1,2}\\.)[\\s\\u00a0]*\\d{4}[\\s\\u00a0]*(?:r\\.|roku)?[\\s\\u00a0]*)?" +
    "((?:o|[-–—][\\s\\u00a0]*\\p{Lu}\\p{Ll}*)(?:[\\s\\u00a0]+(?!art\\.|w[\\s\\u00a0]+zw|oraz|tekst|i[\\s\\u00a0]+art)[\\p{L}]+){1,10})",
  "uy",
);

interface ActHit {
  id: string | null;
  name: string | null;
  end: number;
  /** A statute named by its title: what "w/w ustawy" refers back to. */
  statute: boolean;
}

interface PlState {
  lastAct: { id: string; name: string | null; pos: number } | null;
  lastStatute: { id: string; name: string | null } | null;
}

function fromTable(a: PlAct): { id: string; name: string } {
  return { id: a.id, name: a.name };
}

/** The act written at the cursor, if any (advances past it). */
function plActAt(c: Cursor, st: PlState): ActHit | null {
  const save = c.i;
  let m = take(c, PL_BACKREF);
  if (m) return st.lastStatute ? { ...st.lastStatute, end: c.i, statute: true } : { id: null, name: null, end: c.i, statute: false };
  m = take(c, PL_ABBR);
  if (m) {
    const a = plActByAbbreviation(m[1]);
    if (a) return { ...fromTable(a), end: c.i, statute: false };
  }
  c.i = save;
  m = take(c, PL_CODE_NAME);
  if (m) {
    const a = plActByName(m[1]);
    if (a) {
      // Consume only the words of the name itself.
      return { ...fromTable(a), end: m.index + nameLength(m[1], a), statute: false };
    }
    c.i = save;
  }
  m = take(c, PL_USTAWA);
  if (m) {
    const t = take(c, PL_TITLE);
    if (t) {
      const title = t[1].replace(/[\s\u00a0]+/g, " ").trim();
      const a = plActByName(title);
      const hit = a ? { ...fromTable(a), end: c.i, statute: true } : { id: plTitleId(title), name: title, end: c.i, statute: true };
      // The address after a title is often a consolidated text's: the title decides, the address is skipped.
      const titleEnd = c.i;
      take(c, PL_DU);
      hit.end = titleEnd;
      return hit;
    }
    const du = take(c, PL_DU);
    if (du) return { ...duHit(du), end: c.i, statute: true };
    // "art. 8 ust. 1 ustawy)" — the statute named before; "ustawy antymonopolowej" — not identified.
    if (peek(c, /[)\].,;:]|$/uy) && st.lastStatute) return { ...st.lastStatute, end: c.i, statute: true };
    return { id: null, name: null, end: c.i, statute: false };
  }
  m = take(c, PL_DU);
  if (m) return { ...duHit(m), end: c.i, statute: true };
  c.i = save;
  return null;
}

function duHit(m: RegExpExecArray): { id: string | null; name: string | null } {
  if (!m[1]) return { id: null, name: null };
  const year = Number(m[1]);
  const nr = m[2] ? Number(m[2]) : null;
  const poz = Number(m[3]);
  const a = plActByAddress(year, nr, poz);
  return a ? fromTable(a) : { id: plAddressId(year, nr, poz), name: null };
}

function nameLength(written: string, a: PlAct): number {
  // The written name runs as many words as the act's canonical name ("kodeksu karnego" = 2, not "kodeksu karnego oraz").
  const words = written.split(/[\s\u00a0]+/);
  const n = a.name.split(" ").length;
  const keep = a.id === "konst" ? (words[1] && /^(rp|rzeczypospolitej)$/i.test(words[1]) ? (words[2] ? 3 : 2) : 1) : n;
  const kept = words.slice(0, keep).join(" ");
  return written.indexOf(kept) + kept.length;
}

interface Provision {
  article: string;
  levels: Array<[PlLevel, string]>;
  start: number;
  end: number;
}

function parseLevels(c: Cursor, levels: Array<[PlLevel, string]>): number {
  let end = c.i;
  for (;;) {
    const save = c.i;
    const mk = take(c, PL_MARK);
    if (mk) {
      const lvl = markLevel(mk[1]);
      const v = lvl === "lit" ? take(c, PL_LETTER) : take(c, PL_NUM);
      if (!v) {
        c.i = save;
        break;
      }
      const rank = PL_LEVEL_RANK[lvl];
      while (levels.length > 0 && PL_LEVEL_RANK[levels[levels.length - 1][0]] >= rank) levels.pop();
      levels.push([lvl, lvl === "lit" ? v[1] : numText(v)]);
      end = c.i;
      continue;
    }
    if (take(c, PL_SENTENCE)) {
      end = c.i;
      continue;
    }
    c.i = save;
    break;
  }
  c.i = end;
  return end;
}

/** One chain of provisions starting after "art." at the cursor. */
function parseChain(c: Cursor, firstStart: number): Provision[] {
  const out: Provision[] = [];
  let start = firstStart;
  let num = take(c, PL_NUM);
  if (!num) return out;
  let cur: Provision = { article: numText(num), levels: [], start, end: c.i };
  cur.end = Math.max(cur.end, parseLevels(c, cur.levels));
  out.push(cur);
  for (;;) {
    const save = c.i;
    const conn = take(c, PL_CONN);
    if (!conn) break;
    const connector = conn[1].toLowerCase();
    const isRange = /^[-–—]$/.test(connector);
    const afterConn = c.i;
    skipWs(c);
    start = c.i;
    if (take(c, PL_ART_AHEAD)) {
      num = take(c, PL_NUM);
      if (!num) {
        c.i = save;
        break;
      }
      cur = { article: numText(num), levels: [], start, end: c.i };
      cur.end = Math.max(cur.end, parseLevels(c, cur.levels));
      out.push(cur);
      continue;
    }
    if (connector.startsWith("w") || connector === ";") {
      // "w zw. z" and ";" join chains only before another "art.".
      c.i = save;
      break;
    }
    c.i = afterConn;
    if (peek(c, PL_MARK)) {
      // "art. 34 § 1 pkt 2 i § 2": a sibling unit of the same article.
      const levels = cur.levels.map((l) => [l[0], l[1]] as [PlLevel, string]);
      skipWs(c);
      const s = c.i;
      const end = parseLevels(c, levels);
      if (end === s) {
        c.i = save;
        break;
      }
      cur = { article: cur.article, levels, start: s, end };
      out.push(cur);
      continue;
    }
    num = take(c, PL_NUM);
    if (!num) {
      c.i = save;
      break;
    }
    const value = numText(num);
    const numEnd = c.i;
    if (peek(c, PL_MARK) || cur.levels.length === 0) {
      // "278 § 1 i 279 § 1": a new article; "98 i 99": a list of articles; "278-280": a range of them.
      if (isRange && cur.levels.length === 0) {
        const from = Number(cur.article);
        const to = Number(value);
        if (/^\d+$/.test(cur.article) && /^\d+$/.test(value) && to > from && to - from <= MAX_RANGE) {
          for (let n = from + 1; n < to; n++) out.push({ article: String(n), levels: [], start: cur.start, end: numEnd });
        }
      }
      cur = { article: value, levels: [], start, end: numEnd };
      cur.end = Math.max(cur.end, parseLevels(c, cur.levels));
      out.push(cur);
      continue;
    }
    // "art. 438 pkt 2 i 4", "art. 178a § 1 i 4": another unit at the deepest level written.
    const levels = cur.levels.map((l) => [l[0], l[1]] as [PlLevel, string]);
    const lastLvl = levels[levels.length - 1][0];
    if (isRange) {
      const from = Number(levels[levels.length - 1][1]);
      const to = Number(value);
      if (Number.isInteger(from) && Number.isInteger(to) && to > from && to - from <= MAX_RANGE) {
        for (let n = from + 1; n < to; n++) {
          const mid = levels.map((l) => [l[0], l[1]] as [PlLevel, string]);
          mid[mid.length - 1] = [lastLvl, String(n)];
          out.push({ article: cur.article, levels: mid, start, end: numEnd });
        }
      }
    }
    levels[levels.length - 1] = [lastLvl, value];
    cur = { article: cur.article, levels, start, end: numEnd };
    cur.end = Math.max(cur.end, parseLevels(c, cur.levels));
    out.push(cur);
  }
  return out;
}

/**
 * An article number beyond the act's last article is a superscript flattened by the text's conversion ("art. 3531
 * k.c." is art. 353¹): the trailing digit (or two) becomes the superscript when that gives an article of the act.
 */
function unflatten(actId: string, article: string): string {
  const max = plActById(actId)?.lastArticle;
  const m = /^(\d+)$/.exec(article);
  if (!max || !m || Number(m[1]) <= max) return article;
  for (const k of [1, 2]) {
    const base = m[1].slice(0, -k);
    if (base && Number(base) <= max && !m[1].endsWith("0".repeat(k))) return `${base}^${m[1].slice(-k)}`;
  }
  return article;
}

/**
 * The provisions of a list written without its act ("art. 34 § 1 a pkt. 1", "art. 98 i 99"): the form of SAOS and
 * JuDDGES structured references and of typed queries.
 */
export function parsePlProvisions(s: string): Array<{ article: string; levels: Array<[PlLevel, string]> }> {
  const out: Array<{ article: string; levels: Array<[PlLevel, string]> }> = [];
  PL_ART.lastIndex = 0;
  let m = PL_ART.exec(s);
  while (m && !artStarts(s, m)) m = PL_ART.exec(s);
  if (!m) return out;
  const c: Cursor = { text: s, i: m.index + m[0].length };
  for (const p of parseChain(c, m.index)) out.push({ article: p.article, levels: p.levels });
  return out;
}

/** PL legislation references (provisions) of a text, in order. */
export function extractPlLegislation(text: string): Reference[] {
  const out: Reference[] = [];
  const st: PlState = { lastAct: null, lastStatute: null };
  PL_ART.lastIndex = 0;
  let from = 0;
  for (let m = PL_ART.exec(text); m; m = PL_ART.exec(text)) {
    if (m.index < from || !artStarts(text, m)) continue;
    const c: Cursor = { text, i: m.index + m[0].length };
    const chain = parseChain(c, m.index);
    if (chain.length === 0) continue;
    const chainEnd = c.i;
    let act = plActAt(c, st);
    // A chain followed by a parenthesis holding the act ("art. 17 (ustawy …)") is rare; the act comes next or not at all.
    let end = chainEnd;
    let inherited = false;
    if (act) end = act.end;
    else if (st.lastAct && m.index - st.lastAct.pos <= INHERIT_WINDOW) {
      act = { id: st.lastAct.id, name: st.lastAct.name, end: chainEnd, statute: false };
      inherited = true;
    }
    const actId = act?.id ?? null;
    for (let k = 0; k < chain.length; k++) {
      const p = chain[k];
      const last = k === chain.length - 1;
      const s = p.start;
      const e = last && !inherited ? end : p.end;
      out.push({
        kind: "legislation",
        jurisdiction: "PL",
        start: s,
        end: e,
        text: text.slice(s, e),
        canonicalId: actId ? plProvisionId(actId, unflatten(actId, p.article), p.levels) : null,
        resolved: false,
        origin: "text",
        actName: act?.name ?? null,
      });
    }
    if (act?.id) {
      st.lastAct = { id: act.id, name: act.name, pos: end };
      if (act.statute) st.lastStatute = { id: act.id, name: act.name };
    } else if (act && !inherited) {
      // An act we could not identify breaks inheritance: the next bare "art." is not about the previous act.
      st.lastAct = null;
    }
    from = Math.max(end, chainEnd);
    PL_ART.lastIndex = from;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------- UK

const UK_WORD = "(?:[A-Z][A-Za-z'’-]*|of|and|the|for|to|in|on|from|with|by|etc|\\([A-Za-z ]+\\))";
const UK_ACT = new RegExp(`(?<![A-Za-z])([A-Z][A-Za-z'’-]*(?:[\\s\\u00a0]+${UK_WORD}){0,10}?(?:,[\\s\\u00a0]+[A-Z][A-Za-z'’-]*(?:[\\s\\u00a0]+${UK_WORD}){0,6}?)?[\\s\\u00a0]+Act)[\\s\\u00a0]+(1[5-9]\\d\\d|20\\d\\d)(?!\\d)`, "g");
/** Capitalised words that open a sentence or a phrase, not a short title. */
const UK_TITLE_STOP = new Set([
  "Under", "By", "In", "See", "Section", "Sections", "The", "That", "This", "Part", "Schedule", "Both", "Where", "When", "Of", "For",
  "And", "To", "On", "From", "With", "As", "If", "Since", "Although", "Whereas", "Following", "Unlike", "Like", "Per", "Para",
  "Paragraph", "Subsection", "Article", "Regulation", "Rule", "Order", "Mr", "Mrs", "Ms", "Judge", "Lord", "Lady", "Justice",
]);
const UK_SECTION = /(?<![A-Za-z])(sections?|ss?\.|s(?=[\s\u00a0]?\d))[\s\u00a0]*(\d{1,4}[A-Z]{0,2})((?:[\s\u00a0]*\([\s\u00a0]?[0-9a-zA-Z]{1,4}[\s\u00a0]?\))*)/g;
const UK_SEC_MORE = /[\s\u00a0]*(?:,|and|or|to|-|–)[\s\u00a0]*(?:(?:sections?|ss?\.|s)[\s\u00a0]*)?(\d{1,4}[A-Z]{0,2})((?:[\s\u00a0]?\([\s\u00a0]?[0-9a-zA-Z]{1,4}[\s\u00a0]?\))*)(?![\d\p{L}])/uy;
const UK_ALIAS_DEF = /[\s\u00a0]*\((?:the[\s\u00a0]+|hereafter[\s\u00a0]+|“|"|‘|')*([A-Z][A-Za-z0-9 ]{1,29}?|the \d{4} Act)(?:”|"|’|')*\)/y;
const UK_OF = /[\s\u00a0]*,?[\s\u00a0]*(?:of|in|to|under)?[\s\u00a0]*(?:the[\s\u00a0]+)?/y;
const UK_BACK = /(?:the|that|this)[\s\u00a0]+(?:(\d{4})[\s\u00a0]+)?Act(?![A-Za-z])/y;
const UK_ABBR = /([A-Z]{2,6})(?:[\s\u00a0]+(1[5-9]\d\d|20\d\d))?(?![A-Za-z])/y;
const UK_GUIDELINE = new RegExp(
  "(?:Sentencing Council(?:'s|’s)?[\\s\\u00a0]+)(?:definitive[\\s\\u00a0]+)?guidelines?[\\s\\u00a0]+(?:on|for)[\\s\\u00a0]+(?:the[\\s\\u00a0]+)?([A-Za-z][\\w'’-]*(?:[\\s\\u00a0]+[A-Za-z][\\w'’-]*){0,7}?)(?=[\\s\\u00a0]*(?:[.,;:()]|$|which|is|was|applies|applied|at|and the))" +
    "|((?:[A-Z][\\w'’:-]*[\\s\\u00a0]+){1,8}?)(?:Definitive[\\s\\u00a0]+)?Guideline(?![\\w])",
  "g",
);

/** Where an Act's short title ends: "Act 1968". */
const UK_ACT_YEAR = /(?<![A-Za-z])Act[\s\u00a0]+(?:1[5-9]\d\d|20\d\d)(?!\d)/g;
/** How far before "Act <year>" a short title can start. */
const UK_TITLE_REACH = 160;

/** UK_ACT matches, looked for only just before each "Act <year>" (the pattern's capitalised runs are costly elsewhere). */
function* actMentions(text: string): Generator<RegExpExecArray> {
  let from = 0;
  for (const y of text.matchAll(UK_ACT_YEAR)) {
    const end = y.index + y[0].length;
    const a = Math.max(from, y.index - UK_TITLE_REACH);
    const re = new RegExp(UK_ACT.source, "g");
    for (const m of text.slice(a, end).matchAll(re)) {
      if (a + m.index + m[0].length !== end) continue;
      m.index += a;
      yield m;
      break;
    }
    from = end;
  }
}

interface UkAct {
  id: string;
  start: number;
  end: number;
}

function subsOf(raw: string): string[] {
  return [...raw.matchAll(/\(\s*([0-9a-zA-Z]{1,4})\s*\)/g)].map((m) => m[1]);
}

/** UK legislation references (sections, acts, guidelines) of a text, in order. */
export function extractUkLegislation(text: string): Reference[] {
  const out: Reference[] = [];
  // Acts named by short title and year, with the aliases defined right after them.
  const acts: UkAct[] = [];
  const aliases = new Map<string, string>();
  for (const m of actMentions(text)) {
    const words = m[1].split(/[\s\u00a0]+/);
    let k = 0;
    while (k < words.length - 1 && (UK_TITLE_STOP.has(words[k]) || /^[a-z(]/.test(words[k]))) k++;
    // "the Sentencing Council's Robbery Guideline" names the guideline "Robbery", as "the guideline on robbery" does.
    const title = words.slice(k).join(" ").replace(/^Sentencing\s+Council(?:'s|’s)?\s+/, "");
    const start = m.index + m[0].indexOf(words[k]);
    const end = m.index + m[0].length;
    const id = ukActId(title, Number(m[2]));
    acts.push({ id, start, end });
    UK_ALIAS_DEF.lastIndex = end;
    const al = UK_ALIAS_DEF.exec(text);
    if (al) aliases.set(al[1].toLowerCase(), id);
    aliases.set(`the ${m[2]} act`, id);
  }
  const actBefore = (pos: number): UkAct | null => {
    let best: UkAct | null = null;
    for (const a of acts) if (a.end <= pos) best = a;
    return best;
  };
  const used = new Set<UkAct>();

  /** The act written right after a section reference ("of the Theft Act 1968", "OAPA 1861", "of the HRA"). */
  const actAfter = (pos: number): { id: string; end: number } | null => {
    UK_OF.lastIndex = pos;
    UK_OF.exec(text);
    const p = UK_OF.lastIndex;
    const a = acts.find((x) => x.start === p || (x.start > pos && x.start <= p + 4 && /^[\s\u00a0,]*$/.test(text.slice(p, x.start))));
    if (a) {
      used.add(a);
      return { id: a.id, end: a.end };
    }
    UK_BACK.lastIndex = p;
    const back = UK_BACK.exec(text);
    if (back) {
      const id = back[1] ? aliases.get(`the ${back[1]} act`) : actBefore(pos)?.id;
      if (id) return { id, end: UK_BACK.lastIndex };
    }
    UK_ABBR.lastIndex = p;
    const ab = UK_ABBR.exec(text);
    if (ab) {
      const alias = aliases.get(ab[1].toLowerCase());
      if (alias) return { id: alias, end: UK_ABBR.lastIndex };
      const t = ukActByAbbreviation(ab[1], ab[2] ? Number(ab[2]) : undefined);
      if (t) return { id: `ukpga/${t.year}/${t.chapter}`, end: UK_ABBR.lastIndex };
    }
    return null;
  };

  for (const m of text.matchAll(UK_SECTION)) {
    const start = m.index;
    const items: Array<{ section: string; subs: string[]; end: number }> = [
      { section: m[2], subs: subsOf(m[3]), end: start + m[0].length },
    ];
    let pos = start + m[0].length;
    {
      for (;;) {
        UK_SEC_MORE.lastIndex = pos;
        const more = UK_SEC_MORE.exec(text);
        if (!more) break;
        // "s. 6(3) and 6(5)"; a bare number is another section only after a plural or a section-like shape.
        if (!/^ss\.|^sections/i.test(m[1]) && !/\(|sections?|ss?\./.test(more[0])) break;
        items.push({ section: more[1], subs: subsOf(more[2]), end: UK_SEC_MORE.lastIndex });
        pos = UK_SEC_MORE.lastIndex;
      }
    }
    let act = actAfter(pos);
    let inherited = false;
    if (!act) {
      // "Sentencing Act 2020, s.231": the act just before.
      const prev = actBefore(start);
      if (prev && /^[\s\u00a0]*,?[\s\u00a0]*$/.test(text.slice(prev.end, start))) {
        used.add(prev);
        act = { id: prev.id, end: pos };
      } else if (prev) {
        act = { id: prev.id, end: pos };
        inherited = true;
      }
    }
    for (let k = 0; k < items.length; k++) {
      const it = items[k];
      const s = k === 0 ? start : items[k - 1].end;
      const e = k === items.length - 1 && act && !inherited ? Math.max(act.end, it.end) : it.end;
      const textSpan = text.slice(s, e).replace(/^[\s\u00a0,]*(?:and|or|to)?[\s\u00a0]*/, "");
      const s2 = e - textSpan.length;
      out.push({
        kind: "legislation",
        jurisdiction: "UK",
        start: s2,
        end: e,
        text: textSpan,
        canonicalId: act ? ukProvisionId(act.id, it.section, it.subs) : null,
        resolved: false,
        origin: "text",
      });
    }
  }
  for (const a of acts) {
    if (used.has(a)) continue;
    out.push({ kind: "legislation", jurisdiction: "UK", start: a.start, end: a.end, text: text.slice(a.start, a.end), canonicalId: `UK/${a.id}`, resolved: false, origin: "text" });
  }
  const guidelines = text.includes("Guideline") || text.includes("Sentencing Council") ? text.matchAll(UK_GUIDELINE) : [];
  for (const m of guidelines) {
    const name = (m[1] ?? m[2] ?? "").trim();
    const words = name.split(/\s+/);
    let k = 0;
    while (k < words.length && (UK_TITLE_STOP.has(words[k]) || /^[a-z]/.test(words[k]))) k++;
    // "the Sentencing Council's Robbery Guideline" names the guideline "Robbery", as "the guideline on robbery" does.
    const title = words.slice(k).join(" ").replace(/^Sentencing\s+Council(?:'s|’s)?\s+/, "");
    if (!title) continue;
    const slug = title.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
    out.push({ kind: "guideline", jurisdiction: "UK", start: m.index, end: m.index + m[0].length, text: m[0], canonicalId: `UK/guideline/${slug}`, resolved: false, origin: "text" });
  }
  return out.sort((a, b) => (a.start ?? 0) - (b.start ?? 0));
}
