import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/errors";
import { nlFilterRequest, type NlFilterRecord } from "@/lib/backend/extractions/nl-filter";
import { translateQuestion } from "@/lib/llm/nl-filter";
import { findVocabulary, nlVocabulary, phraseRegex, translateByRules } from "@/lib/llm/nl-filter-rules";
import { nlFields } from "@/lib/llm/nl-filter-schema";
import { BASE_FIELDS } from "@/lib/schema";
import { BaseSchemaFiltersSchema } from "@/lib/schema/requests/structured";
import { textResult as result } from "../helpers/mock-model";

/**
 * The NL filter without a model: a table of English and Polish questions and the exact filter the
 * rules translator must produce (dates, jurisdiction, registry vocabulary, and negatives that must set nothing), then
 * the merge rule with a (mock) model: the model proposes, the rules' dates and jurisdiction win.
 */

type F = Record<string, unknown>;
const Y = (y: number) => ({ from: `${y}-01-01`, to: `${y}-12-31` });

/** [question, expected filters, expected text_query (undefined: not checked)] */
const TABLE: [string, F, (string | null)?][] = [
  // Dates (decision_date by default), English
  ["murder appeals in 2019", { decision_date: Y(2019) }, "murder"],
  ["robbery since 2015", { decision_date: { from: "2015-01-01" } }, "robbery"],
  ["fraud cases after 2015", { decision_date: { from: "2016-01-01" } }, "fraud"],
  ["burglary before 2010", { decision_date: { to: "2009-12-31" } }, "burglary"],
  ["manslaughter between 2012 and 2016", { decision_date: { from: "2012-01-01", to: "2016-12-31" } }, "manslaughter"],
  ["appeals after 2015 and before 2020", { decision_date: { from: "2016-01-01", to: "2019-12-31" } }, null],
  ["assault from 2018 onwards", { decision_date: { from: "2018-01-01" } }, "assault"],
  // Dates, Polish
  ["zabójstwa w 2019 roku", { decision_date: Y(2019) }, "zabójstwa"],
  ["rozboje od 2015 r.", { decision_date: { from: "2015-01-01" } }, "rozboje"],
  ["oszustwa po roku 2015", { decision_date: { from: "2016-01-01" } }, "oszustwa"],
  ["kradzieże przed 2010", { decision_date: { to: "2009-12-31" } }, "kradzieże"],
  ["wyroki między 2012 a 2016", { decision_date: { from: "2012-01-01", to: "2016-12-31" } }, null],
  ["sprawy w latach 2014–2017", { decision_date: { from: "2014-01-01", to: "2017-12-31" } }, null],
  // The appeal-judgment date only when named
  ["date of the appeal court judgment before 2012", { date_of_appeal_court_judgment: { to: "2011-12-31" } }, null],
  ["data wyroku sądu odwoławczego po 2018", { date_of_appeal_court_judgment: { from: "2019-01-01" } }, null],
  // Years that are not years
  ["II AKa 123/19 robbery", {}, "II AKa 123/19 robbery"],
  ["theft of 2000 pounds", {}, "theft 2000 pounds"],
  // Jurisdiction: named countries / legal systems only
  ["robbery appeals in England", { jurisdiction: ["UK"] }, "robbery"],
  ["Polish courts on drug trafficking", { jurisdiction: ["PL"] }],
  ["sprawy z Polski i Wielkiej Brytanii", { jurisdiction: ["PL", "UK"] }],
  ["wyroki sądów w Anglii", { jurisdiction: ["UK"] }],
  ["judgments from Poland and the UK since 2016", { jurisdiction: ["PL", "UK"], decision_date: { from: "2016-01-01" } }],
  ["zabójstwo ze szczególnym okrucieństwem", {}, "zabójstwo szczególnym okrucieństwem"],
  ["judgments written in Polish", {}],
  ["wyroki po angielsku", {}],
  // Vocabulary: enums and booleans, English and Polish
  ["robbery appeals in England after 2015 by women", { jurisdiction: ["UK"], decision_date: { from: "2016-01-01" }, offender_gender: ["gender_female"] }, "robbery"],
  ["female offenders", { offender_gender: ["gender_female"] }, null],
  ["kobiety skazane za oszustwo", { offender_gender: ["gender_female"] }],
  ["sprawczynie rozbojów", { offender_gender: ["gender_female"] }],
  ["male offenders who confessed", { offender_gender: ["gender_male"], did_offender_confess: true }, null],
  ["sprawca przyznał się do winy", { did_offender_confess: true }, null],
  ["oskarżona przyznała się", { did_offender_confess: true }],
  ["offender did not confess", { did_offender_confess: false }, null],
  ["sprawca nie przyznał się", { did_offender_confess: false }, null],
  ["pleaded not guilty to murder", { did_offender_confess: false }, "murder"],
  ["assaults on female victims", { victim_gender: ["gender_female"] }],
  ["przemoc wobec kobiet", { victim_gender: ["gender_female"] }, "przemoc"],
  ["drunk offenders", { offender_intox_offence: ["intox_alcohol"] }, null],
  ["sprawca w stanie nietrzeźwości", { offender_intox_offence: ["intox_alcohol"] }, null],
  ["homeless and unemployed offenders", { offender_home_offence: ["homeless"], offender_job_offence: ["unemployed"] }, null],
  ["sprawcy bezrobotni", { offender_job_offence: ["unemployed"] }, null],
  ["self-employed defendants", { offender_job_offence: ["self_employed"] }, null],
  ["appeals against conviction that were dismissed", { appeal_against: ["appeal_conviction_unsafe"], appeal_outcome: ["outcome_dismissed_or_refused"] }, null],
  ["unduly lenient sentence references by the Attorney General", { appeal_against: ["appeal_sentence_lenient"], appellant: ["attorney_general"] }],
  ["apelacja prokuratora, kara zaostrzona", { appellant: ["attorney_general"], appeal_outcome: ["outcome_sentence_more_severe"] }, null],
  ["apelacja oddalona", { appeal_outcome: ["outcome_dismissed_or_refused"] }, null],
  ["manifestly excessive sentence reduced", { appeal_against: ["appeal_sentence_excessive"], appeal_outcome: ["outcome_sentence_more_lenient"] }],
  ["kara rażąco surowa", { appeal_against: ["appeal_sentence_excessive"] }, null],
  ["conviction quashed", { appeal_outcome: ["outcome_conviction_quashed"] }, null],
  ["remanded in custody", { remand_decision: ["remanded_in_custody"] }, null],
  ["tymczasowo aresztowany", { remand_decision: ["remanded_in_custody"] }, null],
  ["victim impact statement in assault cases", { vic_impact_statement: true }, "assault"],
  ["high risk of reoffending", { pre_sent_report: ["high"] }, null],
  ["offender and victim were strangers", { offender_victim_relationship: ["stranger"] }],
  ["consecutive sentences for burglary", { sentence_serve: ["serve_consecutive"] }, "burglary"],
  ["kobiety, które przyznały się do winy, w Polsce od 2018", { offender_gender: ["gender_female"], did_offender_confess: true, jurisdiction: ["PL"], decision_date: { from: "2018-01-01" } }, null],
  // Negatives: nothing to set
  ["civil cases in the Crown Court", {}, "civil Crown Court"],
  ["sprawy cywilne w sądzie okręgowym", {}],
  ["knife crime", {}, "knife crime"],
  ["manslaughter", {}, "manslaughter"],
  ["human trafficking with many victims", {}],
  ["confessional privilege", {}, "confessional privilege"],
];

