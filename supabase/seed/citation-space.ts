/**
 * Which citations the generator gives corpus judgments and which its templates cite as outside authority: two
 * disjoint spaces, so a template's citation never names a generated judgment. (A UK template sentence cites R v
 * Chin-Charles [2019] EWCA Crim 1140; one generated judgment drew that neutral citation and every judgment quoting the
 * sentence became its citer, 4,703 of them.) And within the corpus, one number names one judgment: a citator resolves
 * a citation to one judgment (before gen-4, 347 neutral citations of the default corpus named two or three).
 *
 * - UK: a corpus judgment is `[year] EWCA Crim n` with n drawn in 1..UK_CITATION_MAX, and has the Court of Appeal case
 *   number `YYYY0ssss Ln` with the serial s drawn in UK_CASE_SERIALS. A draw that equals a neutral citation the
 *   sentence pools state moves to the next free number (no extra draw, so every other draw of the row and every
 *   planted answer stays as it was).
 * - PL: a corpus judgment is `II AKa n/yy` with n drawn in 1..PL_CASE_NUMBER_MAX (the same skip for a number a pool
 *   sentence states); the appellate judgments the templates cite at random ("wyrok Sądu Apelacyjnego w … z dnia …,
 *   II AKa n/yy", pl.ts `snCitation`) take n in PL_EXTERNAL_CASE_NUMBERS, above that range. The Supreme Court's
 *   numbers they cite (`V KK`, `I KZP`) are departments no corpus judgment has.
 * - Unique: each register (a year's EWCA Crim neutral citations, a year's Court of Appeal case serials, one appeal
 *   court's II AKa repertorium of one year: Polish numbers repeat across courts, as real ones do) gives a number once.
 *   Rows claim in index order (generate.ts `rowNumbers`), and a draw another row already holds moves to the next free
 *   number the same way, again without an extra draw: only the rows that collided change, and a row's numbers depend
 *   on the rows before it only, so every prefix of the corpus (the 600-row test slice) has the numbers the whole has.
 *   (A Court of Appeal case number's register is its year and list: `201901234 A1` and `201901234 B1` are two keys.)
 */
import { PL_POOLS, PL_WITNESS } from "./pools-pl";
import { UK_POOLS, UK_WITNESS } from "./pools-uk";

export const UK_CITATION_MAX = 2999;
export const PL_CASE_NUMBER_MAX = 620;
/** Case numbers of the appellate judgments the PL templates cite: outside every corpus judgment's. */
export const PL_EXTERNAL_CASE_NUMBERS = { min: PL_CASE_NUMBER_MAX + 1, max: PL_CASE_NUMBER_MAX + 590 } as const;

const sentences = (pools: Record<string, readonly string[]>, more: readonly string[]) => [...Object.values(pools).flat(), ...more];

/** "2019 1140" for each "[2019] EWCA Crim 1140" the UK sentence pools state. */
export const TEMPLATE_NEUTRAL_CITATIONS: ReadonlySet<string> = new Set(
  sentences(UK_POOLS, UK_WITNESS).flatMap((s) => [...s.matchAll(/\[(\d{4})\]\s+EWCA\s+Crim\s+(\d+)/g)].map((m) => `${Number(m[1])} ${Number(m[2])}`)),
);

/** "177/14" for each "II AKa 177/14" the PL sentence pools state. */
export const TEMPLATE_PL_CASE_NUMBERS: ReadonlySet<string> = new Set(
  sentences(PL_POOLS, PL_WITNESS).flatMap((s) => [...s.matchAll(/\bII\s+AKa\s+(\d+)\/(\d{2})\b/g)].map((m) => `${Number(m[1])}/${m[2]}`)),
);

/** Serials of the corpus's UK Court of Appeal case numbers (`2019 0ssss B1`, the serial zero-padded to five digits). */
export const UK_CASE_SERIALS = { min: 1000, max: 9999 } as const;

