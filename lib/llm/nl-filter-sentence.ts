/**
 * Sentence lengths, unpaid-work hours and fine amounts in a question ("over 5 years", "powyżej 3 lat", "at least 200
 * hours of unpaid work", "grzywna powyżej 5000 zł") → `{min, max}` ranges on the typed sentence fields
 * (lib/schema/sentence-fields.ts): sentence_custody_months, sentence_community_hours, sentence_fine_amount (+ its
 * currency when the amount names one). Deterministic, used by the rules translator and over a model's answer.
 *
 * Bounds are inclusive like every numeric range, so a strict comparison moves by one unit: months and hours are whole
 * numbers ("over 60 months" → min 61, "under 18 months" → max 17), amounts are money (one hundredth: "over 1000" →
 * min 1000.01). Years count as 12 months. A length about age ("over 60 years old", "powyżej 60 lat życia") is not a
 * sentence; an amount is a fine only when the question says so (a theft "of over £2000" is not one), and hours are
 * unpaid work only when the question names it.
 */

export interface SentencePhrase {
  key: "sentence_custody_months" | "sentence_community_hours" | "sentence_fine_amount";
  range: { min?: number; max?: number };
  /** Currency the amount named (fines only). */
  currency?: "pln" | "gbp";
  start: number;
  end: number;
}

const L = "\\p{L}";
const W = `(?<![${L}\\p{N}])`; // word start
const E = `(?![${L}\\p{N}])`; // word end

type Cmp = "gt" | "ge" | "lt" | "le";

/** Comparator words before the number, each with its meaning. "do" (up to) only counts before a number and a unit. */
const BEFORE: readonly [Cmp, string][] = [
  ["gt", "more\\s+than|over|above|longer\\s+than|greater\\s+than|exceeding|in\\s+excess\\s+of|powyżej|ponad|więcej\\s+niż|dłuższ\\p{L}*\\s+niż|przekraczając\\p{L}*"],
  ["ge", "at\\s+least|no\\s+less\\s+than|not\\s+less\\s+than|no\\s+shorter\\s+than|minimum(?:\\s+of)?|co\\s+najmniej|przynajmniej|nie\\s+mniej\\s+niż|nie\\s+krótsz\\p{L}*\\s+niż|minimum|od"],
  ["lt", "less\\s+than|under|below|shorter\\s+than|fewer\\s+than|poniżej|mniej\\s+niż|krótsz\\p{L}*\\s+niż"],
  ["le", "up\\s+to|at\\s+most|no\\s+more\\s+than|not\\s+more\\s+than|no\\s+longer\\s+than|maximum(?:\\s+of)?|co\\s+najwyżej|najwyżej|maksymalnie|nie\\s+więcej\\s+niż|nie\\s+dłuższ\\p{L}*\\s+niż|do"],
];

/** Comparator words after the unit ("5 years or more", "5 lat lub więcej"). */
const AFTER: readonly [Cmp, string][] = [
  ["ge", "or\\s+(?:more|longer|above)|and\\s+(?:more|over|above)|lub\\s+(?:więcej|dłużej)|i\\s+więcej|albo\\s+więcej"],
  ["le", "or\\s+(?:less|fewer|shorter|under)|and\\s+(?:less|under|below)|lub\\s+(?:mniej|krócej)|i\\s+mniej|albo\\s+mniej"],
];

/** Number words (EN and PL, the inflected forms a length takes). */
const NUMBER_WORDS: Record<string, number> = {
  a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, fifteen: 15, eighteen: 18, twenty: 20, thirty: 30, "one and a half": 1.5,
  jeden: 1, jednego: 1, jedna: 1, jednej: 1, dwa: 2, dwóch: 2, dwu: 2, dwie: 2, trzy: 3, trzech: 3, cztery: 4, czterech: 4,
  pięć: 5, pięciu: 5, sześć: 6, sześciu: 6, siedem: 7, siedmiu: 7, osiem: 8, ośmiu: 8, dziewięć: 9, dziewięciu: 9,
  dziesięć: 10, dziesięciu: 10, dwanaście: 12, dwunastu: 12, piętnaście: 15, piętnastu: 15, osiemnaście: 18, osiemnastu: 18,
  dwadzieścia: 20, dwudziestu: 20, trzydzieści: 30, trzydziestu: 30, półtora: 1.5, półtorej: 1.5,
};
const NUMBER_WORD = Object.keys(NUMBER_WORDS)
  .sort((a, b) => b.length - a.length)
  .map((w) => w.replace(/ /g, "\\s+"))
  .join("|");
