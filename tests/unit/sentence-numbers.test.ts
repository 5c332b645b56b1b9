import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { extractRules } from "@/lib/extraction/rules";
import { findDurations, parseNumber, passages, readPassage, sentenceNumbers, SENTENCE_NUMBER_FIELDS } from "@/lib/extraction/sentence-numbers";
import { FIXTURES } from "../fixtures/extraction/judgments";

describe("numbers and durations", () => {
  it.each([
    ["3 lat i 6 miesięcy", 42],
    ["2 (dwóch) lat", 24],
    ["1 (jednego) roku i 6 (sześciu) miesięcy", 18],
    ["jednego roku", 12],
    ["trzech miesięcy", 3],
    ["dwudziestu pięciu lat", 300],
    ["półtora roku", 18],
    ["4 years'", 48],
    ["4 years and 6 months'", 54],
    ["two and a half years", 30],
    ["eighteen months", 18],
    ["30 months", 30],
    ["16 weeks'", 3.7],
  ])("%s is %d months", (s, months) => {
    expect(findDurations(s).map((d) => d.months)).toEqual([months]);
  });

  it("never reads 8 lat inside 18 lat, nor a date as a term", () => {
    expect(findDurations("kara 18 lat").map((d) => d.months)).toEqual([216]);
    expect(findDurations("w 2019 roku")).toEqual([]);
    expect(findDurations("za rok")).toEqual([]);
    expect(findDurations("18 months' imprisonment").map((d) => d.months)).toEqual([18]);
  });

  it("reads number words in any case", () => {
    expect(["dwóch", "dwu", "trzech", "ośmiu", "dwunastu", "piętnastu", "twenty-four", "1 500", "2,5"].map(parseNumber)).toEqual([2, 2, 3, 8, 12, 15, 24, 1500, 2.5]);
  });
});

type Expect = Partial<{ kind: string | null; custody: number | null; suspended: boolean | null; suspension: number | null; hours: number | null; fine: number | null; currency: string | null; life: boolean }>;
const view = (v: ReturnType<typeof readPassage>["sentence"] | null): Expect | null =>
  v && {
    kind: v.kind,
    custody: v.custody_months,
    suspended: v.suspended,
    suspension: v.suspension_months,
    hours: v.community_hours,
    fine: v.fine_amount,
    currency: v.fine_currency,
    life: v.life,
  };

describe("one passage", () => {
  it.each<[string, Expect, Expect | null]>([
    ["wymierzył mu karę 3 lat i 6 miesięcy pozbawienia wolności", { kind: "custody", custody: 42, suspended: null }, null],
    ["karę 2 (dwóch) lat pozbawienia wolności, której wykonanie warunkowo zawiesza na okres próby 4 (czterech) lat", { kind: "suspended", custody: 24, suspended: true, suspension: 48 }, null],
    ["1 rok pozbawienia wolności z zawieszeniem na okres próby 2 lat", { kind: "suspended", custody: 12, suspension: 24 }, null],
    ["wymierzył karę łączną 5 lat pozbawienia wolności", { kind: "custody", custody: 60 }, null],
    ["obniża orzeczoną wobec oskarżonego karę pozbawienia wolności do 1 roku", { kind: null, custody: null }, { kind: "custody", custody: 12 }],
    ["grzywnę w wysokości 100 (stu) stawek dziennych, ustalając wysokość jednej stawki na kwotę 20 (dwudziestu) zł", { kind: "fine", fine: 2000, currency: "PLN" }, null],
    ["he was sentenced to 4 years' imprisonment", { kind: "custody", custody: 48 }, null],
    ["a sentence of 30 months", { kind: "custody", custody: 30 }, null],
    ["12 months' imprisonment suspended for 18 months, with 200 hours of unpaid work", { kind: "suspended", custody: 12, suspended: true, suspension: 18, hours: 200 }, null],
    ["a community order with 200 hours of unpaid work", { kind: "community", custody: null, hours: 200 }, null],
    ["a fine of £500", { kind: "fine", fine: 500, currency: "GBP" }, null],
    ["a conditional discharge for 12 months", { kind: "discharge", custody: null }, null],
    ["The sentence is reduced to 3 years.", { kind: null }, { kind: "custody", custody: 36 }],
    ["We quash the sentence of 5 years' imprisonment and substitute 3 years' imprisonment.", { kind: "custody", custody: 60 }, { kind: "custody", custody: 36 }],
    ["6 years' imprisonment on count 1 and 2 years consecutive on count 2", { kind: "custody", custody: 96 }, null],
    ["6 years' imprisonment on count 1 and 2 years concurrent on count 2", { kind: "custody", custody: 72 }, null],
    ["sentenced to life imprisonment with a minimum term of 24 years", { kind: "custody", custody: null, life: true }, null],
    ["skazany na karę 18 lat pozbawienia wolności", { kind: "custody", custody: 216 }, null],
  ])("%s", (text, sentence, changed) => {
    const r = readPassage(text);
    expect(view(r.sentence)).toMatchObject(sentence);
    if (changed) expect(view(r.changedTo)).toMatchObject(changed);
    else expect(r.changedTo).toBeNull();
  });

  it("gives each value the span it was read from", () => {
    const text = "wymierzył mu karę 2 lat pozbawienia wolności, której wykonanie warunkowo zawiesił na okres próby 3 lat";
    const r = readPassage(text, 100);
    expect(r.sentence.spans.custody_months).toEqual({ start: 118, end: 123, text: "2 lat" });
    expect(r.sentence.spans.suspension_months?.text).toBe("3 lat");
    expect(text.slice(r.sentence.spans.suspension_months!.start - 100, r.sentence.spans.suspension_months!.end - 100)).toBe("3 lat");
  });
});

