import type { LanguageModelV3CallOptions } from "@ai-sdk/provider";
import { MockLanguageModelV3 } from "ai/test";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { ApiError } from "@/lib/errors";
import { nlFilterRequest, NlFilterRequestSchema, type NlFilterRecord } from "@/lib/backend/extractions/nl-filter";
import { resetConfigForTests } from "@/lib/config";
import { languageModel, llmConfigured, llmStatus, requireLanguageModel } from "@/lib/llm/provider";
import { applyQuestionRules, parseModelAnswer, translateQuestion, validateFilters } from "@/lib/llm/nl-filter";
import { NEVER_OUTPUT_KEYS, nlFields, nlOutputSchema } from "@/lib/llm/nl-filter-schema";
import { nlFilterSystemPrompt } from "@/lib/llm/prompts/nl-filter";
import { BASE_FIELDS, CORE_FILTER_KEYS, enumValues } from "@/lib/schema";
import { BaseSchemaFiltersSchema } from "@/lib/schema/requests/structured";
import { textResult as result } from "../helpers/mock-model";


/** Every key the model may fill, null: the answer of a strict-mode model that sets nothing. */
function emptyFilters(): Record<string, unknown> {
  return Object.fromEntries(nlFields().map((f) => [f.key, null]));
}

/** A mock model answering `{filters: {...all null, ...set}, text_query}`. */
function modelAnswering(set: Record<string, unknown>, textQuery: string | null = null) {
  return new MockLanguageModelV3({ doGenerate: result(JSON.stringify({ filters: { ...emptyFilters(), ...set }, text_query: textQuery })) });
}

async function codeOf(p: Promise<unknown>): Promise<{ status: number; code: string; field?: unknown }> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ApiError) return { status: e.status, code: e.code, field: e.extra.field };
    throw e;
  }
  throw new Error("expected the translation to fail");
}

describe("output schema derived from the registry", () => {
  const keys = nlFields().map((f) => f.key);

  it("offers jurisdiction, both date keys and the base fields the filter functions accept, never case_type/court_level", () => {
    expect(keys.slice(0, 3)).toEqual(["jurisdiction", "decision_date", "date_of_appeal_court_judgment"]);
    for (const k of NEVER_OUTPUT_KEYS) expect(keys).not.toContain(k);
    expect(keys).not.toContain("collection_ids");
    expect(keys).not.toContain("court_name");
    for (const f of nlFields()) {
      const base = BASE_FIELDS.find((b) => b.name === f.key);
      if (base) {
        expect(base.rpcFilter, f.key).toBe(true);
        expect(base.control, f.key).not.toBe("tag_array");
      }
    }
    // Every fixed-set enum field of the registry is offered, with exactly the registry's values.
    for (const b of BASE_FIELDS.filter((x) => x.rpcFilter && x.control === "enum_multi" && x.enumValues)) {
      expect(nlFields().find((f) => f.key === b.name)?.values, b.name).toEqual(enumValues(b));
    }
    expect(nlFields().find((f) => f.key === "jurisdiction")?.values).toEqual(CORE_FILTER_KEYS.find((c) => c.key === "jurisdiction")?.enumValues);
  });

  it("every offered key is a key of the shared BaseSchemaFilters schema", () => {
    const shared = Object.keys(BaseSchemaFiltersSchema.shape);
    for (const k of keys) expect(shared, k).toContain(k);
  });

  it("is a JSON schema OpenAI strict mode accepts: every property required, no extra properties, enums listed", () => {
    const schema = JSON.parse(JSON.stringify(nlOutputSchema().toJSONSchema())) as Record<string, unknown>;
    const visit = (node: unknown): void => {
      if (Array.isArray(node)) return node.forEach(visit);
      if (typeof node !== "object" || node === null) return;
      const n = node as Record<string, unknown>;
      if (n.type === "object") {
        expect(n.additionalProperties).toBe(false);
        expect([...((n.required as string[]) ?? [])].sort()).toEqual(Object.keys(n.properties as object).sort());
      }
      Object.values(n).forEach(visit);
    };
    visit(schema);
    const filters = (schema.properties as Record<string, { properties: Record<string, unknown> }>).filters.properties;
    expect(JSON.stringify(filters.offender_gender)).toContain('"gender_female"');
    expect(JSON.stringify(filters.jurisdiction)).toContain('"enum":["PL","UK"]');
  });

  it("the system prompt carries the date mapping table in both languages and the jurisdiction rule", () => {
    const p = nlFilterSystemPrompt();
    for (const s of ["in Y / w roku Y", "since Y / od Y", "after Y / po Y", "before Y / przed Y", "between Y1 and Y2 / między Y1 a Y2"]) {
      expect(p).toContain(s);
    }
    expect(p).toContain("Never output case_type or court_level");
    expect(p).toContain("does not by");
    for (const k of keys) expect(p).toContain(`- ${k}:`);
  });
});