/** A number: digits (1 000, 1,000, 2.5, 2,5) or a number word. */
const NUM = `(\\d{1,3}(?:[\\s,.]\\d{3})+(?![\\d])|\\d+(?:[.,]\\d+)?|${NUMBER_WORD})`;

const YEARS = "years?|yrs?|rok|roku|lata|lat";
const MONTHS = "months?|mths?|miesiąc\\p{L}*|miesięcy|mies\\.";
const HOURS = "hours?|hrs?|godzin\\p{L}*|godz\\.";
/** Currency before ("£2000") or after ("2000 zł", "2000 pounds"). */
const CUR_BEFORE = "(£|pln\\s*|gbp\\s*)?";
const CUR_AFTER = "(?:\\s*(zł(?:otych|ote|oty)?|pln|gbp|pounds?|funt\\p{L}*))?";

/** "poniżej roku" / "under a year": the unit alone stands for one. */
const UNIT_ALONE = "(roku|year)";

const cmpGroup = (list: readonly [Cmp, string][]) => list.map(([, re]) => `(${re})`).join("|");
const cmpOf = (m: RegExpExecArray, first: number, list: readonly [Cmp, string][]): Cmp | null => {
  for (let i = 0; i < list.length; i++) if (m[first + i] !== undefined) return list[i][0];
  return null;
};

/** "between 2 and 5 years", "from 2 to 5 years", "2-5 years", "od 2 do 5 lat", "(po)między 2 a 5 lat". */
const BETWEEN = new RegExp(
  `${W}(?:(?:between|from|od|między|pomiędzy)\\s+)?${NUM}\\s*(?:(${YEARS}|${MONTHS})\\s+)?(?:and|to|-|–|a|i|do)\\s*${NUM}\\s*(${YEARS}|${MONTHS}|${HOURS})${E}`,
  "giu",
);
const LENGTH_BEFORE = new RegExp(`${W}(?:${cmpGroup(BEFORE)})\\s+${NUM}\\s*(${YEARS}|${MONTHS}|${HOURS})${E}`, "giu");
const LENGTH_AFTER = new RegExp(`${W}${NUM}\\s*(${YEARS}|${MONTHS}|${HOURS})\\s+(?:${cmpGroup(AFTER)})${E}`, "giu");
const LENGTH_ALONE = new RegExp(`${W}(?:${cmpGroup(BEFORE)})\\s+(?:a\\s+)?${UNIT_ALONE}${E}`, "giu");
const AMOUNT_BEFORE = new RegExp(`${W}(?:${cmpGroup(BEFORE)})\\s+${CUR_BEFORE}${NUM}${CUR_AFTER}(?![\\p{L}\\p{N}])`, "giu");

/** Words that make a length an age, not a sentence. */
const AGE_AFTER = /^\s*(?:old|of\s+age|of\s+his\s+age|życia|wieku)\b/iu;
const AGE_BEFORE = /(?:aged|age|wieku|wiek)\s*$/iu;
/** A fine or unpaid work named somewhere in the question (fines: the amount must follow within a few words). */
const FINE_WORD = /(?<![\p{L}])(?:fine[ds]?|grzywn\p{L}*)(?![\p{L}])/iu;
const HOURS_CONTEXT = /(?<![\p{L}])(?:unpaid\s+work|community\s+(?:service|work|order)|prac\p{L}*\s+(?:społeczn|na\s+cele\s+społeczne|nieodpłatn)|nieodpłatn\p{L}*\s+prac|ograniczeni\p{L}*\s+wolności)/iu;

