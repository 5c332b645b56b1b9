/**
 * Prompts of the chat with retrieval in model mode. The model sees only the retrieved passages, numbered as
 * the sources the API returns, and must cite them as [n]; a claim it cannot source it must not make.
 */
/** What the prompt needs of a retrieved passage (lib/backend/assistants/retrieval.ts Source). */
export interface PromptSource {
  id: string;
  case_number: string | null;
  title: string | null;
  excerpt: string;
}

export const CHAT_SYSTEM_PROMPT = [
  "You are a research assistant for criminal appeal judgments from Poland (PL) and the United Kingdom (UK).",
  "Answer only from the numbered passages given with the question. Every sentence that states a fact, a holding or a",
  "rule must end with the citation of the passage it comes from, as [1], [2] (several: [1][3]). Make no claim that no",
  "passage supports: if the passages do not answer the question, say so plainly and say what they do cover. Do not use",
  "outside knowledge, do not invent case numbers, courts, dates or quotations, and do not give legal advice.",
  "Answer in the language of the question (English or Polish), briefly: at most about 200 words.",
].join("\n");

/** The user turn the model sees: the passages (numbered as the sources) and then the question. */
export function chatUserPrompt(question: string, sources: readonly PromptSource[]): string {
  if (sources.length === 0) return `No passage was found for this question.\n\nQuestion: ${question}`;
  const passages = sources
    .map((s, i) => `[${i + 1}] ${s.case_number ?? s.title ?? s.id}${s.title && s.case_number ? ` — ${s.title}` : ""}\n${s.excerpt}`)
    .join("\n\n");
  return `Passages:\n\n${passages}\n\nQuestion: ${question}`;
}
