/**
 * Case references in judgment text: PL case numbers (sygnatury, with the court and date when the text states them),
 * Constitutional Tribunal numbers (`SK 12/05`, only where the Tribunal or "sygn." is named: alone, "K 1/05" is too
 * common a shape), UK neutral citations, law-report citations, parallel citations (one group) and the case name in
 * front of a citation. Case numbers and neutral citations take the keys of lib/search/citations, the keys the search
 * index gives judgments, so a reference resolves by the same key a typed citation finds.
 */
import { findCitations } from "@/lib/search/citations";
import type { Reference } from "./types";

/** Law reports (series) as cited; matched case-sensitively after `[year]` or `(year) volume`. */
const REPORTS = [
  "AC", "QB", "KB", "Ch", "Fam", "WLR", "All ER", "All ER \\(D\\)", "Cr App R \\(S\\)", "Cr App R", "Crim LR", "EHRR", "BHRC",
  "UKHRR", "RTR", "FLR", "FCR", "ICR", "IRLR", "HRLR", "EMLR", "Lloyd's Rep", "Costs LR", "CMLR", "BCLC", "BCC", "HLR", "LGR",
  "P & CR", "EGLR", "Env LR", "JP", "Cr App R \\(S\\)", "Imm AR", "INLR", "PNLR", "WTLR", "COD", "ACD", "Med LR", "BMLR",
].sort((a, b) => b.length - a.length);

const REPORT_RE = new RegExp(
  `(?<![\\w])(?:\\[((?:18|19|20)\\d{2})\\]|\\(((?:18|19|20)\\d{2})\\))[\\s\\u00a0]*(?:(\\d{1,3})[\\s\\u00a0]+)?(${REPORTS.join("|")})[\\s\\u00a0]+(\\d{1,5})(?![\\w])`,
  "g",
);

const PL_COURT =
  "(?:Sądu|Sąd|Sądzie)[\\s\\u00a0]+(?:Najwyższego|Najwyższy|Najwyższym|Apelacyjnego|Apelacyjny|Okręgowego|Okręgowy|Rejonowego|Rejonowy|Wojewódzkiego Sądu Administracyjnego)(?:[\\s\\u00a0]+(?:w|we)[\\s\\u00a0]+\\p{Lu}\\p{Ll}+(?:[\\s\\u00a0-]+\\p{Lu}\\p{Ll}+)?)?" +
  "|Naczelnego Sądu Administracyjnego|Trybunału Konstytucyjnego|Trybunał Konstytucyjny|\\bSN\\b|\\bNSA\\b|\\bTK\\b|\\bS[AOR][\\s\\u00a0]+w[\\s\\u00a0]+\\p{Lu}\\p{Ll}+|\\bWSA[\\s\\u00a0]+w[\\s\\u00a0]+\\p{Lu}\\p{Ll}+";
const MONTHS = ["stycznia", "lutego", "marca", "kwietnia", "maja", "czerwca", "lipca", "sierpnia", "września", "października", "listopada", "grudnia"];
const PL_DATE = `(\\d{1,2})[\\s\\u00a0]*(?:(${MONTHS.join("|")})|\\.(\\d{1,2})\\.)[\\s\\u00a0]*(\\d{4})`;
/** The court and date in the words just before a case number: "wyrok Sądu Najwyższego z dnia 20 stycznia 2016 r., ". */
const PL_CONTEXT = new RegExp(`(${PL_COURT})(?:[\\s\\u00a0]+[IVX]+[\\s\\u00a0]+Wydział[\\s\\u00a0]+\\p{L}+)?(?:[\\s\\u00a0]+z[\\s\\u00a0]+(?:dnia[\\s\\u00a0]+)?${PL_DATE}[\\s\\u00a0]*(?:r\\.|roku)?)?[\\s\\u00a0,]*(?:\\(?[\\s\\u00a0]*sygn\\.*(?:[\\s\\u00a0]*akt)?:?[\\s\\u00a0]*)?$`, "u");
const PL_DATE_ONLY = new RegExp(`z[\\s\\u00a0]+(?:dnia[\\s\\u00a0]+)?${PL_DATE}[\\s\\u00a0]*(?:r\\.|roku)?[\\s\\u00a0,]*(?:\\(?[\\s\\u00a0]*sygn\\.*(?:[\\s\\u00a0]*akt)?:?[\\s\\u00a0]*)?$`, "u");
const TK_RE = /(?<![\p{L}\p{N}])(SK|Kp|Kpt|K|P|U|Ts|Tw|Pp)[\s\u00a0]+(\d{1,4})\/(\d{2}|\d{4})(?![\p{L}\p{N}])/gu;
/** Necessary for a match of REPORT_RE (its year) and of TK_RE (number "/" year). */
const REPORT_NEEDS = /(?:18|19|20)\d\d/;
const TK_NEEDS = /\d\/\d/;
const TK_CONTEXT = /(Trybunał\p{L}*[\s\u00a0]+Konstytucyjn\p{L}*|\bTK\b|sygn\.)/u;
/** "R v Pola", "R (Miller) v Secretary of State for Exiting the European Union", "BBC v Sugar (No. 2)". */
const CASE_NAME = /((?:R|[A-Z][\p{L}.'’&-]*)(?:[\s\u00a0]+(?:\([^()]{1,80}\)|[A-Z][\p{L}.'’&-]*|of|and|for|the|on|in|de|van|ex|parte|plc|Ltd|Co|No\.?|\d{1,2}),?){0,12}[\s\u00a0]+v\.?[\s\u00a0]+(?:\([^()]{1,80}\)|[A-Z][\p{L}.'’&-]*)(?:[\s\u00a0]+(?:\([^()]{1,80}\)|[A-Z][\p{L}.'’&-]*|of|and|for|the|on|in|de|van|ex|parte|plc|Ltd|Co|No\.?|\d{1,2}),?){0,14})[\s\u00a0]*,?[\s\u00a0]*$/u;

