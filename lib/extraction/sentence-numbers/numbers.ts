/**
 * Numbers and durations as Polish and English judgments write them: digits ("3 lat"), digits with the words in
 * brackets ("2 (dwóch) lat", "6 (słownie: sześciu) miesięcy"), number words in any case ("trzech lat", "jednego
 * roku", "two years", "eighteen months"), "półtora roku", "two and a half years". Pure functions, no I/O.
 *
 * A number never starts inside another number or word: "8 lat" is not found in "18 lat" (the look-behind below).
 */

const PL_UNITS: [number, string[]][] = [
  [1, ["jeden", "jedna", "jedno", "jednego", "jednej", "jednym", "jednemu", "jedną"]],
  [2, ["dwa", "dwie", "dwóch", "dwu", "dwoma", "dwom"]],
  [3, ["trzy", "trzech", "trzema", "trzem"]],
  [4, ["cztery", "czterech", "czterema", "czterem"]],
  [5, ["pięć", "pięciu"]],
  [6, ["sześć", "sześciu"]],
  [7, ["siedem", "siedmiu"]],
  [8, ["osiem", "ośmiu"]],
  [9, ["dziewięć", "dziewięciu"]],
];
const PL_TEENS: [number, string[]][] = [
  [10, ["dziesięć", "dziesięciu"]],
  [11, ["jedenaście", "jedenastu"]],
  [12, ["dwanaście", "dwunastu"]],
  [13, ["trzynaście", "trzynastu"]],
  [14, ["czternaście", "czternastu"]],
  [15, ["piętnaście", "piętnastu"]],
  [16, ["szesnaście", "szesnastu"]],
  [17, ["siedemnaście", "siedemnastu"]],
  [18, ["osiemnaście", "osiemnastu"]],
  [19, ["dziewiętnaście", "dziewiętnastu"]],
];
const PL_TENS: [number, string[]][] = [
  [20, ["dwadzieścia", "dwudziestu"]],
  [30, ["trzydzieści", "trzydziestu"]],
  [40, ["czterdzieści", "czterdziestu"]],
  [50, ["pięćdziesiąt", "pięćdziesięciu"]],
  [60, ["sześćdziesiąt", "sześćdziesięciu"]],
  [70, ["siedemdziesiąt", "siedemdziesięciu"]],
  [80, ["osiemdziesiąt", "osiemdziesięciu"]],
  [90, ["dziewięćdziesiąt", "dziewięćdziesięciu"]],
];
const PL_HUNDREDS: [number, string[]][] = [
  [100, ["sto", "stu"]],
  [200, ["dwieście", "dwustu"]],
  [300, ["trzysta", "trzystu"]],
  [400, ["czterysta", "czterystu"]],
  [500, ["pięćset", "pięciuset"]],
];

const EN_UNITS: [number, string[]][] = [
  [1, ["one", "a"]],
  [2, ["two"]],
  [3, ["three"]],
  [4, ["four"]],
  [5, ["five"]],
  [6, ["six"]],
  [7, ["seven"]],
  [8, ["eight"]],
  [9, ["nine"]],
];
const EN_TEENS: [number, string[]][] = [
  [10, ["ten"]],
  [11, ["eleven"]],
  [12, ["twelve"]],
  [13, ["thirteen"]],
  [14, ["fourteen"]],
  [15, ["fifteen"]],
  [16, ["sixteen"]],
  [17, ["seventeen"]],
  [18, ["eighteen"]],
  [19, ["nineteen"]],
];
const EN_TENS: [number, string[]][] = [
  [20, ["twenty"]],
  [30, ["thirty"]],
  [40, ["forty"]],
  [50, ["fifty"]],
  [60, ["sixty"]],
  [70, ["seventy"]],
  [80, ["eighty"]],
  [90, ["ninety"]],
];

const WORD_VALUE = new Map<string, number>();
for (const table of [PL_UNITS, PL_TEENS, PL_TENS, PL_HUNDREDS, EN_UNITS, EN_TEENS, EN_TENS])
  for (const [n, words] of table) for (const w of words) WORD_VALUE.set(w, n);

const alt = (words: string[]) => [...words].sort((a, b) => b.length - a.length).join("|");
const ALL_WORDS = alt([...WORD_VALUE.keys()].filter((w) => w !== "a"));

/** A number written as a word or words ("dwudziestu pięciu", "twenty-four", "sto dwadzieścia"). */
const WORD_NUMBER = String.raw`(?:${ALL_WORDS})(?:[\s-]+(?:${ALL_WORDS}))*`;
/** Digits, optionally with thousands separators and the words in brackets after them. */
const DIGIT_NUMBER = String.raw`\d{1,3}(?:[  .,]\d{3})+(?![\d])|\d+(?:[.,]\d+)?`;
const BRACKETED = String.raw`(?:\s*\(\s*(?:słownie\s*:?\s*)?[\p{L}\s-]+\))?`;