describe("a whole judgment", () => {
  it("splits passages at sentence ends but not at k.k. or art.", () => {
    const ps = passages("Sąd skazał go z art. 148 § 1 k.k. na karę 15 lat pozbawienia wolności. Obrońca wniósł apelację.");
    expect(ps.map((p) => p.text)).toEqual(["Sąd skazał go z art. 148 § 1 k.k. na karę 15 lat pozbawienia wolności.", "Obrońca wniósł apelację."]);
  });

  const byId = (id: string) => {
    const f = FIXTURES.find((x) => x.id === id);
    if (!f) throw new Error(id);
    const r = extractRules(f.text);
    return sentenceNumbers(f.text, { language: r.language, outcome: r.outcome });
  };

  it("reads the written fixtures: first instance, after appeal, change", () => {
    const got = Object.fromEntries(
      FIXTURES.map((f) => {
        const { fields } = byId(f.id);
        return [f.id, [fields.sentence_kind, fields.sentence_custody_months, fields.sentence_kind_after_appeal, fields.sentence_custody_months_after_appeal, fields.sentence_change_months]];
      }),
    );
    // [kind, custody months, kind after appeal, custody after appeal, change]; a life sentence has no length.
    expect(got).toEqual({
      "pl-murder-dismissed": ["custody", 180, "custody", 180, 0],
      "pl-robbery-prosecutor-increase": ["custody", 24, "custody", 48, 24],
      "pl-fraud-quashed-for-retrial": [null, null, null, null, null], // acquitted below, sent back: no sentence
      "uk-wounding-sentence-dismissed": ["custody", 108, "custody", 108, 0],
      "uk-solicitor-general-reference": ["custody", 36, "custody", 72, 36],
      "uk-murder-conviction-quashed": ["custody", null, null, null, null],
    });
    // Spans point into the judgment text.
    const f = FIXTURES[0];
    const { spans } = byId(f.id);
    for (const sp of Object.values(spans)) expect(f.text.slice(sp.start, sp.end)).toBe(sp.text);
  });

  it("has all fifteen flat fields, and nothing on a text without a sentence", () => {
    const { fields } = sentenceNumbers("Nobody was sentenced to anything today.", { language: "en" });
    expect(Object.keys(fields).sort()).toEqual([...SENTENCE_NUMBER_FIELDS].sort());
    expect(Object.values(fields).every((v) => v === null)).toBe(true);
  });

  it("reads the extracted sentence texts when the judgment states none", () => {
    const { fields, result } = sentenceNumbers("Wyrok. Apelacja.", { language: "pl", sentenceTexts: ["1 rok pozbawienia wolności z warunkowym zawieszeniem", "grzywna 50 stawek dziennych"], outcome: "outcome_dismissed_or_refused" });
    expect(result.source).toBe("sentences");
    expect(fields).toMatchObject({ sentence_kind: "suspended", sentence_custody_months: 12, sentence_suspended: true, sentence_fine_currency: "PLN", sentence_custody_months_after_appeal: 12, sentence_change_months: 0 });
  });
});

describe("a rules-v1 base-schema job", () => {
  it("carries the sentence numbers (whole months, lower-case currency), their spans and rules-v1's outcome", async () => {
    const { extractBaseWithRules } = await import("@/lib/backend/extraction-jobs/base");
    const f = FIXTURES.find((x) => x.id === "uk-solicitor-general-reference")!;
    const out = extractBaseWithRules(f.text);
    if (out.status !== "completed") throw new Error("expected a completed extraction");
    expect(out.values).toMatchObject({
      appeal_outcome: ["outcome_sentence_more_severe"],
      sentence_kind: "custody",
      sentence_custody_months: 36,
      sentence_custody_months_after_appeal: 72,
      sentence_change_months: 36,
      sentence_fine_currency: null,
    });
    const spans = out.values.sentence_spans as Record<string, { start: number; end: number; text: string }>;
    expect(f.text.slice(spans.sentence_custody_months.start, spans.sentence_custody_months.end)).toBe("3 years'");
  });
});

describe("a real judgment (SAOS 227221, Sąd Rejonowy w Toruniu, II K 84/16)", () => {
  const text = readFileSync(path.join(__dirname, "../fixtures/sentences/saos-227221.txt"), "utf8");

  it("reads the operative part's restriction of liberty, not the earlier suspended sentence its reasons recount", () => {
    const r = extractRules(text);
    const { fields, spans } = sentenceNumbers(text, { language: r.language, outcome: r.outcome, sentenceTexts: r.sentences });
    expect(fields).toMatchObject({
      sentence_kind: "community",
      sentence_community_hours: 160, // 8 months × 20 hours a month
      sentence_custody_months: null,
      sentence_suspended: false,
      sentence_fine_amount: null, // the 10.000 zł świadczenie pieniężne is not a fine
      sentence_kind_after_appeal: null, // a first-instance judgment: no appeal
    });
    expect(spans.sentence_community_hours?.text).toMatch(/^8 \(ośmiu\) miesięcy ograniczenia wolności.*20 \(dwudziestu\) godzin w stosunku miesięcznym$/su);
  });
});

describe("real judgments without a sentence (a Court of Appeal civil judgment, a Polish competition case)", () => {
  it.each(["ewca-civ-2025-673.txt", "juddges-XVII-AmA-14-1994.txt"])("%s: no value at all", (name) => {
    const text = readFileSync(path.join(__dirname, "../fixtures/sentences", name), "utf8");
    expect(text.length).toBeGreaterThan(10_000);
    const r = extractRules(text);
    const { fields } = sentenceNumbers(text, { language: r.language, outcome: r.outcome, sentenceTexts: r.sentences });
    expect(Object.entries(fields).filter(([, v]) => v !== null)).toEqual([]);
  });
});