const NEUTRAL_COURT = /\]\s*([A-Z]+(?:\s+(?:Civ|Crim))?)/;

function isoDate(d: string, monthName: string | undefined, monthNum: string | undefined, y: string): string | null {
  const m = monthName ? MONTHS.indexOf(monthName) + 1 : Number(monthNum);
  const day = Number(d);
  if (!(m >= 1 && m <= 12) || day < 1 || day > 31) return null;
  return `${y}-${String(m).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

function reportKey(m: RegExpExecArray): string {
  const year = m[1] ?? m[2];
  const vol = m[3] ? `${m[3]} ` : "";
  return `ukrep:${year} ${vol}${m[4].replace(/\\/g, "").toLowerCase()} ${Number(m[5])}`;
}

/** Where a case number or neutral citation can be: a digit "/" digit, or a bracketed year. */
const CANDIDATE = /\d[\s\u00a0]*\/[\s\u00a0]*\d|[[(](?:18|19|20)\d\d[\])]/g;
/** Characters a case number or neutral citation reaches before and after its candidate point. */
const REACH_BEFORE = 48;
const REACH_AFTER = 64;

/**
 * The patterns run over the windows around candidate points only: its patterns are long alternations, and a judgment is
 * mostly prose without a "/" between digits. Windows start and end at whitespace, so no match is cut.
 */
function candidateWindows(text: string): Array<[number, number]> {
  const windows: Array<[number, number]> = [];
  for (const m of text.matchAll(CANDIDATE)) {
    let a = Math.max(0, m.index - REACH_BEFORE);
    while (a > 0 && !/\s/.test(text[a - 1])) a--;
    let b = Math.min(text.length, m.index + m[0].length + REACH_AFTER);
    while (b < text.length && !/\s/.test(text[b])) b++;
    const last = windows[windows.length - 1];
    if (last && a <= last[1]) last[1] = Math.max(last[1], b);
    else windows.push([a, b]);
  }
  return windows;
}

/**
 * Matches of a global regex inside the windows, with positions in the whole text; a window without what every match
 * of `re` holds (`needs`) is not searched.
 */
function* matchesIn(text: string, windows: ReadonlyArray<[number, number]>, re: RegExp, needs: RegExp): Generator<RegExpExecArray> {
  for (const [a, b] of windows) {
    const w = text.slice(a, b);
    if (!needs.test(w)) continue;
    for (const m of w.matchAll(re)) {
      m.index += a;
      yield m;
    }
  }
}

export interface CaseRefOptions {
  /** Case numbers / citations of the citing judgment itself: its own number in the text is not a reference. */
  ownCitations?: readonly string[];
}

/** Case references of a text, in order, parallel citations sharing a group number. */
export function extractCaseRefs(text: string, options: CaseRefOptions = {}): Reference[] {
  const own = new Set(options.ownCitations?.flatMap((c) => findCitations(c).map((x) => x.key)) ?? []);
  const out: Reference[] = [];
  const taken: Array<[number, number]> = [];
  const free = (s: number, e: number) => taken.every(([a, b]) => e <= a || s >= b);

  const windows = candidateWindows(text);
  const citations = windows.flatMap(([a, b]) => findCitations(text.slice(a, b)).map((c) => ({ ...c, start: c.start + a })));
  for (const c of citations) {
    const start = c.start;
    const end = c.start + c.text.length;
    if (c.kind === "uk_case_number") continue;
    if (c.kind === "pl_docket") {
      // In running text the department is upper case ("II K 1130/13"); "i k 5/10" is not a case number.
      const roman = /^[\s\u00a0]*(?:sygn\.?\s*(?:akt)?:?\s*)?([IVXivx]+)/u.exec(c.text);
      if (!roman || roman[1] !== roman[1].toUpperCase()) continue;
    }
    taken.push([start, end]);
    if (own.has(c.key)) continue;
    const ref: Reference = {
      kind: "case",
      jurisdiction: c.kind === "pl_docket" ? "PL" : "UK",
      start,
      end,
      text: c.text,
      canonicalId: c.key,
      resolved: false,
      origin: "text",
      court: null,
      date: null,
      caseName: null,
      group: null,
    };
    if (c.kind === "pl_docket") plContext(text, ref);
    else ref.court = NEUTRAL_COURT.exec(c.text)?.[1] ?? null;
    out.push(ref);
  }
  for (const m of matchesIn(text, windows, REPORT_RE, REPORT_NEEDS)) {
    const end = m.index + m[0].length;
    if (!free(m.index, end)) continue;
    taken.push([m.index, end]);
    const key = reportKey(m);
    if (own.has(key)) continue;
    out.push({ kind: "case", jurisdiction: "UK", start: m.index, end, text: m[0], canonicalId: key, resolved: false, origin: "text", court: null, date: null, caseName: null, group: null });
  }
  for (const m of matchesIn(text, windows, TK_RE, TK_NEEDS)) {
    const end = m.index + m[0].length;
    if (!free(m.index, end)) continue;
    const before = text.slice(Math.max(0, m.index - 120), m.index);
    if (!TK_CONTEXT.test(before)) continue;
    const key = `pl:tk ${m[1].toLowerCase()} ${Number(m[2])}/${m[3].length === 4 ? m[3].slice(2) : m[3]}`;
    taken.push([m.index, end]);
    if (own.has(key) || own.has(`pl:${m[1].toLowerCase()} ${Number(m[2])}/${m[3].slice(-2)}`)) continue;
    out.push({ kind: "case", jurisdiction: "PL", start: m.index, end, text: m[0], canonicalId: key, resolved: false, origin: "text", court: "Trybunał Konstytucyjny", date: null, caseName: null, group: null });
  }
  out.sort((a, b) => (a.start ?? 0) - (b.start ?? 0));
  groupParallel(text, out);
  return out;
}

function plContext(text: string, ref: Reference): void {
  const before = text.slice(Math.max(0, (ref.start ?? 0) - 160), ref.start ?? 0);
  const m = PL_CONTEXT.exec(before);
  if (m) {
    ref.court = m[1].replace(/[\s\u00a0]+/g, " ");
    if (m[5]) ref.date = isoDate(m[2], m[3], m[4], m[5]);
    return;
  }
  const d = PL_DATE_ONLY.exec(before);
  if (d) ref.date = isoDate(d[1], d[2], d[3], d[4]);
}

/** "House of Lords in YL v Birmingham City Council" → "YL v Birmingham City Council". */
function trimCaseName(name: string): string {
  const v = name.indexOf(" v ");
  const left = v < 0 ? name : name.slice(0, v);
  const cut = [...left.matchAll(/(?:^|\s)(?:in|see|cf\.?|also|following|per|applying)\s/gi)].pop();
  return cut ? name.slice((cut.index ?? 0) + cut[0].length) : name;
}

/** UK citations printed one after another ("[2011] EWCA Crim 2028; [2012] 1 Cr App R (S) 9") are one case. */
function groupParallel(text: string, refs: Reference[]): void {
  let group = 0;
  for (let k = 0; k < refs.length; k++) {
    const r = refs[k];
    if (r.jurisdiction !== "UK") continue;
    const prev = k > 0 ? refs[k - 1] : null;
    const joined = prev && prev.jurisdiction === "UK" && prev.end !== null && r.start !== null && /^[\s\u00a0]*[;,]?[\s\u00a0]*$/.test(text.slice(prev.end, r.start));
    if (joined && prev) {
      r.group = prev.group;
      r.caseName = prev.caseName;
      continue;
    }
    r.group = ++group;
    const before = text.slice(Math.max(0, (r.start ?? 0) - 200), r.start ?? 0).split(/[.;:!?]\s|\n\s*\n/).pop() ?? "";
    const name = CASE_NAME.exec(before);
    if (name) r.caseName = trimCaseName(name[1].replace(/[\s\u00a0]+/g, " ").replace(/,$/, "").trim());
  }
}