function parseNumber(raw: string): number | null {
  const word = NUMBER_WORDS[raw.toLowerCase().replace(/\s+/gu, " ")];
  if (word !== undefined) return word;
  // "1 000", "1,000", "1.000" group thousands; a single "," or "." before 1-2 digits is a decimal point ("2,5").
  const grouped = /^\d{1,3}(?:[\s,.]\d{3})+$/u.test(raw);
  const n = Number(grouped ? raw.replace(/[\s,.]/gu, "") : raw.replace(",", "."));
  return Number.isFinite(n) ? n : null;
}

function unitOf(raw: string): "years" | "months" | "hours" {
  const u = raw.toLowerCase();
  if (new RegExp(`^(?:${HOURS})$`, "iu").test(u)) return "hours";
  if (new RegExp(`^(?:${MONTHS})$`, "iu").test(u)) return "months";
  return "years";
}

/** A strict or inclusive comparison → an inclusive range, moving by `step` for strict ones. */
function bound(cmp: Cmp, n: number, step: number): { min?: number; max?: number } {
  const round = (x: number) => Math.round(x * 100) / 100;
  if (cmp === "gt") return { min: round(n + step) };
  if (cmp === "ge") return { min: n };
  if (cmp === "lt") return { max: round(n - step) };
  return { max: n };
}

function isAge(question: string, start: number, end: number): boolean {
  return AGE_AFTER.test(question.slice(end)) || AGE_BEFORE.test(question.slice(Math.max(0, start - 12), start));
}

function currencyOf(before: string | undefined, after: string | undefined): "pln" | "gbp" | undefined {
  const c = `${before ?? ""}${after ?? ""}`.toLowerCase();
  if (/£|gbp|pound|funt/u.test(c)) return "gbp";
  if (/zł|pln/u.test(c)) return "pln";
  return undefined;
}

