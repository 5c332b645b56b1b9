import fc from "fast-check";
import { createElement, type ComponentProps } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { JobProgress } from "@/components/extraction/job-progress";
import { composeDigest } from "@/lib/backend/alerts/digest";
import type { ExtractionJob } from "@/lib/backend/extraction-jobs/types";
import { I18nProvider } from "@/lib/i18n/client";
import { en, type Messages } from "@/lib/i18n/en";
import { formatDateTime, intlLocale, LOCALES, plural, pluralCategory, type CountedEn, type Locale, type PolishOf } from "@/lib/i18n/locale";
import { pl } from "@/lib/i18n/pl";

// pluralCategory writes CLDR's rules out for whole numbers (as formatNumber does, P-76); this holds it to
// Intl.PluralRules on Node's full ICU, so server and browser pick the same form.
const rules = new Map(LOCALES.map((l) => [l, new Intl.PluralRules(intlLocale(l))]));
const locale = fc.constantFrom(...LOCALES);

describe("pluralCategory", () => {
  it("is Intl.PluralRules' category for every integer and fraction, in both locales", () => {
    const n = fc.oneof(
      fc.integer({ min: 0, max: 1_000 }),
      fc.integer(),
      fc.maxSafeInteger(),
      fc.double({ noNaN: true }),
      fc.constantFrom(0, 1, 2, 4, 5, 11, 12, 14, 21, 22, 101, 111, 112, 122, 1.5, -1, -2, Number.MAX_SAFE_INTEGER + 2),
    );
    fc.assert(fc.property(locale, n, (l, x) => pluralCategory(l, x) === rules.get(l)!.select(x)), { numRuns: 20000 });
  });
});

describe("plural", () => {
  it("English: one judgment, other judgments, with the number grouped", () => {
    const forms = en.coll.count;
    expect([0, 1, 2, 5, 22, 1234].map((n) => plural("en", n, forms))).toEqual([
      "0 judgments",
      "1 judgment",
      "2 judgments",
      "5 judgments",
      "22 judgments",
      "1,234 judgments",
    ]);
    expect(plural("en", 1, en.accounts.saved.uses)).toBe("Used 1 time");
    expect(plural("en", 3, en.accounts.saved.uses)).toBe("Used 3 times");
  });

  it("Polish: one / few / many / other, as CLDR has them", () => {
    const forms = pl.coll.count;
    const cases: [number, string][] = [
      [1, "1 orzeczenie"],
      [2, "2 orzeczenia"],
      [5, "5 orzeczeń"],
      [22, "22 orzeczenia"],
      [0, "0 orzeczeń"],
      [12, "12 orzeczeń"],
      [21, "21 orzeczeń"],
      [101, "101 orzeczeń"],
      [112, "112 orzeczeń"],
      [1.5, "1,5 orzeczenia"],
      [12_344, "12\u00a0344 orzeczenia"],
    ];
    for (const [n, text] of cases) expect(plural("pl", n, forms)).toBe(text);
    expect([1, 2, 5, 22].map((n) => plural("pl", n, pl.accounts.settings.dimensions))).toEqual(["1 wymiar", "2 wymiary", "5 wymiarów", "22 wymiary"]);
    expect([1, 2, 5].map((n) => plural("pl", n, pl.accounts.saved.uses))).toEqual(["Użyte 1 raz", "Użyte 2 razy", "Użyte 5 razy"]);
  });

  it("fills other placeholders, and a `count` among them replaces the number", () => {
    expect(plural("pl", 22, pl.extraction.progressLabel, { done: "5" })).toBe("5 z 22 dokumentów");
    expect(plural("pl", 1, pl.extraction.progressLabel, { done: "0" })).toBe("0 z 1 dokumentu");
    expect(plural("en", 0, en.extr.saveTooLarge, { count: "?", cap: "5,000" })).toBe(
      "This filter matches ? judgments, more than the 5,000 a collection can be created from. Narrow the filter.",
    );
  });
});

