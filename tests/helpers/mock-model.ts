/**
 * What a mocked language model (ai/test MockLanguageModelV3 `doGenerate`) answers: one text part, as a chat model
 * returns under a JSON response format, with token counts so usage accounting has something to add up.
 */
import type { LanguageModelV3GenerateResult } from "@ai-sdk/provider";

export function textResult(text: string, tokens: { input?: number; output?: number } = {}): LanguageModelV3GenerateResult {
  const input = tokens.input ?? 10;
  const output = tokens.output ?? 20;
  return {
    content: [{ type: "text", text }],
    finishReason: { unified: "stop", raw: "stop" },
    usage: {
      inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: output, text: output, reasoning: undefined },
    },
    warnings: [],
  };
}