const PL = { jurisdiction: ["PL"] };
const UK = { jurisdiction: ["UK"] };
const months = (min?: number, max?: number) => ({ sentence_custody_months: { ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}) } });
/** The acceptance filter (tests/api/sentence-numbers.test.ts): Polish appeals by the defendant, immediate custody over 60 months. */
const ACCEPTANCE = { jurisdiction: ["PL"], appellant: ["offender"], sentence_kind: ["custody"], sentence_custody_months: { min: 61 } };

/**
 * Sentence lengths, kinds and suspension, the appellant, and words that are not content (never forced into the text
 * search). Bounds are inclusive: a strict "over"/"under" moves by one month (or one hundredth of a fine).
 */
const SENTENCE_TABLE: [string, F, (string | null)?][] = [
  // The acceptance question, EN and PL phrasings
  ["Polish appeals where the defendant appealed and immediate custody was over 60 months", ACCEPTANCE, null],
  ["polskie apelacje oskarżonego, kara bezwzględnego pozbawienia wolności powyżej 5 lat", ACCEPTANCE, null],
  ["appeals by the defendant in Poland, immediate custody of more than 5 years", ACCEPTANCE, null],
  ["apelację wniósł oskarżony, Polska, bezwzględne pozbawienie wolności ponad 60 miesięcy", ACCEPTANCE, null],
  // English lengths
  ["sentences over 5 years", months(61), null],
  ["more than 60 months", months(61), null],
  ["at least 2 years", months(24), null],
  ["at least two years", months(24), null],
  ["under 18 months", months(undefined, 17), null],
  ["less than a year", months(undefined, 11), null],
  ["up to 3 years", months(undefined, 36), null],
  ["no more than 6 months", months(undefined, 6), null],
  ["5 years or more", months(60), null],
  ["between 2 and 5 years", months(24, 60), null],
  ["from 18 months to 3 years", months(18, 36), null],
  ["od 6 miesięcy do 2 lat", months(6, 24), null],
  ["over 2.5 years", months(31), null],
  ["more than two years and less than five years", months(25, 59), null],
  // Polish lengths
  ["powyżej 3 lat", months(37), null],
  ["ponad 5 lat", months(61), null],
  ["co najmniej 2 lata", months(24), null],
  ["poniżej roku", months(undefined, 11), null],
  ["mniej niż 6 miesięcy", months(undefined, 5), null],
  ["nie więcej niż 2 lata", months(undefined, 24), null],
  ["od 2 do 5 lat", months(24, 60), null],
  ["kara od 2 do 5 lat pozbawienia wolności", months(24, 60), null],
  ["powyżej półtora roku", months(19), null],
  ["co najmniej dwóch lat pozbawienia wolności", months(24), null],
  ["10 lat lub więcej", months(120), null],
  // Suspension and kind
  ["suspended sentences", { sentence_suspended: true }, null],
  ["suspended sentences under 18 months", { sentence_suspended: true, ...months(undefined, 17) }, null],
  ["sentence not suspended", { sentence_suspended: false }, null],
  ["kara w zawieszeniu", { sentence_suspended: true }, null],
  ["kary zawieszone", { sentence_suspended: true }, null],
  ["bez zawieszenia", { sentence_suspended: false }, null],
  ["bez zawieszenia, co najmniej 2 lata", { sentence_suspended: false, ...months(24) }, null],
  ["immediate custody", { sentence_kind: ["custody"] }, null],
  ["immediate imprisonment over 4 years", { sentence_kind: ["custody"], ...months(49) }, null],
  ["bezwzględne pozbawienie wolności", { sentence_kind: ["custody"] }, null],
  ["community order for shoplifting", { sentence_kind: ["community"] }, "shoplifting"],
  ["kara ograniczenia wolności", { sentence_kind: ["community"] }, null],
  ["conditional discharge", { sentence_kind: ["discharge"] }, null],
  // Fines and unpaid work
  ["fine of more than £500", { sentence_fine_amount: { min: 500.01 }, sentence_fine_currency: ["gbp"] }, null],
  ["grzywna powyżej 5000 zł", { sentence_fine_amount: { min: 5000.01 }, sentence_fine_currency: ["pln"] }, null],
  ["fined at least 1,000 pounds for theft", { sentence_fine_amount: { min: 1000 }, sentence_fine_currency: ["gbp"] }, "theft"],
  ["over 200 hours of unpaid work", { sentence_community_hours: { min: 201 } }, null],
  ["community service of at least 100 hours", { sentence_community_hours: { min: 100 } }, null],
  // Not sentences: ages, stolen amounts, hours without unpaid work
  ["offenders over 60 years old", {}, "60 years old"],
  ["theft of over £2000", {}, "theft 2000"],
  ["assault lasting over 3 hours", {}, "assault lasting 3 hours"],
  ["sprawcy w wieku powyżej 60 lat", {}],
  // The appellant
  ["where the defendant appealed", { appellant: ["offender"] }, null],
  ["appealed by the offender", { appellant: ["offender"] }, null],
  ["apelację wniósł oskarżony", { appellant: ["offender"] }, null],
  ["oskarżony wniósł apelację od wyroku", { appellant: ["offender"] }, null],
  // Non-content words are dropped, content words stay as text
  ["UK appeals since 2015 where the offender was intoxicated", { ...UK, decision_date: { from: "2015-01-01" } }, "intoxicated"],
  ["show me all the cases where the judgments were about robbery", {}, "robbery"],
  ["wyroki gdzie sprawy dotyczą rozboju", {}, "dotyczą rozboju"],
  ["sprawy od 2016 gdzie apelacje oskarżonych", { appellant: ["offender"], decision_date: { from: "2016-01-01" } }, null],
  ["Polish appeals since 2018", { ...PL, decision_date: { from: "2018-01-01" } }, null],
];