describe("translateQuestion with a mock model", () => {
  it("returns the model's filter without null keys, and the text query", async () => {
    const model = modelAnswering(
      { offender_gender: ["gender_female"], did_offender_confess: true, victim_age_offence: { min: null, max: 15 }, appeal_outcome: [] },
      "  robbery with a knife ",
    );
    const out = await translateQuestion("women who confessed to robbing children with a knife", model);
    expect(out).toEqual({
      filters: { offender_gender: ["gender_female"], did_offender_confess: true, victim_age_offence: { max: 15 } },
      text_query: "robbery with a knife",
      mode: "llm",
    });
    expect(BaseSchemaFiltersSchema.safeParse(out.filters).success).toBe(true);
  });

  it("sends the question, the system prompt and the registry-derived JSON schema to the model", async () => {
    const model = modelAnswering({});
    await translateQuestion("appeals against sentence", model);
    const call = model.doGenerateCalls[0] as LanguageModelV3CallOptions;
    expect(call.responseFormat?.type).toBe("json");
    const sent = call.responseFormat?.type === "json" ? call.responseFormat.schema : undefined;
    expect(JSON.stringify(sent)).toContain('"appeal_sentence_excessive"');
    expect(JSON.stringify(sent)).not.toContain("case_type");
    expect(JSON.stringify(sent)).not.toContain("court_level");
    expect(call.prompt[0]).toMatchObject({ role: "system", content: nlFilterSystemPrompt() });
    expect(JSON.stringify(call.prompt[1])).toContain("appeals against sentence");
    expect(call.temperature).toBe(0);
  });

  it("an empty answer is a valid, empty filter", async () => {
    expect(await translateQuestion("anything", modelAnswering({}))).toEqual({ filters: {}, text_query: null, mode: "llm" });
    const bare = new MockLanguageModelV3({ doGenerate: result("{}") });
    expect(await translateQuestion("anything", bare)).toEqual({ filters: {}, text_query: null, mode: "llm" });
  });

  it("a value outside an allowed enumeration → 422 NL_FILTER_INVALID naming the field", async () => {
    expect(await codeOf(translateQuestion("male offenders", modelAnswering({ offender_gender: ["male"] })))).toEqual({
      status: 422,
      code: "NL_FILTER_INVALID",
      field: "offender_gender",
    });
    expect(await codeOf(translateQuestion("French cases", modelAnswering({ jurisdiction: ["FR"] })))).toMatchObject({
      status: 422,
      code: "NL_FILTER_INVALID",
      field: "jurisdiction",
    });
    expect(await codeOf(translateQuestion("dismissed appeals", modelAnswering({ appeal_outcome: ["outcome_dismissed_or_refused", "dismissed"] })))).toMatchObject({
      code: "NL_FILTER_INVALID",
      field: "appeal_outcome",
    });
  });

  it("a key outside the offered set → 422 NL_FILTER_INVALID naming it", async () => {
    expect(await codeOf(translateQuestion("q", modelAnswering({ offence_type: ["murder"] })))).toMatchObject({
      status: 422,
      code: "NL_FILTER_INVALID",
      field: "offence_type",
    });
    expect(await codeOf(translateQuestion("q", modelAnswering({ collection_ids: ["0b6e3c2a-4d1f-4a8e-9c3b-2f1e0d9c8b7a"] })))).toMatchObject({
      code: "NL_FILTER_INVALID",
      field: "collection_ids",
    });
    // A key the model sets to null says nothing: it is ignored, not refused.
    expect(await translateQuestion("q", modelAnswering({ offence_type: null }))).toEqual({ filters: {}, text_query: null, mode: "llm" });
  });

  it("case_type and court_level are stripped, never passed on", async () => {
    const model = modelAnswering({ case_type: ["Civil"], court_level: ["Crown Court"], offender_gender: ["gender_male"] });
    const out = await translateQuestion("criminal appeals of men in the Crown Court", model);
    expect(out.filters).toEqual({ offender_gender: ["gender_male"] });
  });

  it("garbage, wrong shapes or a failing model → 502 NL_FILTER_FAILED", async () => {
    const failed = { status: 502, code: "NL_FILTER_FAILED" };
    const garbage = new MockLanguageModelV3({ doGenerate: result("I think you mean murder cases.") });
    expect(await codeOf(translateQuestion("murder", garbage))).toMatchObject(failed);
    const array = new MockLanguageModelV3({ doGenerate: result("[1,2,3]") });
    expect(await codeOf(translateQuestion("murder", array))).toMatchObject(failed);
    expect(await codeOf(translateQuestion("q", modelAnswering({ did_offender_confess: "yes" })))).toMatchObject(failed);
    expect(await codeOf(translateQuestion("q", modelAnswering({ num_victims: { min: "two", max: null } })))).toMatchObject(failed);
    const badFilters = new MockLanguageModelV3({ doGenerate: result('{"filters": "murder", "text_query": null}') });
    expect(await codeOf(translateQuestion("q", badFilters))).toMatchObject(failed);
    const throwing = new MockLanguageModelV3({
      doGenerate: async () => {
        throw new Error("connection reset");
      },
    });
    expect(await codeOf(translateQuestion("murder", throwing))).toMatchObject(failed);
    // A date the model made up that is no calendar day fails the shared filter schema: not the caller's fault.
    expect(await codeOf(translateQuestion("recent appeals", modelAnswering({ decision_date: { from: "2019-02-30", to: null } })))).toMatchObject(failed);
  });

  it("a model slower than the time budget → 504 UPSTREAM_TIMEOUT (D-31)", async () => {
    const slow = new MockLanguageModelV3({
      doGenerate: (options) =>
        new Promise((_, reject) => {
          options.abortSignal?.addEventListener("abort", () => reject(options.abortSignal?.reason));
        }),
    });
    expect(await codeOf(translateQuestion("murder", slow, { timeoutMs: 20 }))).toEqual({ status: 504, code: "UPSTREAM_TIMEOUT", field: undefined });
  });
});

