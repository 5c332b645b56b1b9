/**
 * POST /api/reasoning-lines/{id}/analyze-outcomes, the words over the numbers: a summary only when a
 * model is given (configured), made from the outcome distribution; a failing or empty model answer leaves the
 * deterministic part alone (mode "no-model", no summary). The model is the ai SDK's mock (ai/test).
 */
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { summariseOutcomes, type OutcomeSummaryInput } from "@/lib/backend/analysis/reasoning-lines";
import { textResult as result } from "../helpers/mock-model";


const input: OutcomeSummaryInput = {
  line: "crypto-asset seizure",
  legal_question: "Is a crypto-asset a thing under art. 115 k.k.?",
  overall: [
    { value: "dismissed", count: 5 },
    { value: "allowed", count: 2 },
  ],
  by_year: [
    { year: "2021", members: 3, outcomes: [{ value: "dismissed", count: 3 }] },
    { year: "2023", members: 4, outcomes: [{ value: "allowed", count: 2 }, { value: "dismissed", count: 2 }] },
  ],
};

describe("analyze-outcomes summary", () => {
  it("no model: no summary, mode no-model", async () => {
    expect(await summariseOutcomes(null, input)).toEqual({ mode: "no-model", summary: null });
  });

  it("with a model: its answer (trimmed), asked from the distribution", async () => {
    const model = new MockLanguageModelV3({ doGenerate: result("  Dismissals gave way to allowed appeals after 2021.\n") });
    expect(await summariseOutcomes(model, input)).toEqual({ mode: "model", summary: "Dismissals gave way to allowed appeals after 2021." });
    expect(model.doGenerateCalls).toHaveLength(1);
    const prompt = JSON.stringify(model.doGenerateCalls[0].prompt);
    // The numbers the summary may use are in the prompt: the whole distribution, overall and per year.
    expect(prompt).toContain(JSON.stringify(JSON.stringify(input)).slice(1, -1));
    // The call carries the shared settings (a time budget as an abort signal).
    expect(model.doGenerateCalls[0].abortSignal).toBeInstanceOf(AbortSignal);
  });

  it("a failing model leaves the deterministic part: no summary, mode no-model", async () => {
    const throwing = new MockLanguageModelV3({
      doGenerate: async () => {
        throw new Error("connection reset");
      },
    });
    expect(await summariseOutcomes(throwing, input)).toEqual({ mode: "no-model", summary: null });
  });

  it("an empty answer is no summary", async () => {
    const blank = new MockLanguageModelV3({ doGenerate: result("   ") });
    expect(await summariseOutcomes(blank, input)).toEqual({ mode: "no-model", summary: null });
  });
});
