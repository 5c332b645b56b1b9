import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { approxTokens, extractWithModel, extractWithRules, selectSections } from "@/lib/backend/schemas/extract-document";
import { schemaFieldsSchema } from "@/lib/schema/requests/schemas";
import { FIXTURES } from "../fixtures/extraction/judgments";
import { textResult as result } from "../helpers/mock-model";

const fields = schemaFieldsSchema().parse([
  { name: "case_number", type: "string", required: true },
  { name: "judges", type: "string[]" },
  { name: "decision_date", type: "date" },
  { name: "outcome", type: "enum", enum_values: ["outcome_dismissed_or_refused", "outcome_sentence_more_severe"] },
  { name: "sentence_years", type: "number" },
]);


describe("rules mode (rules-v1) under a user's schema", () => {
  it("fills the fields rules know, in the field's type, and leaves the rest null", () => {
    const out = extractWithRules(FIXTURES[0].text, fields);
    expect(out).toEqual({
      status: "completed",
      model: "rules-v1",
      values: {
        case_number: "II AKa 145/19",
        judges: ["Andrzej Rymarski (Przewodniczący)", "Barbara Nowińska (Sędzia (sprawozdawca))", "Marek Wojtas (Sędzia)"],
        decision_date: "2019-10-17",
        outcome: "outcome_dismissed_or_refused",
        sentence_years: null,
      },
    });
  });

  it("fails with the reason when a required field rules can fill finds nothing (never invents it)", () => {
    const strict = schemaFieldsSchema().parse([{ name: "victim_age", type: "integer", required: true, rule: { kind: "number", cue: "victim aged" } }]);
    const out = extractWithRules(FIXTURES[3].text, strict);
    expect(out.status).toBe("failed");
    expect(out.status === "failed" && out.error).toContain("/victim_age");
  });

  it("leaves a required field that needs a model null without failing the document (it is declared, not missing)", () => {
    // Behaviour changed on purpose: such a field used to fail every document of a rules-mode job; now the job is
    // refused up front unless confirmed, and a confirmed run shows the column as "needs a model".
    const strict = schemaFieldsSchema().parse([{ name: "case_number", type: "string" }, { name: "victim_age", type: "integer", required: true }]);
    const out = extractWithRules(FIXTURES[3].text, strict);
    expect(out).toMatchObject({ status: "completed", values: { victim_age: null } });
  });
});

describe("model mode with a mock model", () => {
  it("accepts an answer that passes the schema", async () => {
    const values = { case_number: "II AKa 145/19", judges: null, decision_date: "2019-10-17", outcome: null, sentence_years: 15 };
    const model = new MockLanguageModelV3({ doGenerate: result(JSON.stringify(values)) });
    expect(await extractWithModel(FIXTURES[0].text, fields, { model, modelId: "mock-1" })).toEqual({ status: "completed", values, model: "mock-1" });
  });

  it("fails a document whose answer breaks the schema, with the reason", async () => {
    const model = new MockLanguageModelV3({ doGenerate: result(JSON.stringify({ case_number: "x", outcome: "quashed", sentence_years: "fifteen" })) });
    const out = await extractWithModel(FIXTURES[0].text, fields, { model, modelId: "mock-1" });
    expect(out.status).toBe("failed");
    const error = out.status === "failed" ? out.error : "";
    expect(error).toContain("/outcome");
    expect(error).toContain("/sentence_years");
  });

  it("fails a document whose model does not answer in time", async () => {
    const slow = new MockLanguageModelV3({
      doGenerate: ({ abortSignal }) => new Promise((_r, reject) => abortSignal?.addEventListener("abort", () => reject(abortSignal.reason))),
    });
    expect(await extractWithModel(FIXTURES[0].text, fields, { model: slow, modelId: "mock-1", timeoutMs: 50 })).toEqual({
      status: "failed",
      error: "the model did not answer in time",
      model: "mock-1",
    });
  });

  it("sends a long judgment's opening, closing and key paragraphs under the token budget", async () => {
    const filler = Array.from({ length: 400 }, (_, i) => `Paragraph ${i} about the weather and the witnesses' journeys.`).join("\n\n");
    const long = `${FIXTURES[3].text.slice(0, 1500)}\n\n${filler}\n\nThe judge imposed a sentence of 9 years' imprisonment.\n\n${filler}\n\nFor these reasons the appeal is dismissed.`;
    const picked = selectSections(long, 2000);
    expect(approxTokens(picked)).toBeLessThanOrEqual(2000);
    expect(picked).toContain("Neutral Citation Number: [2021] EWCA Crim 1123");
    expect(picked).toContain("9 years' imprisonment");
    expect(picked).toContain("the appeal is dismissed");
    const model = new MockLanguageModelV3({ doGenerate: result(JSON.stringify({ case_number: "202100456 A3", judges: null, decision_date: null, outcome: null, sentence_years: 9 })) });
    await extractWithModel(long, fields, { model, modelId: "mock-1", maxInputTokens: 2000 });
    const prompt = JSON.stringify(model.doGenerateCalls[0].prompt);
    expect(prompt).toContain("9 years");
    expect(prompt.length).toBeLessThan(2000 * 4 + 2000);
    expect(selectSections("short", 2000)).toBe("short");
  });
});
