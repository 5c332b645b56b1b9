/** Small text helpers shared by the Polish and English renderers of the demo corpus. */
import type { Rng } from "../../lib/analysis/prng";

/** Fill {slot} markers from a table; unknown slots are left visible so a template bug shows in review. */
export function fill(template: string, slots: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) => (k in slots ? slots[k] : m));
}

/** Genders a sentence can refer to: the offender, the victim and (in witness sentences) the witness. */
export interface Genders {
  offender: boolean;
  victim: boolean;
  witness?: boolean;
}

/** Resolve gender markers: [male/female] for the offender, <male/female> for the victim, "(a)" for the witness. */
export function gender(text: string, g: Genders): string {
  return text
    .replace(/\[([^\]/]*)\/([^\]]*)\]/g, (_m, a: string, b: string) => (g.offender ? b : a))
    .replace(/<([^>/]*)\/([^>]*)>/g, (_m, a: string, b: string) => (g.victim ? b : a))
    .replace(/\(a\)/g, g.witness ? "a" : "");
}

/** A paragraph: `n` distinct sentences from a pool, each filled and gendered. */
export function paragraph(rng: Rng, pool: readonly string[], n: number, slots: Record<string, string>, g: Genders): string {
  return rng
    .sample(pool, n)
    .map((s) => gender(fill(s, slots), g))
    .join(" ");
}

/** Day offset from a UTC date. */
export function addDays(d: Date, days: number): Date {
  return new Date(d.getTime() + days * 86_400_000);
}

export function isoDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}

const PL_MONTHS_GEN = [
  "stycznia", "lutego", "marca", "kwietnia", "maja", "czerwca", "lipca", "sierpnia", "września", "października", "listopada", "grudnia",
];
const EN_MONTHS = [
  "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December",
];

/** "14 marca 2019 r." */
export function plDate(d: Date): string {
  return `${d.getUTCDate()} ${PL_MONTHS_GEN[d.getUTCMonth()]} ${d.getUTCFullYear()} r.`;
}

/** "14 March 2019" */
export function enDate(d: Date): string {
  return `${d.getUTCDate()} ${EN_MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

/** Polish custodial term in the genitive as judgments write it: "2 lat i 6 miesięcy", "1 roku", "8 miesięcy". */
export function plTerm(months: number): string {
  const y = Math.floor(months / 12);
  const m = months % 12;
  const years = y === 0 ? "" : y === 1 ? "1 roku" : `${y} lat`;
  const mon = m === 0 ? "" : m === 1 ? "1 miesiąca" : `${m} miesięcy`;
  return years && mon ? `${years} i ${mon}` : years || mon;
}

/** English custodial term: "6 years' imprisonment", "18 months' imprisonment", "4 years and 6 months' imprisonment". */
export function enTerm(months: number): string {
  const y = Math.floor(months / 12);
  const m = months % 12;
  if (y === 0) return `${m} months' imprisonment`;
  const years = y === 1 ? "1 year" : `${y} years`;
  return m === 0 ? `${years}' imprisonment`.replace("1 year'", "12 months'") : `${years} and ${m} months' imprisonment`;
}

/** Polish "lat"/"lata" after a number of years: 2-4 (but not 12-14) take "lata". */
export function plYears(n: number): string {
  const last = n % 10;
  const lastTwo = n % 100;
  return `${n} ${n === 1 ? "rok" : last >= 2 && last <= 4 && !(lastTwo >= 12 && lastTwo <= 14) ? "lata" : "lat"}`;
}

/** Polish accusative of a feminine noun phrase ending in -a (amfetamina → amfetaminę); others unchanged. */
export function plAccusative(s: string): string {
  return /^\S+a$/.test(s) ? s.replace(/a$/, "ę") : s;
}

/** "123/19" style number with a two-digit year. */
export function yy(year: number): string {
  return String(year % 100).padStart(2, "0");
}

export function roman(n: number): string {
  return ["", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X"][n] ?? String(n);
}

/** Format an amount with a space as the thousands separator (Polish) or a comma (English). */
export function amount(n: number, lang: "pl" | "en"): string {
  const s = Math.round(n).toString();
  return s.replace(/\B(?=(\d{3})+(?!\d))/g, lang === "pl" ? " " : ",");
}
