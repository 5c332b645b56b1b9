/** Outcomes of a line's judgments, counted, and summarised by a model when one is configured. */
import { generateText, type LanguageModel } from "ai";
import type { DbClient } from "@/lib/supabase/db-client";
import { isoDate } from "@/lib/search/document";
import { languageModel, llmConfigured } from "@/lib/llm/provider";
import { llmCallSettings } from "@/lib/llm/call";
import { logger } from "@/lib/logger";
import { getLine } from "./read";
import { type JudgmentRow, judgmentRows, strs, tally } from "./rows";

export interface OutcomeAnalysis {
  line_id: string;
  members: number;
  overall: { value: string; count: number }[];
  by_year: { year: string; outcomes: { value: string; count: number }[]; members: number }[];
  mode: "no-model" | "model";
  summary: string | null;
}

const sortedCounts = (m: Map<string, number>) =>
  [...m].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([value, count]) => ({ value, count }));

/**
 * POST /{id}/analyze-outcomes (admin): the appeal outcomes of the members (the extracted base field
 * base_appeal_outcome), overall and per year. A summary in words only when a model is configured (llmConfigured());
 * otherwise mode "no-model" and the distribution alone.
 */
export async function analyzeOutcomes(db: DbClient, id: string): Promise<OutcomeAnalysis> {
  const line = await getLine(db, id);
  const rows = await judgmentRows(db, line.members.map((m) => m.judgment_id));
  const overall = tally(rows.flatMap((r) => strs(r.base_appeal_outcome)));
  const years = new Map<string, JudgmentRow[]>();
  for (const r of rows) {
    const y = isoDate(r.decision_date)?.slice(0, 4) ?? "unknown";
    years.set(y, [...(years.get(y) ?? []), r]);
  }
  const by_year = [...years]
    .sort((a, b) => (a[0] < b[0] ? -1 : 1))
    .map(([year, rs]) => ({ year, members: rs.length, outcomes: sortedCounts(tally(rs.flatMap((r) => strs(r.base_appeal_outcome)))) }));
  const result: OutcomeAnalysis = { line_id: id, members: rows.length, overall: sortedCounts(overall), by_year, mode: "no-model", summary: null };
  return { ...result, ...(await summariseOutcomes(llmConfigured() ? languageModel() : null, { line: line.label, legal_question: line.legal_question, overall: result.overall, by_year })) };
}

export interface OutcomeSummaryInput {
  line: string;
  legal_question: string | null;
  overall: OutcomeAnalysis["overall"];
  by_year: OutcomeAnalysis["by_year"];
}

/**
 * The words over an outcome distribution: only with a model, from the distribution alone (the numbers are the prompt).
 * A failed, timed-out or empty model answer leaves the deterministic part as it is: mode "no-model", no summary.
 */
export async function summariseOutcomes(model: LanguageModel | null, input: OutcomeSummaryInput): Promise<Pick<OutcomeAnalysis, "mode" | "summary">> {
  if (!model) return { mode: "no-model", summary: null };
  try {
    const { text } = await generateText({
      model,
      system: "You summarise, in two or three plain sentences for a lawyer, how appeal outcomes in a line of criminal judgments changed over time. Use only the numbers given.",
      prompt: JSON.stringify(input),
      ...llmCallSettings({ functionId: "reasoning-lines.analyze-outcomes" }),
    });
    const summary = text.trim();
    return summary ? { mode: "model", summary } : { mode: "no-model", summary: null };
  } catch (e) {
    logger.warn({ err: e instanceof Error ? e.message : String(e) }, "outcome summary: the model call failed; answering without it");
    return { mode: "no-model", summary: null };
  }
}