/** The sentence lengths, hours and fine amounts the question states, in text order, without overlaps. */
export function findSentencePhrases(question: string, claimed: readonly [number, number][] = []): SentencePhrase[] {
  const taken: [number, number][] = [...claimed];
  const out: SentencePhrase[] = [];
  const free = (s: number, e: number) => !taken.some(([a, b]) => s < b && e > a);
  const push = (p: SentencePhrase) => {
    taken.push([p.start, p.end]);
    out.push(p);
  };
  const length = (unit: "years" | "months" | "hours", toRange: (perUnit: number, step: number) => { min?: number; max?: number }, start: number, end: number) => {
    if (!free(start, end)) return;
    if (unit === "hours") {
      if (!HOURS_CONTEXT.test(question)) return;
      push({ key: "sentence_community_hours", range: toRange(1, 1), ...withNearby(question, start, end, HOURS_CONTEXT, taken) });
      return;
    }
    if (isAge(question, start, end)) return;
    push({ key: "sentence_custody_months", range: toRange(unit === "years" ? 12 : 1, 1), start, end });
  };

  for (let m = reset(BETWEEN).exec(question); m; m = BETWEEN.exec(question)) {
    const [a, b] = [parseNumber(m[1]), parseNumber(m[3])];
    if (a === null || b === null) continue;
    // "2015-2020" without a unit is a date range (nl-filter-dates); here a unit always follows. "18 months to 3
    // years": each number in its own unit.
    const unit = unitOf(m[4]);
    const first = m[2] ? unitOf(m[2]) : unit;
    const perUnit = (u: string) => (u === "years" ? 12 : 1);
    const [lo, hi] = unit === "hours" ? [a, b] : [Math.round(a * perUnit(first)), Math.round(b * perUnit(unit))];
    if (lo > hi) continue;
    length(unit, () => ({ min: lo, max: hi }), m.index, m.index + m[0].length);
  }
  for (let m = reset(LENGTH_BEFORE).exec(question); m; m = LENGTH_BEFORE.exec(question)) {
    const cmp = cmpOf(m, 1, BEFORE);
    const n = parseNumber(m[1 + BEFORE.length]);
    if (!cmp || n === null) continue;
    length(unitOf(m[2 + BEFORE.length]), (k, step) => bound(cmp, Math.round(n * k), step), m.index, m.index + m[0].length);
  }
  for (let m = reset(LENGTH_AFTER).exec(question); m; m = LENGTH_AFTER.exec(question)) {
    const n = parseNumber(m[1]);
    const cmp = cmpOf(m, 3, AFTER);
    if (!cmp || n === null) continue;
    length(unitOf(m[2]), (k, step) => bound(cmp, Math.round(n * k), step), m.index, m.index + m[0].length);
  }
  for (let m = reset(LENGTH_ALONE).exec(question); m; m = LENGTH_ALONE.exec(question)) {
    const cmp = cmpOf(m, 1, BEFORE);
    if (!cmp) continue;
    length("years", (k, step) => bound(cmp, k, step), m.index, m.index + m[0].length);
  }
  if (FINE_WORD.test(question)) {
    for (let m = reset(AMOUNT_BEFORE).exec(question); m; m = AMOUNT_BEFORE.exec(question)) {
      const cmp = cmpOf(m, 1, BEFORE);
      const n = parseNumber(m[2 + BEFORE.length]);
      const start = m.index;
      const end = start + m[0].length;
      if (!cmp || n === null || !free(start, end)) continue;
      // The fine word must stand within a few words before the amount, or right after it ("over £500 fine").
      const near = `${question.slice(Math.max(0, start - 30), start)} ${question.slice(end, end + 12)}`;
      if (!FINE_WORD.test(near)) continue;
      const currency = currencyOf(m[1 + BEFORE.length], m[3 + BEFORE.length]);
      push({ key: "sentence_fine_amount", range: bound(cmp, n, 0.01), ...(currency ? { currency } : {}), ...withNearby(question, start, end, FINE_WORD, taken) });
    }
  }
  return out.sort((a, b) => a.start - b.start);
}

/**
 * The phrase's span grown over the word that made it a fine or unpaid work ("a fine of over £500", "200 hours of
 * unpaid work") when that word stands within a few words and is not read otherwise, so it does not go to the text.
 */
function withNearby(question: string, start: number, end: number, word: RegExp, taken: readonly [number, number][]): { start: number; end: number } {
  const re = new RegExp(word.source, "giu");
  let best: { start: number; end: number } = { start, end };
  for (let m = re.exec(question); m; m = re.exec(question)) {
    const s = m.index;
    const e = s + m[0].length;
    const gap = e <= start ? question.slice(e, start) : s >= end ? question.slice(end, s) : null;
    if (gap === null || gap.length > 24 || /[,;.]/u.test(gap)) continue;
    if (taken.some(([a, b]) => s < b && e > a)) continue;
    best = { start: Math.min(best.start, s), end: Math.max(best.end, e) };
  }
  return best;
}

function reset(re: RegExp): RegExp {
  re.lastIndex = 0;
  return re;
}

/** The phrases as filters: ranges on one key intersect ("over 2 years and under 5 years" → 25..59). */
export function sentenceFilters(phrases: readonly SentencePhrase[]): Record<string, unknown> {
  const out: Record<string, { min?: number; max?: number }> = {};
  const currency: Record<string, "pln" | "gbp"> = {};
  for (const p of phrases) {
    const prev = out[p.key] ?? {};
    const min = Math.max(prev.min ?? -Infinity, p.range.min ?? -Infinity);
    const max = Math.min(prev.max ?? Infinity, p.range.max ?? Infinity);
    out[p.key] = { ...(min > -Infinity ? { min } : {}), ...(max < Infinity ? { max } : {}) };
    if (p.currency) currency.sentence_fine_currency = p.currency;
  }
  return { ...out, ...(currency.sentence_fine_currency ? { sentence_fine_currency: [currency.sentence_fine_currency] } : {}) };
}