describe("rules translator: sentence lengths, the appellant and non-content words", () => {
  it("has at least 40 rows", () => {
    expect(SENTENCE_TABLE.length).toBeGreaterThanOrEqual(40);
  });

  it.each(SENTENCE_TABLE)("%s", (question, filters, textQuery) => {
    const out = translateByRules(question);
    expect(out.filters).toEqual(filters);
    if (textQuery !== undefined) expect(out.text_query).toBe(textQuery);
    expect(BaseSchemaFiltersSchema.safeParse(out.filters).success).toBe(true);
  });
});

describe("rules translator: a table of English and Polish questions", () => {
  it("has at least 40 rows", () => {
    expect(TABLE.length).toBeGreaterThanOrEqual(40);
  });

  it.each(TABLE)("%s", (question, filters, textQuery) => {
    const out = translateByRules(question);
    expect(out.mode).toBe("rules");
    expect(out.filters).toEqual(filters);
    if (textQuery !== undefined) expect(out.text_query).toBe(textQuery);
    // Always a filter the filter and aggregate routes accept, never case_type/court_level.
    expect(BaseSchemaFiltersSchema.safeParse(out.filters).success).toBe(true);
    expect(out.filters).not.toHaveProperty("case_type");
    expect(out.filters).not.toHaveProperty("court_level");
  });
});

