/** Interface locales. The corpus itself is bilingual; this only picks the language of the interface text. */
export const LOCALES = ["en", "pl"] as const;
export type Locale = (typeof LOCALES)[number];
/** Cookie holding the chosen interface locale (readable by the server so the first paint is in the right language). */
export const LOCALE_COOKIE = "locale";

/** Replace `{name}` placeholders; dictionaries hold plain strings so they can cross the server → client boundary. */
export function fmt(template: string, vars: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => (key in vars ? String(vars[key]) : whole));
}

/** Locale-aware number formatting (thin spaces in Polish, commas in English). */
export function formatNumber(locale: Locale, n: number): string {
  return new Intl.NumberFormat(locale === "pl" ? "pl-PL" : "en-GB").format(n);
}

/** Dates are shown as day month year in the interface locale; ISO strings without a time are taken as UTC dates. */
export function formatDate(locale: Locale, iso: string | null | undefined): string {
  if (!iso) return "—";
  const d = new Date(/^\d{4}-\d{2}-\d{2}$/.test(iso) ? `${iso}T00:00:00Z` : iso);
  if (Number.isNaN(d.getTime())) return iso;
  return new Intl.DateTimeFormat(locale === "pl" ? "pl-PL" : "en-GB", { dateStyle: "medium", timeZone: "UTC" }).format(d);
}