/** A number token: digits (with an optional bracketed spelling) or number words; never the tail of a longer number. */
export const NUMBER = String.raw`(?<![\p{L}\d.,])(?:(?:${DIGIT_NUMBER})${BRACKETED}|${WORD_NUMBER}|półtora|półtorej)(?![\p{L}\d])`;

/** The value of a number token matched by NUMBER. */
export function parseNumber(token: string): number | null {
  const t = token.toLowerCase().replace(/\(.*\)\s*$/su, "").trim();
  if (t === "półtora" || t === "półtorej") return 1.5;
  if (/^\d/.test(t)) {
    // "1 500" / "1.500" / "1,500" thousands; "2,5" / "2.5" a decimal.
    if (/^\d{1,3}(?:[  .,]\d{3})+$/.test(t)) return Number(t.replace(/[  .,]/g, ""));
    const n = Number(t.replace(",", "."));
    return Number.isFinite(n) ? n : null;
  }
  let total = 0;
  for (const w of t.split(/[\s-]+/)) {
    const v = WORD_VALUE.get(w);
    if (v === undefined) return null;
    total += v;
  }
  return total;
}

const PL_YEAR = String.raw`(?:lat|lata|latach|rok|roku|roków)`;
const PL_MONTH = String.raw`(?:miesięcy|miesiące|miesiąca|miesiąc|miesiącach|mies\.)`;
const PL_WEEK = String.raw`(?:tygodni|tygodnie|tydzień|tygodnia)`;
const EN_YEAR = String.raw`(?:years?)`;
const EN_MONTH = String.raw`(?:months?)`;
const EN_WEEK = String.raw`(?:weeks?)`;
const APOS = String.raw`(?:['’]s?)?`;
const HALF_EN = String.raw`(?:\s+and\s+a\s+half)`;

/**
 * A length of time: "3 lat i 6 miesięcy", "1 (jednego) roku", "8 miesięcy", "4 years and 6 months", "two and a half
 * years", "30 months", "16 weeks". Groups: y (years), h (and a half), m (months), w (weeks).
 */
export const DURATION = String.raw`(?:(?<y>${NUMBER}|(?<![\p{L}])an?)(?<h>${HALF_EN})?\s+(?:${PL_YEAR}|${EN_YEAR})(?![\p{L}])${APOS}(?:,?\s+(?:i|and)\s+(?<m>${NUMBER})\s+(?:${PL_MONTH}|${EN_MONTH})(?![\p{L}])${APOS})?|(?<m2>${NUMBER})\s+(?:${PL_MONTH}|${EN_MONTH})(?![\p{L}])${APOS}|(?<w>${NUMBER})\s+(?:${PL_WEEK}|${EN_WEEK})(?![\p{L}])${APOS})`;

export interface Duration {
  months: number;
  start: number;
  end: number;
  text: string;
}

/** Rounded to one decimal: weeks become fractions of a month (52 weeks = 12 months). */
const round1 = (n: number) => Math.round(n * 10) / 10;

/** Months of a DURATION match. */
export function durationMonths(groups: Record<string, string | undefined>): number | null {
  if (groups.w) {
    const w = parseNumber(groups.w);
    return w === null ? null : round1((w * 12) / 52);
  }
  if (groups.m2) return parseNumber(groups.m2);
  if (!groups.y) return null;
  const y = /^an?$/i.test(groups.y) ? 1 : parseNumber(groups.y);
  if (y === null) return null;
  const m = groups.m ? parseNumber(groups.m) : 0;
  if (m === null) return null;
  return round1(y * 12 + (groups.h ? 6 : 0) + m);
}

/** Every length of time in `s`, in order, with offsets into `s`. */
const UNIT_WORD = /(?:lat|lata|rok|roku|miesi|mies\.|tydzie|tygodn|year|month|week)/iu;

export function findDurations(s: string): Duration[] {
  const out: Duration[] = [];
  // Cheap test first: most passages name no unit of time, and the full pattern is costly to try at every position.
  if (!UNIT_WORD.test(s)) return out;
  for (const m of s.matchAll(new RegExp(DURATION, "giu"))) {
    const months = durationMonths(m.groups ?? {});
    if (months === null || months <= 0 || months > 1200) continue; // "w 2019 roku" is a date, not a term
    const start = m.index ?? 0;
    out.push({ months, start, end: start + m[0].length, text: m[0] });
  }
  return out;
}