describe("vocabulary comes from the registry", () => {
  it("every phrase names a filter key the model may also set, with a value in its enumeration", () => {
    const offered = new Map(nlFields().map((f) => [f.key, f]));
    expect(nlVocabulary().length).toBeGreaterThan(100);
    for (const e of nlVocabulary()) {
      const field = offered.get(e.key);
      expect(field, e.key).toBeDefined();
      if (typeof e.value === "string") expect(field?.values ?? [], `${e.key}: ${e.phrase}`).toContain(e.value);
      else expect(field?.control).toBe("boolean_tri");
    }
  });

  it("each registry phrase finds itself in a sentence (the phrases are well formed)", () => {
    for (const f of BASE_FIELDS) {
      const phrases = [
        ...(f.enumValues ?? []).flatMap((o) => [...(o.synonyms?.en ?? []), ...(o.synonyms?.pl ?? [])]),
        ...[f.nlTerms?.yes, f.nlTerms?.no].flatMap((p) => [...(p?.en ?? []), ...(p?.pl ?? [])]),
      ];
      for (const phrase of phrases) {
        const written = phrase.replace(/\*/g, "");
        expect(phraseRegex(phrase).test(`x ${written} y`), phrase).toBe(true);
      }
    }
  });

  it("longest phrase wins and matches whole words only", () => {
    expect(findVocabulary("female victims").map((m) => m.key)).toEqual(["victim_gender"]);
    expect(findVocabulary("mankind")).toEqual([]);
    expect(findVocabulary("the offender was unemployed").map((m) => m.value)).toEqual(["unemployed"]);
  });

  it("contradicting yes/no phrases set no condition", () => {
    expect(translateByRules("confessed but later did not confess").filters).toEqual({});
  });
});


