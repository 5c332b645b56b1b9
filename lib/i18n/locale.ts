/** Interface locales. The corpus itself is bilingual; this only picks the language of the interface text. */
export const LOCALES = ["en", "pl"] as const;
export type Locale = (typeof LOCALES)[number];
/** Cookie holding the chosen interface locale (readable by the server so the first paint is in the right language). */
export const LOCALE_COOKIE = "locale";

/** Replace `{name}` placeholders; dictionaries hold plain strings so they can cross the server → client boundary. */
export function fmt(template: string, vars: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => (key in vars ? String(vars[key]) : whole));
}

/** The BCP 47 tag Intl gets for an interface locale. */
export const intlLocale = (locale: Locale) => (locale === "pl" ? "pl-PL" : "en-GB");

/**
 * One Intl formatter per locale, made on first use, for what the functions below leave to Intl: building one costs
 * ~0.1 ms on the server (ICU data lookup) and much more in a browser (below), formatting with one ~1 µs.
 */
function perLocale<F>(make: (tag: string) => F): (locale: Locale) => F {
  const made = new Map<Locale, F>();
  return (locale) => {
    let f = made.get(locale);
    if (!f) made.set(locale, (f = make(intlLocale(locale))));
    return f;
  };
}

const numberFormat = perLocale((tag) => new Intl.NumberFormat(tag));
const percentFormat = perLocale((tag) => new Intl.NumberFormat(tag, { style: "percent", maximumFractionDigits: 1 }));
const dateFormat = perLocale((tag) => new Intl.DateTimeFormat(tag, { dateStyle: "medium", timeZone: "UTC" }));
const dateTimeFormat = perLocale((tag) => new Intl.DateTimeFormat(tag, { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }));
const pluralRules = perLocale((tag) => new Intl.PluralRules(tag));

/*
 * Whole numbers, shares and dates, what the result pages show, are written out here rather than by Intl (P-76).
 * In a browser the first Intl.DateTimeFormat costs 28-80 ms of main-thread time and the first NumberFormat 3-10 ms
 * (measured in the bench Chromium: ICU's pattern generator is built on first use), and a hydrating result page paid
 * both before its first paint was shown. Written out, the text is also the same on the server and in every browser,
 * whatever ICU each carries. tests/unit/i18n-format.test.ts holds all three to Intl's output on Node's full ICU.
 * The plural category of a count is picked the same way (`plural` below): written out for whole numbers, Intl's
 * PluralRules (which builds a number formatter of its own) for the rest.
 */

/**
 * Number marks as CLDR has them: en-GB a comma every three digits and a point; pl-PL a no-break space, only from
 * five digits up, and a comma.
 */
const MARKS: Record<Locale, { group: string; groupFrom: number; decimal: string }> = {
  en: { group: ",", groupFrom: 4, decimal: "." },
  pl: { group: "\u00a0", groupFrom: 5, decimal: "," },
};

/** CLDR's abbreviated month names (format context), as dateStyle "medium" prints them. */
const MONTHS: Record<Locale, readonly string[]> = {
  en: ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sept", "Oct", "Nov", "Dec"],
  pl: ["sty", "lut", "mar", "kwi", "maj", "cze", "lip", "sie", "wrz", "paź", "lis", "gru"],
};

function groupDigits(locale: Locale, digits: string): string {
  const { group, groupFrom } = MARKS[locale];
  if (digits.length < groupFrom) return digits;
  let out = digits.slice(0, digits.length % 3 || 3);
  for (let i = out.length; i < digits.length; i += 3) out += group + digits.slice(i, i + 3);
  return out;
}

/** Locale-aware number formatting (no-break spaces in Polish, commas in English). */
export function formatNumber(locale: Locale, n: number): string {
  // Fractions, -0 and integers beyond 2^53 keep Intl's rounding and notation.
  if (!Number.isSafeInteger(n) || Object.is(n, -0)) return numberFormat(locale).format(n);
  const grouped = groupDigits(locale, String(Math.abs(n)));
  return n < 0 ? `-${grouped}` : grouped;
}

/** `digits` (a whole number) plus one, in decimal. */
function increment(digits: string): string {
  let i = digits.length - 1;
  while (i >= 0 && digits[i] === "9") i--;
  return i < 0 ? `1${"0".repeat(digits.length)}` : digits.slice(0, i) + String(Number(digits[i]) + 1) + "0".repeat(digits.length - i - 1);
}

/**
 * |x| × 100 in tenths, rounded half away from zero, as a digit string. Like ICU, this starts from the shortest decimal
 * that reads back as x (what String(x) prints), not from the double's exact binary value: 1.8455 is 184.6 %, though
 * the double is 1.84549999…; and the × 100 is a shift of the decimal point, never a float multiplication.
 */
