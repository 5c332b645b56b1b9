/**
 * The assistant tools' deterministic parts and model paths: TextRank sentences are verbatim and
 * stable, the argumentation rules classify paragraphs by the shared reasoning patterns and infer the party, the
 * precedent factors come from shared data, and every model path runs against the ai SDK's mock model, including a
 * malformed structured output (502 with its code) and the 0.4·similarity + 0.6·relevance score.
 */
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { splitSentences, textRank, topSentences } from "@/lib/analysis/textrank";
import { inferParty, modelArguments, paragraphs, ruleArguments } from "@/lib/backend/assistants/argumentation";
import { extractiveSummary, modelKeyPoints, modelSummary } from "@/lib/backend/assistants/document-helpers";
import { applyScores, matchingFactors, precedentQueryText, rescore, type Precedent } from "@/lib/backend/assistants/precedents";
import { modelCallError, toJudgmentForTools, type JudgmentForTools } from "@/lib/backend/assistants/tools-common";
import { ApiError } from "@/lib/errors";
import { ArgumentationRequestSchema, SummarizeRequestSchema } from "@/lib/schema/requests/assistant-tools";
import { generateJudgment } from "@/supabase/seed/generate";
import { JUDGE_INDEXES, PLANTED_JUDGE } from "@/supabase/seed/planted-lines";
import { textResult } from "../helpers/mock-model";

const result = (text: string) => textResult(text, { input: 100 });
const answering = (text: string) => new MockLanguageModelV3({ doGenerate: result(text) });

async function errorOf(p: Promise<unknown>): Promise<{ status: number; code: string }> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ApiError) return { status: e.status, code: e.code };
    throw e;
  }
  throw new Error("expected a failure");
}

function doc(over: Partial<JudgmentForTools> = {}): JudgmentForTools {
  return toJudgmentForTools({ id: "11111111-1111-4111-8111-111111111111", case_number: "II AKa 1/20", title: "t", full_text: "", ...over });
}

const seedDoc = (i: number) => {
  const g = generateJudgment(7, i);
  return doc({ id: g.id, case_number: g.case_number, full_text: g.full_text });
};

describe("TextRank sentences", () => {
  const text = generateJudgment(7, 3).full_text;

  it("are verbatim slices of the text, in document order, and stable", () => {
    const top = topSentences(text, 6);
    expect(top).toHaveLength(6);
    for (const s of top) expect(text.slice(s.start, s.start + s.text.length)).toBe(s.text);
    expect(top.map((s) => s.index)).toEqual([...top.map((s) => s.index)].sort((a, b) => a - b));
    expect(topSentences(text, 6)).toEqual(top);
    expect(new Set(top.map((s) => s.text)).size).toBe(6);
  });

  it("do not end at legal abbreviations", () => {
    const s = splitSentences("Sąd zważył, że art. 148 § 1 k.k. ma zastosowanie, np. w tej sprawie. Apelacja jest zasadna. See s. 2 of the Act.");
    expect(s.map((x) => x.text)).toEqual(["Sąd zważył, że art. 148 § 1 k.k. ma zastosowanie, np. w tej sprawie.", "Apelacja jest zasadna.", "See s. 2 of the Act."]);
  });

  it("rank the sentence that shares most with the others first", () => {
    const t =
      "The appellant was convicted of robbery at the petrol station. The robbery at the petrol station was recorded on camera. " +
      "The camera recorded the appellant at the petrol station during the robbery. Lunch was served at noon in the canteen.";
    const ranked = textRank(t).sort((a, b) => b.score - a.score);
    expect(ranked.at(-1)?.text).toMatch(/^Lunch/);
  });

  it("give an empty summary for a text without sentences", () => {
    expect(topSentences("", 3)).toEqual([]);
    expect(extractiveSummary(doc({ full_text: "WYROK" }), "short").summary).toBe("");
  });
});