function modelAnswering(set: F, textQuery: string | null = null) {
  const all = Object.fromEntries(nlFields().map((f) => [f.key, null]));
  return new MockLanguageModelV3({ doGenerate: result(JSON.stringify({ filters: { ...all, ...set }, text_query: textQuery })) });
}

async function errorOf(p: Promise<unknown>): Promise<{ status: number; code: string }> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ApiError) return { status: e.status, code: e.code };
    throw e;
  }
  throw new Error("expected an error");
}

describe("with a model: the model proposes, the rules' dates and jurisdiction win where both speak", () => {
  it("the question's date and country override the model's; the model's vocabulary stays; mode llm", async () => {
    const model = modelAnswering(
      { jurisdiction: ["PL"], decision_date: { from: "2010-01-01", to: null }, offender_gender: ["gender_female"], appeal_outcome: ["outcome_dismissed_or_refused"] },
      "robbery",
    );
    const out = await translateQuestion("robbery appeals in England after 2015 by women, dismissed", model);
    expect(out).toEqual({
      filters: { jurisdiction: ["UK"], decision_date: { from: "2016-01-01" }, offender_gender: ["gender_female"], appeal_outcome: ["outcome_dismissed_or_refused"] },
      text_query: "robbery",
      mode: "llm",
    });
  });

  it("where the question says nothing about dates or countries, the model's range stays and its country goes", async () => {
    const out = await translateQuestion("recent robbery appeals", modelAnswering({ jurisdiction: ["UK"], decision_date: { from: "2022-01-01", to: null } }, "robbery"));
    expect(out.filters).toEqual({ decision_date: { from: "2022-01-01" } });
    expect(out.mode).toBe("llm");
  });

  it("the same validation: an out-of-enum value → 422 NL_FILTER_INVALID, case_type/court_level dropped, garbage → 502", async () => {
    expect(await errorOf(translateQuestion("women", modelAnswering({ offender_gender: ["female"] })))).toEqual({ status: 422, code: "NL_FILTER_INVALID" });
    const withForbidden = new MockLanguageModelV3({
      doGenerate: result(JSON.stringify({ filters: { case_type: ["Criminal"], court_level: ["Crown"], did_offender_confess: true }, text_query: null })),
    });
    expect((await translateQuestion("confessed", withForbidden)).filters).toEqual({ did_offender_confess: true });
    expect(await errorOf(translateQuestion("q", new MockLanguageModelV3({ doGenerate: result("not json") })))).toEqual({ status: 502, code: "NL_FILTER_FAILED" });
  });

  it("sentence fields are offered to the model; a length the question states overrides the model's range", async () => {
    expect(nlFields().map((f) => f.key)).toEqual(expect.arrayContaining(["sentence_custody_months", "sentence_suspended", "sentence_kind"]));
    const model = modelAnswering({ sentence_custody_months: { min: 12, max: null }, sentence_kind: ["custody"], appellant: ["offender"] });
    const out = await translateQuestion("Polish appeals where the defendant appealed and immediate custody was over 60 months", model);
    expect(out).toEqual({ filters: ACCEPTANCE, text_query: null, mode: "llm" });
    // Without a stated length the model's range stands.
    const kept = await translateQuestion("long custodial sentences", modelAnswering({ sentence_custody_months: { min: 60, max: null } }));
    expect(kept.filters).toEqual({ sentence_custody_months: { min: 60 } });
  });

  it("nlFilterRequest: a model given → mode llm; model null → mode rules, no model recorded", async () => {
    const rows: NlFilterRecord[] = [];
    const llm = await nlFilterRequest("appeals in 2019", "u", { model: modelAnswering({}), modelId: "mock", record: (r) => rows.push(r) });
    const rules = await nlFilterRequest("appeals in 2019", "u", { model: null, record: (r) => rows.push(r) });
    expect(llm).toEqual({ filters: { decision_date: Y(2019) }, text_query: null, mode: "llm" });
    expect(rules).toEqual({ filters: { decision_date: Y(2019) }, text_query: null, mode: "rules" });
    expect(rows.map((r) => [r.success, r.model])).toEqual([
      [true, "mock"],
      [true, null],
    ]);
  });
});