/** Every counted message of a dictionary (an object with `one` and `other`), by its path. */
function countedMessages(node: unknown, path = ""): Map<string, Record<string, string>> {
  const out = new Map<string, Record<string, string>>();
  if (!node || typeof node !== "object") return out;
  if ("one" in node && "other" in node) return out.set(path, node as Record<string, string>);
  for (const [k, v] of Object.entries(node)) for (const [p, m] of countedMessages(v, path ? `${path}.${k}` : k)) out.set(p, m);
  return out;
}

/** Every plain string of a dictionary, by its path. */
function plainMessages(node: unknown, path = "", out = new Map<string, string>()): Map<string, string> {
  if (typeof node === "string") out.set(path, node);
  else if (node && typeof node === "object" && !("one" in node && "other" in node))
    for (const [k, v] of Object.entries(node)) plainMessages(v, path ? `${path}.${k}` : k, out);
  return out;
}

const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe("the dictionaries' counted messages", () => {
  const enCounted = countedMessages(en);
  const plCounted = countedMessages(pl);

  it("are the same messages in both languages, English with one/other and Polish with one/few/many/other", () => {
    expect(enCounted.size).toBeGreaterThan(35);
    expect([...plCounted.keys()].sort()).toEqual([...enCounted.keys()].sort());
    for (const [path, forms] of enCounted) expect(Object.keys(forms).sort(), path).toEqual(["one", "other"]);
    for (const [path, forms] of plCounted) expect(Object.keys(forms).sort(), path).toEqual(["few", "many", "one", "other"]);
  });

  it("put the number in every form and take the same placeholders in every form of both languages", () => {
    for (const [path, enForms] of enCounted) {
      const expected = placeholders(enForms.other);
      expect(expected, path).toContain("count");
      for (const form of [...Object.values(enForms), ...Object.values(plCounted.get(path)!)]) {
        expect(form.trim(), path).not.toBe("");
        expect(placeholders(form), `${path}: ${form}`).toEqual(expected);
      }
    }
  });

  it("leave {count} in a plain string only where no noun follows the number", () => {
    // A count in brackets, a count after a verb, "N×": nothing to agree with; anything else must be a counted message.
    const bare = [...plainMessages(en)].filter(([, s]) => s.includes("{count}")).map(([p]) => p).sort();
    expect(bare).toEqual([
      "analysis.judges.evidencePhrase",
      "analysis.topics.clicks",
      "assistantTools.analyseSelected",
      "assistants.chat.filtersActive",
      "citations.citedBy",
      "citations.cites",
      "coll.removeSelected",
    ]);
  });

  it("leave no placeholder right before a plural English noun in a plain string", () => {
    // "{x} judgments" in a plain string is a count that reads "1 judgments"; "{ms} ms" is a unit, "is" a verb.
    const suspect = [...plainMessages(en)].filter(([, s]) => /\{(?!ms\})\w+\} (?!is\b)[a-z]+s\b/.test(s)).map(([p, s]) => `${p}: ${s}`);
    expect(suspect).toEqual([]);
  });

  it("cannot be written in Polish without all four forms (a type error, checked by tsc)", () => {
    // @ts-expect-error few and many are missing
    const missing: PolishOf<{ size: CountedEn }> = { size: { one: "{count} orzeczenie", other: "{count} orzeczenia" } };
    const complete: PolishOf<{ size: CountedEn }> = { size: { one: "{count} orzeczenie", few: "{count} orzeczenia", many: "{count} orzeczeń", other: "{count} orzeczenia" } };
    expect(plural("pl", 5, complete.size)).toBe("5 orzeczeń");
    expect(plural("pl", 5, missing.size)).toBe("5 orzeczenia");
  });

  it("plain strings take the same placeholders in both languages", () => {
    const plPlain = plainMessages(pl);
    for (const [path, s] of plainMessages(en)) expect(placeholders(plPlain.get(path) ?? ""), path).toEqual(placeholders(s));
  });
});

