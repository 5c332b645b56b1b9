/** Small text helpers of the rules extractor: dates in Polish and English, title case, tidy names. Pure functions. */

const PL_MONTHS: Record<string, number> = {
  stycznia: 1, lutego: 2, marca: 3, kwietnia: 4, maja: 5, czerwca: 6, lipca: 7, sierpnia: 8, września: 9, października: 10, listopada: 11, grudnia: 12,
};
const EN_MONTHS: Record<string, number> = {
  january: 1, february: 2, march: 3, april: 4, may: 5, june: 6, july: 7, august: 8, september: 9, october: 10, november: 11, december: 12,
};

export const PL_DATE = String.raw`(\d{1,2})\s+(stycznia|lutego|marca|kwietnia|maja|czerwca|lipca|sierpnia|września|października|listopada|grudnia)\s+(\d{4})\s*r?\.?`;
export const EN_DATE = String.raw`(\d{1,2})(?:st|nd|rd|th)?\s+(January|February|March|April|May|June|July|August|September|October|November|December)\s+(\d{4})`;
export const NUM_DATE = String.raw`(\d{1,2})[/.](\d{1,2})[/.](\d{4})`;

function iso(y: number, m: number, d: number): string | null {
  if (m < 1 || m > 12 || d < 1 || d > 31) return null;
  const t = new Date(Date.UTC(y, m - 1, d));
  if (t.getUTCMonth() !== m - 1) return null; // 31 February and the like
  return `${y}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
}

/** The first date in `s` (Polish or English words, or dd/mm/yyyy) as YYYY-MM-DD, or null. */
export function parseDate(s: string): string | null {
  let m = new RegExp(PL_DATE, "iu").exec(s);
  if (m) return iso(Number(m[3]), PL_MONTHS[m[2].toLowerCase()] ?? 0, Number(m[1]));
  m = new RegExp(EN_DATE, "i").exec(s);
  if (m) return iso(Number(m[3]), EN_MONTHS[m[2].toLowerCase()] ?? 0, Number(m[1]));
  m = new RegExp(NUM_DATE).exec(s);
  if (m) return iso(Number(m[3]), Number(m[2]), Number(m[1]));
  return null;
}

const KEEP_UPPER = new Set(["KC", "QC", "DBE", "CBE", "OBE", "MBE", "VP", "LJ", "J"]);
const KEEP_LOWER = new Set(["of", "and", "the", "at", "de", "van", "von"]);

/** "HIS HONOUR JUDGE KESWICK KC" → "His Honour Judge Keswick KC". */
export function titleCase(s: string): string {
  return s
    .trim()
    .split(/\s+/)
    .map((w, i) => {
      if (KEEP_UPPER.has(w)) return w;
      const lower = w.toLowerCase();
      if (i > 0 && KEEP_LOWER.has(lower)) return lower;
      return lower.replace(/(^|[-'’(])(\p{L})/gu, (_, p: string, c: string) => p + c.toUpperCase());
    })
    .join(" ");
}

export const squash = (s: string) => s.replace(/\s+/g, " ").trim();

/** Unique values in first-seen order. */
export function unique<T>(xs: T[]): T[] {
  return [...new Set(xs)];
}