describe("date rules hold whatever the model answers (EN and PL)", () => {
  const wrong = { decision_date: { from: "2015-01-01", to: "2015-12-31" } };
  const cases: [string, object][] = [
    ["murder appeals in 2019", { from: "2019-01-01", to: "2019-12-31" }],
    ["apelacje w sprawach zabójstw w roku 2019", { from: "2019-01-01", to: "2019-12-31" }],
    ["robbery since 2016", { from: "2016-01-01" }],
    ["rozboje od 2016", { from: "2016-01-01" }],
    ["appeals after 2015", { from: "2016-01-01" }],
    ["apelacje po 2015", { from: "2016-01-01" }],
    ["fraud before 2010", { to: "2009-12-31" }],
    ["oszustwa przed 2010", { to: "2009-12-31" }],
    ["appeals between 2012 and 2014", { from: "2012-01-01", to: "2014-12-31" }],
    ["apelacje między 2012 a 2014", { from: "2012-01-01", to: "2014-12-31" }],
  ];
  for (const [q, range] of cases) {
    it(`"${q}" → decision_date ${JSON.stringify(range)} even when the model says 2015`, async () => {
      const out = await translateQuestion(q, modelAnswering(wrong));
      expect(out.filters.decision_date).toEqual(range);
      expect(out.filters.date_of_appeal_court_judgment).toBeUndefined();
    });
  }

  it("a range the model put on date_of_appeal_court_judgment moves to decision_date unless that date is named", async () => {
    const onAppeal = { date_of_appeal_court_judgment: { from: "2018-01-01", to: null } };
    expect((await translateQuestion("recent appeals", modelAnswering(onAppeal))).filters).toEqual({ decision_date: { from: "2018-01-01" } });
    expect((await translateQuestion("appeals since 2018", modelAnswering(onAppeal))).filters).toEqual({ decision_date: { from: "2018-01-01" } });
  });

  it("the appeal-court judgment date named explicitly gets the range (EN and PL)", async () => {
    const en = await translateQuestion("cases where the appeal court judgment date is after 2015", modelAnswering({ decision_date: { from: "2016-01-01", to: null } }));
    expect(en.filters.date_of_appeal_court_judgment).toEqual({ from: "2016-01-01" });
    const pl = await translateQuestion("data wyroku sądu odwoławczego po 2015 roku", modelAnswering({}));
    expect(pl.filters).toEqual({ date_of_appeal_court_judgment: { from: "2016-01-01" } });
  });

  it("without a date phrase the model's decision_date stands", async () => {
    const out = await translateQuestion("recent robbery appeals", modelAnswering({ decision_date: { from: "2022-01-01", to: null } }));
    expect(out.filters).toEqual({ decision_date: { from: "2022-01-01" } });
  });
});