describe("argumentation rules", () => {
  const judge = JUDGE_INDEXES.map((i) => generateJudgment(7, i)).find((r) => r.judges.some((j) => j.name === PLANTED_JUDGE.name));

  it("classify the planted teleological paragraphs, with phrases as evidence and no strength", () => {
    expect(judge).toBeDefined();
    const a = ruleArguments(doc({ id: judge!.id, full_text: judge!.full_text }), { detail_level: "detailed" });
    const tele = a.arguments.filter((x) => x.reasoning_pattern === "teleological");
    expect(tele.length).toBeGreaterThan(0);
    for (const x of a.arguments) {
      expect(x.strength).toBeUndefined();
      expect(x.evidence?.length).toBeGreaterThan(0);
    }
    expect(tele.some((x) => x.evidence?.some((e) => /ratio legis|cel|celowo/i.test(e)))).toBe(true);
  });

  it("keep at most 5 (basic) or 12 (detailed) arguments; focus areas narrow the paragraphs", () => {
    const text = judge!.full_text;
    expect(ruleArguments(doc({ full_text: text }), { detail_level: "basic" }).arguments.length).toBeLessThanOrEqual(5);
    const none = ruleArguments(doc({ full_text: text }), { detail_level: "basic", focus_areas: ["zzzz nieistniejące"] });
    expect(none.arguments).toEqual([]);
    expect(none.overall).toMatch(/No argument-bearing/);
  });

  it("infer the party from cue words", () => {
    expect(inferParty("Obrońca oskarżonego podniósł w apelacji obrońcy, że wyrok jest niesprawiedliwy.")).toBe("defence");
    expect(inferParty("Prokurator w apelacji prokuratora wskazał na rażącą łagodność kary.")).toBe("prosecution");
    expect(inferParty("Sąd Apelacyjny zważył, co następuje.")).toBe("court");
    expect(inferParty("For the appellant it was submitted that the appellant's trial was unfair.")).toBe("defence");
    expect(inferParty("The Crown submits, for the prosecution, that the sentence was lenient.")).toBe("prosecution");
  });

  it("split paragraphs and ignore short lines", () => {
    expect(paragraphs("WYROK\n\n" + "a".repeat(100) + "\n" + "b".repeat(90))).toHaveLength(2);
  });
});

describe("precedent factors and scores", () => {
  const source = doc({ keywords: ["kryptowaluta", "bitcoin"], cited_legislation: ["art. 115 § 9 k.k."], base_convict_offences: ["theft"], base_appeal_outcome: ["outcome_dismissed_or_refused"], summary: "Streszczenie." });

  it("name what the candidate shares with the source", () => {
    const c = doc({ keywords: ["Kryptowaluta", "oszustwo"], cited_legislation: ["art. 115 § 9 k.k."], base_convict_offences: ["theft"], base_appeal_outcome: ["outcome_dismissed_or_refused"] });
    expect(matchingFactors(c, source, "q")).toEqual(["legislation: art. 115 § 9 k.k.", "keyword: Kryptowaluta", "offence: theft", "outcome: outcome_dismissed_or_refused"]);
    expect(matchingFactors(doc(), source, "q")).toEqual([]);
  });

  it("without a source, name what the query mentions", () => {
    const c = doc({ keywords: ["kryptowaluta", "rozbój"] });
    expect(matchingFactors(c, null, "Czy KRYPTOWALUTA jest mieniem?")).toEqual(["keyword: kryptowaluta"]);
    expect(precedentQueryText("pytanie o mienie", source)).toBe("Streszczenie.. kryptowaluta, bitcoin\npytanie o mienie");
  });

  const candidates: Precedent[] = [
    { id: "a", case_number: "A", title: null, decision_date: null, court_name: null, similarity: 0.9, score: 0.9, matching_factors: [] },
    { id: "b", case_number: "B", title: null, decision_date: null, court_name: null, similarity: 0.5, score: 0.5, matching_factors: ["keyword: x"] },
  ];

  it("model mode: score = 0.4·similarity + 0.6·relevance, re-ranked", async () => {
    const model = answering(
      JSON.stringify({
        results: [
          { id: "a", relevance: 0.1, factors: [], explanation: "Unrelated." },
          { id: "b", relevance: 1, factors: ["same provision"], explanation: "On point." },
        ],
      }),
    );
    const { scores, tokens } = await rescore("question about mienie", source, candidates, new Map(), model, {});
    expect(tokens).toBe(120);
    const out = applyScores(candidates, scores, 10);
    expect(out.map((p) => [p.id, p.relevance, p.score])).toEqual([
      ["b", 1, 0.8],
      ["a", 0.1, 0.42],
    ]);
    expect(out[0].matching_factors).toEqual(["same provision", "keyword: x"]);
    expect(out[0].explanation).toBe("On point.");
    // The prompt holds the candidates and the question (the model reads only what retrieval found).
    const prompt = JSON.stringify(model.doGenerateCalls[0].prompt);
    expect(prompt).toContain("question about mienie");
    expect(prompt).toContain("id: b");
  });

  it("model mode: a candidate the model skipped keeps 0.4·similarity; a malformed answer is 502", async () => {
    expect(applyScores(candidates, new Map(), 1)).toEqual([{ ...candidates[0], relevance: 0, score: 0.36 }]);
    expect(await errorOf(rescore("q", null, candidates, new Map(), answering('{"results": [{"id": "a", "relevance": 7}]}'), {}))).toEqual({
      status: 502,
      code: "ASSISTANT_OUTPUT_INVALID",
    });
  });
});