function percentTenths(x: number): string {
  const m = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(Math.abs(x)));
  if (!m) throw new Error(`unexpected number text ${String(x)}`);
  const digits = m[1] + (m[2] ?? "");
  const point = m[1].length + Number(m[3] ?? 0) + 2;
  const padded = point <= 0 ? "0".repeat(1 - point) + digits : digits.padEnd(point + 1, "0");
  const at = Math.max(point, 1);
  const kept = padded.slice(0, at + 1);
  const tenths = (padded[at + 1] ?? "0") >= "5" ? increment(kept) : kept;
  return tenths.replace(/^0+(?=\d{2})/, "");
}

/** A share (0.25 → "25%"), at most one decimal. */
export function formatPercent(locale: Locale, share: number): string {
  if (!Number.isFinite(share)) return percentFormat(locale).format(share);
  const tenths = percentTenths(share);
  const tenth = tenths.slice(-1);
  const sign = share < 0 || Object.is(share, -0) ? "-" : "";
  return `${sign}${groupDigits(locale, tenths.slice(0, -1))}${tenth === "0" ? "" : MARKS[locale].decimal + tenth}%`;
}

/** The parsed date of an ISO string (a bare date is a UTC date), or null when it does not read as one. */
function parseIso(iso: string): Date | null {
  const d = new Date(/^\d{4}-\d{2}-\d{2}$/.test(iso) ? `${iso}T00:00:00Z` : iso);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** Dates are shown as day month year in the interface locale; ISO strings without a time are taken as UTC dates. */
export function formatDate(locale: Locale, iso: string | null | undefined): string {
  if (!iso) return "—";
  const d = parseIso(iso);
  if (!d) return iso;
  const year = d.getUTCFullYear();
  // Years outside four digits (none in the corpus) keep Intl's era and padding rules.
  if (year < 1000 || year > 9999) return dateFormat(locale).format(d);
  return `${d.getUTCDate()} ${MONTHS[locale][d.getUTCMonth()]} ${year}`;
}

/**
 * A moment (an ISO timestamp) as date and time of day in UTC, e.g. "7 Dec 2026, 02:05 UTC": the same on the server
 * and in every browser whatever its time zone, so a server-rendered time does not change on hydration.
 */
export function formatDateTime(locale: Locale, iso: string | null | undefined): string {
  if (!iso) return "—";
  const d = parseIso(iso);
  if (!d) return iso;
  const year = d.getUTCFullYear();
  const time = `${String(d.getUTCHours()).padStart(2, "0")}:${String(d.getUTCMinutes()).padStart(2, "0")}`;
  if (year < 1000 || year > 9999) return `${dateTimeFormat(locale).format(d)} UTC`;
  return `${d.getUTCDate()} ${MONTHS[locale][d.getUTCMonth()]} ${year}, ${time} UTC`;
}

/*
 * Counted messages. A message that puts a number before a noun holds one form per CLDR plural category of the
 * interface language instead of one string: English one/other, Polish one/few/many/other ("1 orzeczenie",
 * "2 orzeczenia", "5 orzeczeń", "1,5 orzeczenia"). `{count}` in a form is filled with the formatted number.
 */

/** The forms of a counted message in the English dictionary. */
export interface CountedEn {
  one: string;
  other: string;
}
/** The forms of a counted message in the Polish dictionary: all four of Polish's categories. */
export interface CountedPl extends CountedEn {
  few: string;
  many: string;
}
/** A counted message of either dictionary, as a component holds it. */
export type Counted = CountedEn & Partial<CountedPl>;

/**
 * The Polish dictionary's type made from the English one: every counted message (an object with `one` and `other`)
 * must carry all four Polish forms, every other message stays a string.
 */
export type PolishOf<T> = T extends CountedEn ? CountedPl : T extends string ? string : { [K in keyof T]: PolishOf<T[K]> };

type Category = "one" | "few" | "many" | "other";

/** CLDR's plural category of a count; whole numbers written out (P-76), anything else left to Intl.PluralRules. */
export function pluralCategory(locale: Locale, count: number): Category {
  if (!Number.isSafeInteger(count) || count < 0) return pluralRules(locale).select(count) as Category;
  if (count === 1) return "one";
  if (locale === "en") return "other";
  const last = count % 10;
  const lastTwo = count % 100;
  return last >= 2 && last <= 4 && !(lastTwo >= 12 && lastTwo <= 14) ? "few" : "many";
}

/**
 * The form of a counted message for `count`, with `{count}` filled by the number in the interface locale and other
 * placeholders from `vars` (a `count` in `vars` replaces the formatted number, e.g. for "about 1,200").
 */
export function plural(locale: Locale, count: number, forms: Counted, vars: Record<string, string | number> = {}): string {
  const form = forms[pluralCategory(locale, count)] ?? forms.other;
  return fmt(form, { count: formatNumber(locale, count), ...vars });
}