/** Where a register goes once its range is full (never at the default sizes): up, past every number templates cite. */
const OVERFLOW_MAX = 99_999;

/**
 * The numbers one register has given. `claim(drawn)` returns `drawn` when it is free, else the next free number after
 * it, wrapping within the range; only when the whole range is taken, the first free one of the overflow range.
 * "Next free" pointers (union-find with path compression) make a claim cost a few steps however full the register.
 */
export class NumberRegister {
  /** For each number taken (or reserved): a number above it, at or before the next free one. */
  private readonly after = new Map<number, number>();

  constructor(
    private readonly range: { min: number; max: number },
    private readonly overflow: { min: number; max: number },
    reserved: Iterable<number> = [],
  ) {
    for (const k of reserved) this.after.set(k, k + 1);
  }

  /** The first number at or after `n` that is neither taken nor reserved. */
  private freeFrom(n: number): number {
    let free = n;
    for (let next = this.after.get(free); next !== undefined; next = this.after.get(free)) free = next;
    for (let k = n; k !== free; ) {
      const next = this.after.get(k) as number;
      this.after.set(k, free);
      k = next;
    }
    return free;
  }

  /** Take the number a row that drew `drawn` gets; `drawn` itself (a duplicate) only when range and overflow are full. */
  claim(drawn: number): number {
    let k = this.freeFrom(drawn);
    if (k > this.range.max) k = this.freeFrom(this.range.min);
    if (k > this.range.max) k = this.freeFrom(this.overflow.min);
    if (k > this.overflow.max) return drawn;
    this.after.set(k, k + 1);
    return k;
  }
}

/** The reserved numbers of `set` ("year n" or "n/yy") by their year part. */
function byYear(set: ReadonlySet<string>, parse: (s: string) => [string, number]): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const s of set) {
    const [year, n] = parse(s);
    out.set(year, [...(out.get(year) ?? []), n]);
  }
  return out;
}
const RESERVED_NEUTRAL = byYear(TEMPLATE_NEUTRAL_CITATIONS, (s) => [s.split(" ")[0], Number(s.split(" ")[1])]);
const RESERVED_PL = byYear(TEMPLATE_PL_CASE_NUMBERS, (s) => [s.split("/")[1], Number(s.split("/")[0])]);

/** A year's EWCA Crim neutral citations (the ones the templates cite taken from the start). */
export function neutralCitationRegister(year: number): NumberRegister {
  return new NumberRegister({ min: 1, max: UK_CITATION_MAX }, { min: UK_CITATION_MAX + 1, max: OVERFLOW_MAX }, RESERVED_NEUTRAL.get(String(year)));
}

/**
 * The Court of Appeal case serials of one year (of the case number, `YYYY`) and list (`B1`): the whole number is the
 * key a citation of it resolves by (lib/search/citations `ukcase:2019 01234 b1`), so equal serials of two lists stay as
 * drawn (fewer rows move).
 */
export function ukCaseSerialRegister(): NumberRegister {
  return new NumberRegister(UK_CASE_SERIALS, { min: UK_CASE_SERIALS.max + 1, max: OVERFLOW_MAX });
}

/** One appeal court's II AKa numbers of year `yy` (the numbers the templates cite taken from the start). */
export function plCaseRegister(yy: string): NumberRegister {
  return new NumberRegister({ min: 1, max: PL_CASE_NUMBER_MAX }, { min: PL_EXTERNAL_CASE_NUMBERS.max + 1, max: OVERFLOW_MAX }, RESERVED_PL.get(yy));
}

/** The neutral citation number the first corpus judgment of `year` that drew `drawn` (1..UK_CITATION_MAX) gets. */
export function corpusCitationNumber(year: number, drawn: number): number {
  return neutralCitationRegister(year).claim(drawn);
}

/** The case number (n of `II AKa n/yy`) the first corpus judgment of its court and year `yy` that drew `drawn` gets. */
export function corpusCaseNumber(yy: string, drawn: number): number {
  return plCaseRegister(yy).claim(drawn);
}