describe("model paths (mock model)", () => {
  const d = seedDoc(3);
  const body = ArgumentationRequestSchema.parse({ document_ids: [d.id], detail_level: "basic" });

  it("argumentation: a structured answer becomes the analysis", async () => {
    const arg = {
      party: "defence",
      factual_premises: ["The appellant was at home."],
      legal_premises: ["art. 148 § 1 k.k."],
      conclusion: "The conviction is unsafe.",
      reasoning_pattern: "deductive",
      strength: "weak",
      counter_arguments: ["The alibi was not confirmed."],
      references: ["art. 148 § 1 k.k."],
    };
    const { analysis, tokens } = await modelArguments(d, body, answering(JSON.stringify({ arguments: [arg], overall: "One weak defence argument." })), {});
    expect(analysis).toEqual({ document_id: d.id, case_number: d.case_number, title: d.title, arguments: [arg], overall: "One weak defence argument." });
    expect(tokens).toBe(120);
  });

  it("argumentation: malformed structured output is 502 ARGUMENTATION_OUTPUT_INVALID", async () => {
    for (const bad of ['{"arguments": [{"party": "judge"}], "overall": "x"}', "not json at all", '{"overall": ""}']) {
      expect(await errorOf(modelArguments(d, body, answering(bad), {}))).toEqual({ status: 502, code: "ARGUMENTATION_OUTPUT_INVALID" });
    }
  });

  it("a failing or slow model is 502 ASSISTANT_MODEL_FAILED / 504 ASSISTANT_MODEL_TIMEOUT", async () => {
    const failing = new MockLanguageModelV3({
      doGenerate: async () => {
        throw new Error("connection refused");
      },
    });
    expect(await errorOf(modelArguments(d, body, failing, {}))).toEqual({ status: 502, code: "ASSISTANT_MODEL_FAILED" });
    const timeout = Object.assign(new Error("timed out"), { name: "TimeoutError" });
    expect(modelCallError(timeout, "ASSISTANT_OUTPUT_INVALID").code).toBe("ASSISTANT_MODEL_TIMEOUT");
  });

  it("summary: the model's text, trimmed; an empty answer is 502", async () => {
    const r = await modelSummary(d, "short", answering("  The appeal was dismissed.  "), {});
    expect(r.summary.summary).toBe("The appeal was dismissed.");
    expect(await errorOf(modelSummary(d, "short", answering("   "), {}))).toEqual({ status: 502, code: "ASSISTANT_OUTPUT_INVALID" });
  });

  it("key points: the model's list; malformed output is 502", async () => {
    const r = await modelKeyPoints(d, answering(JSON.stringify({ key_points: ["First.", "Second."] })));
    expect(r).toMatchObject({ key_points: ["First.", "Second."], mode: "llm", tokens_used: 120 });
    expect(await errorOf(modelKeyPoints(d, answering('{"key_points": []}')))).toEqual({ status: 502, code: "ASSISTANT_OUTPUT_INVALID" });
  });
});

describe("request schemas", () => {
  it("summarize takes document_id or document_ids, not both, and a known length", () => {
    const id = "11111111-1111-4111-8111-111111111111";
    expect(SummarizeRequestSchema.safeParse({ document_id: id }).data?.length).toBe("medium");
    expect(SummarizeRequestSchema.safeParse({ document_ids: [id] }).success).toBe(true);
    expect(SummarizeRequestSchema.safeParse({ document_id: id, document_ids: [id] }).success).toBe(false);
    expect(SummarizeRequestSchema.safeParse({}).success).toBe(false);
    expect(SummarizeRequestSchema.safeParse({ document_ids: [id, id] }).success).toBe(false);
  });
});
