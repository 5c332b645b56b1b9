/**
 * Deterministic date ranges from the wording of a natural-language question (spec: POST /extractions/base-schema/
 * nl-filter, date mapping table). The model is told the same rules, but a model can err; this re-derives the range
 * from the question text so the table holds whatever the model answered. English and Polish phrasings map the same:
 *
 *   in Y / w (roku) Y / z (roku) Y          → Y-01-01 .. Y-12-31
 *   since Y / od (roku) Y                    → Y-01-01 ..
 *   after Y / po (roku) Y                    → (Y+1)-01-01 ..            (Y excluded)
 *   before Y / przed (rokiem) Y              → .. (Y-1)-12-31            (Y excluded)
 *   between Y1 and Y2 / między Y1 a Y2       → Y1-01-01 .. Y2-12-31
 *   (also: from Y1 to Y2, od Y1 do Y2, w latach Y1-Y2, Y1–Y2)
 *
 * Several phrases in one question narrow each other ("after 2015 and before 2020" → 2016-01-01 .. 2019-12-31).
 * Years are four digits, 1900-2099, so docket numbers (II AKa 123/19) and ages never read as years.
 */

export interface IsoDateRange {
  from?: string;
  to?: string;
}

export type DatePhraseKind = "in" | "since" | "after" | "before" | "between";

export interface DatePhrase {
  kind: DatePhraseKind;
  /** The words matched, as written (for tests and logs). */
  text: string;
  range: IsoDateRange;
}

const YEAR = String.raw`((?:19|20)\d{2})`;
/** Polish "year" in any case the phrases need: rok, roku, rokiem, r. — and "roku" after the year. */
const ROK_BEFORE = String.raw`(?:(?:roku|rokiem|rok|r\.)\s+)?`;
const ROK_AFTER = String.raw`(?:\s*(?:roku|rokiem|rok|r\.))?`;
/**
 * A year not glued to more digits, letters or a slash that makes it part of a reference, and not an amount or a count
 * ("2000 zł", "2000 pounds", "2000 people").
 */
const END = String.raw`(?![\p{L}\p{N}/])(?!\s*(?:zł|złotych|pln|gbp|eur|euro|pounds?|£|\$|%|osób|people|persons|victims|ofiar))`;
const START = String.raw`(?<![\p{L}\p{N}])`;
const DASH = String.raw`\s*[-–—]\s*`;

interface Rule {
  kind: DatePhraseKind;
  re: RegExp;
  range: (m: RegExpExecArray) => IsoDateRange | null;
}

const first = (y: number) => `${y}-01-01`;
const last = (y: number) => `${y}-12-31`;

function between(a: string, b: string): IsoDateRange | null {
  const y1 = Number(a);
  const y2 = Number(b);
  // "between 2019 and 2015" means the same span; order the bounds rather than produce an empty range.
  return { from: first(Math.min(y1, y2)), to: last(Math.max(y1, y2)) };
}

const rx = (source: string) => new RegExp(source, "giu");

/**
 * Rules in priority order: a span claimed by an earlier rule is not read again by a later one, so
 * "between 2015 and 2019" is one between-phrase and not also "in 2019"-like fragments.
 */