describe("formatDateTime", () => {
  // Written out like formatDate (P-76); in UTC, so the server's text is the browser's whatever its time zone.
  const intl = new Map(LOCALES.map((l) => [l, new Intl.DateTimeFormat(intlLocale(l), { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" })]));
  it("prints Intl's medium date and short time in UTC, marked UTC, in both locales", () => {
    const moment = fc.date({ min: new Date("1000-01-01T00:00:00Z"), max: new Date("9999-12-31T23:59:59Z"), noInvalidDate: true });
    fc.assert(
      fc.property(locale, moment, (l, d) => formatDateTime(l, d.toISOString()) === `${intl.get(l)!.format(d)} UTC`),
      { numRuns: 5000 },
    );
    expect(formatDateTime("en", "2026-12-07T02:05:09Z")).toBe("7 Dec 2026, 02:05 UTC");
    expect(formatDateTime("pl", "2026-12-07T02:05:09+01:00")).toBe("7 gru 2026, 01:05 UTC");
    expect(formatDateTime("pl", null)).toBe("—");
    expect(formatDateTime("en", "not a date")).toBe("not a date");
  });
});

describe("counted strings as the reader sees them", () => {
  const job = (done: number, total: number): ExtractionJob => ({
    job_id: "j",
    status: "running",
    mode: "rules",
    schema: { id: null, key: "base", name: "Base", version: 1 },
    progress: { total, done, failed: 0, skipped: 0 },
    cancel_requested: false,
    writes_judgments: false,
    created_at: "2026-12-07T00:00:00Z",
    started_at: null,
    finished_at: null,
    error: null,
    reason: null,
  });
  const render = (l: Locale, messages: Messages, j: ExtractionJob) =>
    // children go as createElement's third argument (lint), which its props type does not see
    renderToStaticMarkup(createElement(I18nProvider, { locale: l, messages } as ComponentProps<typeof I18nProvider>, createElement(JobProgress, { job: j })));

  it("the extraction job's progress line (a real component, server-rendered) agrees with its total", () => {
    expect(render("pl", pl, job(5, 22))).toContain("5 z 22 dokumentów");
    expect(render("pl", pl, job(0, 1))).toContain("0 z 1 dokumentu");
    expect(render("en", en, job(0, 1))).toContain("0 of 1 document<");
    expect(render("en", en, job(3, 5))).toContain("3 of 5 documents");
  });

  it("the alert digest mail counts new judgments in the reader's language", () => {
    const section = (items: number, total: number, language: string) => ({
      search: {
        id: "0b5f8f0e-6a53-4f0c-9d1e-2f5d8b1a7c11",
        user_id: "u",
        name: "Kradzież",
        kind: "search" as const,
        query: "",
        params: { url: "?q=x" },
        since: new Date(),
        nonce: "9a1c2b3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d",
        email: "r@example.org",
        language,
      },
      items: Array.from({ length: items }, (_, i) => ({ id: `id-${i}`, title: `T${i}`, case_number: null, decision_date: "2019-05-01" })),
      total,
    });
    const mail = (items: number, total: number, language: string) =>
      composeDigest([section(items, total, language)], { appUrl: "https://app.example", tokenSecret: "a-test-secret-of-enough-length", to: "r@example.org", language });
    expect(mail(2, 2, "pl").subject).toBe("2 nowe orzeczenia dla zapisanych wyszukiwań");
    expect(mail(5, 5, "pl").subject).toBe("5 nowych orzeczeń dla zapisanych wyszukiwań");
    expect(mail(5, 22, "pl").text).toContain("5 z 22 nowych orzeczeń");
    expect(mail(1, 1, "pl").text).toContain("1 z 1 nowego orzeczenia");
    expect(mail(1, 1, "pl").text).toContain("T0 · 1 maj 2019");
    expect(mail(2, 2, "en").subject).toBe("2 new judgments for your saved searches");
    expect(mail(1, 1, "en").text).toContain("1 of 1 new judgment)");
  });
});
