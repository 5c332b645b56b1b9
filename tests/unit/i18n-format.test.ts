import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatDate, formatNumber, formatPercent, intlLocale, LOCALES, type Locale } from "@/lib/i18n/locale";

// formatNumber and formatDate write whole numbers and dates out without Intl (P-76); these hold them to what Intl
// prints on Node's full ICU, so the text a browser hydrates is the text the server rendered, in every browser.
const numberFormats = new Map(LOCALES.map((l) => [l, new Intl.NumberFormat(intlLocale(l))]));
const dateFormats = new Map(LOCALES.map((l) => [l, new Intl.DateTimeFormat(intlLocale(l), { dateStyle: "medium", timeZone: "UTC" })]));
const percentFormats = new Map(LOCALES.map((l) => [l, new Intl.NumberFormat(intlLocale(l), { style: "percent", maximumFractionDigits: 1 })]));
const intlNumber = (locale: Locale, n: number) => numberFormats.get(locale)!.format(n);
const intlDate = (locale: Locale, d: Date) => dateFormats.get(locale)!.format(d);
const intlPercent = (locale: Locale, x: number) => percentFormats.get(locale)!.format(x);
const locale = fc.constantFrom(...LOCALES);

describe("formatNumber", () => {
  it("prints what Intl.NumberFormat prints for every safe integer, in both locales", () => {
    const integer = fc.oneof(
      fc.integer({ min: -99_999, max: 99_999 }),
      fc.integer(),
      fc.maxSafeInteger(),
      fc.constantFrom(Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, 0, 999, 1000, 9999, 10_000, -1000, -10_000),
    );
    fc.assert(fc.property(locale, integer, (l, n) => formatNumber(l, n) === intlNumber(l, n)), { numRuns: 20000 });
  });

  it("groups as each locale does: commas in English, no-break spaces from five digits in Polish", () => {
    expect(formatNumber("en", 1234)).toBe("1,234");
    expect(formatNumber("en", -1_234_567)).toBe("-1,234,567");
    expect(formatNumber("pl", 1234)).toBe("1234");
    expect(formatNumber("pl", 12_345)).toBe("12\u00a0345");
    expect(formatNumber("pl", 0)).toBe("0");
  });

  it("leaves fractions, -0 and unsafe integers to Intl", () => {
    fc.assert(
      fc.property(locale, fc.double({ noNaN: true }), (l, n) => formatNumber(l, n) === intlNumber(l, n)),
      { numRuns: 2000 },
    );
    for (const l of LOCALES) {
      expect(formatNumber(l, -0)).toBe(intlNumber(l, -0));
      expect(formatNumber(l, 2 ** 60)).toBe(intlNumber(l, 2 ** 60));
      expect(formatNumber(l, 12.345)).toBe(intlNumber(l, 12.345));
    }
  });
});

describe("formatDate", () => {
  it("prints what Intl's medium date prints (UTC) for every day of years 1000-9999, in both locales", () => {
    const day = fc.date({ min: new Date(Date.UTC(1000, 0, 1)), max: new Date(Date.UTC(9999, 11, 31, 23, 59, 59)), noInvalidDate: true });
    fc.assert(fc.property(locale, day, (l, d) => formatDate(l, d.toISOString()) === intlDate(l, d)), { numRuns: 20000 });
  });

  it("prints every month of a year as Intl does", () => {
    for (const l of LOCALES)
      for (let m = 0; m < 12; m++) {
        const d = new Date(Date.UTC(2021, m, 3));
        expect(formatDate(l, d.toISOString().slice(0, 10))).toBe(intlDate(l, d));
      }
    expect(formatDate("en", "2022-09-07")).toBe("7 Sept 2022");
    expect(formatDate("pl", "2021-10-31")).toBe("31 paź 2021");
  });

  it("takes a bare ISO date as a UTC day, keeps what it cannot read, and leaves other years to Intl", () => {
    expect(formatDate("en", "2020-01-01")).toBe("1 Jan 2020");
    expect(formatDate("en", "2020-01-01T23:30:00-05:00")).toBe("2 Jan 2020");
    expect(formatDate("pl", null)).toBe("—");
    expect(formatDate("pl", "")).toBe("—");
    expect(formatDate("en", "not a date")).toBe("not a date");
    const early = new Date(Date.UTC(999, 4, 6));
    expect(formatDate("en", early.toISOString())).toBe(intlDate("en", early));
  });
});

describe("formatPercent", () => {
  it("prints what Intl prints for any share, including the ties it rounds away from zero", () => {
    const share = fc.oneof(
      fc.double({ min: -2, max: 2, noNaN: true }),
      fc.double({ min: -1e6, max: 1e6, noNaN: true }),
      // A count over a total, what the aggregate panel shows.
      fc.tuple(fc.nat(100_000), fc.integer({ min: 1, max: 100_000 })).map(([k, n]) => Math.min(k, n) / n),
      // Exact halves of a tenth of a percent in binary (k/2000 is a tie only where the double is exact).
      fc.integer({ min: -4000, max: 4000 }).map((k) => k / 2000),
      fc.integer({ min: -4000, max: 4000 }).map((k) => k / 1024),
    );
    fc.assert(fc.property(locale, share, (l, x) => formatPercent(l, x) === intlPercent(l, x)), { numRuns: 20000 });
  });

  it("prints a share with at most one decimal, in each locale's own marks", () => {
    expect(formatPercent("en", 0.1234)).toBe("12.3%");
    expect(formatPercent("pl", 0.1234)).toBe("12,3%");
    expect(formatPercent("en", 1)).toBe("100%");
    expect(formatPercent("en", 0.0005)).toBe("0.1%");
    expect(formatPercent("pl", 123.4567)).toBe("12\u00a0345,7%");
    for (const l of LOCALES) for (const x of [0, -0, -0.0001, 0.00049, 1e-9, Infinity, -Infinity, NaN, 1e15, 1e20]) expect(formatPercent(l, x)).toBe(intlPercent(l, x));
  });
});