const RULES: readonly Rule[] = [
  {
    kind: "between",
    re: rx(
      String.raw`${START}(?:between|(?:po)?między)\s+(?:the\s+years\s+|(?:latami|rokiem)\s+)?${YEAR}${ROK_AFTER}\s+(?:and|a|i|oraz|to|-)\s+(?:(?:rokiem|r\.)\s+)?${YEAR}${ROK_AFTER}${END}`,
    ),
    range: (m) => between(m[1], m[2]),
  },
  {
    kind: "between",
    re: rx(
      String.raw`${START}(?:from|od)\s+(?:the\s+year\s+|roku\s+)?${YEAR}${ROK_AFTER}\s+(?:to|until|till|through|thru|do)\s+(?:the\s+year\s+|roku\s+)?${YEAR}${ROK_AFTER}${END}`,
    ),
    range: (m) => between(m[1], m[2]),
  },
  {
    // "in 2015-2019", "w latach 2015–2019", "2015-2019" (a bare span of two years).
    kind: "between",
    re: rx(String.raw`${START}(?:(?:in|during|w\s+latach|latach|lata)\s+)?${YEAR}${DASH}${YEAR}${ROK_AFTER}${END}`),
    range: (m) => between(m[1], m[2]),
  },
  {
    kind: "since",
    re: rx(
      String.raw`${START}(?:since|starting(?:\s+(?:in|from))?|beginning(?:\s+(?:in|from))?|od|począwszy\s+od)\s+(?:the\s+year\s+|${ROK_BEFORE})${YEAR}${ROK_AFTER}${END}`,
    ),
    range: (m) => ({ from: first(Number(m[1])) }),
  },
  {
    // "from 2019 onwards", "from 2019 on" are since-phrases; bare "from 2019" is an in-phrase (below).
    kind: "since",
    re: rx(String.raw`${START}from\s+(?:the\s+year\s+)?${YEAR}\s+(?:onwards?|on|forward)${END}`),
    range: (m) => ({ from: first(Number(m[1])) }),
  },
  {
    // "2019 onwards", "2019 and later"
    kind: "since",
    re: rx(String.raw`${START}${YEAR}\s+(?:onwards?|and\s+later|or\s+later|and\s+after|i\s+później)${END}`),
    range: (m) => ({ from: first(Number(m[1])) }),
  },
  {
    kind: "after",
    re: rx(String.raw`${START}(?:after|later\s+than|po|później\s+niż)\s+(?:the\s+year\s+|${ROK_BEFORE})${YEAR}${ROK_AFTER}${END}`),
    range: (m) => ({ from: first(Number(m[1]) + 1) }),
  },
  {
    kind: "before",
    re: rx(
      String.raw`${START}(?:before|prior\s+to|earlier\s+than|przed|wcześniej\s+niż)\s+(?:the\s+year\s+|${ROK_BEFORE})${YEAR}${ROK_AFTER}${END}`,
    ),
    range: (m) => ({ to: last(Number(m[1]) - 1) }),
  },
  {
    kind: "in",
    re: rx(String.raw`${START}(?:in|during|from|w|we|z|ze)\s+(?:the\s+year\s+|${ROK_BEFORE})${YEAR}${ROK_AFTER}${END}`),
    range: (m) => ({ from: first(Number(m[1])), to: last(Number(m[1])) }),
  },
];

/** Every date phrase of the question, in text order. */
export function findDatePhrases(question: string): DatePhrase[] {
  const claimed: [number, number][] = [];
  const found: (DatePhrase & { index: number })[] = [];
  for (const rule of RULES) {
    rule.re.lastIndex = 0;
    for (let m = rule.re.exec(question); m; m = rule.re.exec(question)) {
      const start = m.index;
      const end = start + m[0].length;
      if (claimed.some(([s, e]) => start < e && end > s)) continue;
      const range = rule.range(m);
      if (!range) continue;
      claimed.push([start, end]);
      found.push({ kind: rule.kind, text: m[0], range, index: start });
    }
  }
  return found.sort((a, b) => a.index - b.index).map(({ index: _index, ...p }) => p);
}

/** The intersection of ranges: the latest start and the earliest end. */
export function intersect(ranges: readonly IsoDateRange[]): IsoDateRange | null {
  if (ranges.length === 0) return null;
  let from: string | undefined;
  let to: string | undefined;
  for (const r of ranges) {
    if (r.from !== undefined && (from === undefined || r.from > from)) from = r.from;
    if (r.to !== undefined && (to === undefined || r.to < to)) to = r.to;
  }
  const out: IsoDateRange = {};
  if (from !== undefined) out.from = from;
  if (to !== undefined) out.to = to;
  return out;
}

/** The range the question's date phrases describe, or null when it has none. */
export function deriveDateRange(question: string): IsoDateRange | null {
  return intersect(findDatePhrases(question).map((p) => p.range));
}

/**
 * True when the question names the appeal-court judgment date itself (spec: date_of_appeal_court_judgment only when
 * named explicitly). "Appeals decided in 2019" does not: decision_date is the default date field.
 */
export function namesAppealJudgmentDate(question: string): boolean {
  const q = question.toLowerCase();
  return (
    /\b(?:date\s+of\s+(?:the\s+)?appeal(?:\s+court)?\s+judg(?:e)?ment|appeal(?:\s+court)?\s+judg(?:e)?ment\s+date|appeal(?:\s+court)?\s+judg(?:e)?ments?\s+(?:was\s+|were\s+)?(?:delivered|handed\s+down|given|dated|issued))\b/u.test(
      q,
    ) ||
    /data\s+(?:wydania\s+)?wyroku\s+sądu\s+(?:odwoławczego|apelacyjnego|ii\s+instancji|drugiej\s+instancji)/u.test(q) ||
    /wyrok\w*\s+sądu\s+(?:odwoławczego|apelacyjnego|ii\s+instancji|drugiej\s+instancji)\s+(?:został\w*\s+)?(?:wydan\w*|ogłoszon\w*|zapadł\w*)/u.test(q)
  );
}