describe("jurisdiction rules hold whatever the model answers", () => {
  it("a Polish question that names no country gets no jurisdiction, even if the model sets PL", async () => {
    const out = await translateQuestion("apelacje od wyroków za rozbój", modelAnswering({ jurisdiction: ["PL"] }));
    expect(out.filters.jurisdiction).toBeUndefined();
  });

  it("England or UK named → UK; Poland named → PL; both → PL and UK, whatever the model said", async () => {
    expect((await translateQuestion("robbery appeals in England", modelAnswering({}))).filters.jurisdiction).toEqual(["UK"]);
    expect((await translateQuestion("UK sentencing appeals", modelAnswering({ jurisdiction: ["PL", "UK"] }))).filters.jurisdiction).toEqual(["UK"]);
    expect((await translateQuestion("rozboje w Polsce", modelAnswering({ jurisdiction: ["UK"] }))).filters.jurisdiction).toEqual(["PL"]);
    expect((await translateQuestion("fraud in Poland and England", modelAnswering({ jurisdiction: ["UK"] }))).filters.jurisdiction).toEqual(["PL", "UK"]);
  });
});

describe("post-processing never produces an invalid filter", () => {
  /** Arbitrary model answers within the offered schema (values from the registry's sets, random dates and bounds). */
  const valueFor = (key: string): fc.Arbitrary<unknown> => {
    const f = nlFields().find((x) => x.key === key);
    if (!f) throw new Error(key);
    const day = fc.date({ min: new Date("1990-01-01"), max: new Date("2030-12-31"), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
    switch (f.control) {
      case "enum_multi":
        return fc.option(fc.uniqueArray(fc.constantFrom(...(f.values ?? [])), { maxLength: 3 }));
      case "boolean_tri":
        return fc.option(fc.boolean());
      case "numeric_range":
        return fc.option(fc.record({ min: fc.option(fc.integer({ min: 0, max: 50 })), max: fc.option(fc.integer({ min: 0, max: 50 })) }));
      case "date_range":
        return fc.option(fc.record({ from: fc.option(day), to: fc.option(day) }));
      case "substring":
        return fc.option(fc.string({ maxLength: 20 }));
    }
  };
  const answer = fc.record(Object.fromEntries(nlFields().map((f) => [f.key, valueFor(f.key)])));
  const question = fc.constantFrom(
    "murder in 2019",
    "w roku 2019 w Polsce",
    "po 2015 w Anglii",
    "before 2010 in Poland and the UK",
    "between 2011 and 2013",
    "data wyroku sądu odwoławczego przed 2012",
    "no dates at all",
  );

  it("passes the shared filter schema and holds no case_type/court_level", () => {
    fc.assert(
      fc.property(question, answer, (q, a) => {
        const parsed = parseModelAnswer({ filters: { ...a, case_type: ["Civil"], court_level: null }, text_query: null });
        const out = applyQuestionRules(q, parsed.filters);
        expect(validateFilters(out)).toEqual(out);
        for (const k of NEVER_OUTPUT_KEYS) expect(out).not.toHaveProperty(k);
        if (!/polsce|poland|anglii|uk\b/i.test(q)) expect(out).not.toHaveProperty("jurisdiction");
        if (!/sądu odwoławczego/.test(q)) expect(out).not.toHaveProperty("date_of_appeal_court_judgment");
      }),
      { numRuns: 300 },
    );
  });
});

describe("provider: fail closed", () => {
  const saved = { key: process.env.OPENAI_API_KEY, url: process.env.OPENAI_BASE_URL, model: process.env.LLM_MODEL };
  afterEach(() => {
    for (const [name, value] of [
      ["OPENAI_API_KEY", saved.key],
      ["OPENAI_BASE_URL", saved.url],
      ["LLM_MODEL", saved.model],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    resetConfigForTests();
  });

  it("no key → no model, status unconfigured, 503 LLM_NOT_CONFIGURED", () => {
    delete process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_BASE_URL;
    resetConfigForTests();
    expect(llmConfigured()).toBe(false);
    expect(languageModel()).toBeNull();
    expect(llmStatus()).toEqual({ configured: false, model: null });
    expect(() => requireLanguageModel()).toThrow(expect.objectContaining({ status: 503, code: "LLM_NOT_CONFIGURED" }));
  });

  it("a key → a Chat Completions model named by LLM_MODEL on OPENAI_BASE_URL", () => {
    process.env.OPENAI_API_KEY = "sk-unit";
    process.env.OPENAI_BASE_URL = "http://127.0.0.1:9/v1";
    process.env.LLM_MODEL = "some-model";
    resetConfigForTests();
    const model = languageModel();
    expect(model).toMatchObject({ modelId: "some-model", provider: "openai.chat" });
    expect(llmStatus()).toEqual({ configured: true, model: "some-model" });
  });

  it("a server address alone (a keyless local server) → configured, the same answer everywhere", () => {
    delete process.env.OPENAI_API_KEY;
    process.env.OPENAI_BASE_URL = "http://127.0.0.1:9/v1";
    process.env.LLM_MODEL = "local-model";
    resetConfigForTests();
    expect(llmConfigured()).toBe(true);
    expect(llmStatus()).toEqual({ configured: true, model: "local-model" });
    expect(languageModel()).toMatchObject({ modelId: "local-model", provider: "openai.chat" });
    expect(requireLanguageModel()).toBe(languageModel());
  });
});

describe("nlFilterRequest records every request", () => {
  it("success: the row names the model and no error code", async () => {
    const rows: NlFilterRecord[] = [];
    const out = await nlFilterRequest("appeals since 2015", "u-1", { model: modelAnswering({}), modelId: "mock", record: (r) => rows.push(r) });
    expect(out.filters).toEqual({ decision_date: { from: "2015-01-01" } });
    expect(rows).toEqual([{ userId: "u-1", question: "appeals since 2015", success: true, errorCode: null, latencyMs: expect.any(Number), model: "mock" }]);
  });

  it("failure: the row carries the error code, and the error still reaches the caller", async () => {
    const rows: NlFilterRecord[] = [];
    const p = nlFilterRequest("male offenders", null, { model: modelAnswering({ offender_gender: ["male"] }), modelId: "mock", record: (r) => rows.push(r) });
    expect(await codeOf(p)).toMatchObject({ status: 422, code: "NL_FILTER_INVALID" });
    expect(rows).toMatchObject([{ userId: null, success: false, errorCode: "NL_FILTER_INVALID", model: "mock" }]);
  });

  // The rules translator changed this contract: without a model the rules translator answers (it was 503 LLM_NOT_CONFIGURED).
  it("not configured: the rules translator answers (mode rules), recorded as a success with no model", async () => {
    const saved = process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_API_KEY;
    resetConfigForTests();
    try {
      const rows: NlFilterRecord[] = [];
      const out = await nlFilterRequest("murder appeals since 2015 by women", "u-2", { record: (r) => rows.push(r) });
      expect(out).toEqual({ filters: { decision_date: { from: "2015-01-01" }, offender_gender: ["gender_female"] }, text_query: "murder", mode: "rules" });
      expect(rows).toMatchObject([{ success: true, errorCode: null, model: null }]);
    } finally {
      if (saved !== undefined) process.env.OPENAI_API_KEY = saved;
      resetConfigForTests();
    }
  });

  it("the request body is {query: 1..1000 characters}, trimmed, nothing else", () => {
    expect(NlFilterRequestSchema.parse({ query: "  murder  " })).toEqual({ query: "murder" });
    for (const bad of [{}, { query: "" }, { query: " " }, { query: "x".repeat(1001) }, { query: "a", other: 1 }]) {
      expect(NlFilterRequestSchema.safeParse(bad).success, JSON.stringify(bad).slice(0, 30)).toBe(false);
    }
    expect(NlFilterRequestSchema.safeParse({ query: "ż".repeat(1000) }).success).toBe(true);
  });
});
