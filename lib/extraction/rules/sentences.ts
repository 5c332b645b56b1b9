/**
 * rules-v1's sentence numbers: lib/extraction/sentence-numbers over the judgment, with rules-v1's outcome (dismissed,
 * changed, quashed) and its sentence texts as the fallback, shaped for the registry's typed columns
 * (lib/schema/sentence-fields.ts): months and hours as whole numbers, currency codes in lower case.
 */
import { sentenceNumbers, SENTENCE_NUMBER_FIELDS, type SentenceFieldValue, type SentenceNumberField, type Span } from "@/lib/extraction/sentence-numbers";
import { extractRules, type RulesResult } from "./extract";

const WHOLE = /_(?:months|hours)(?:_after_appeal)?$/;

export interface RulesSentenceNumbers {
  values: Record<SentenceNumberField, SentenceFieldValue>;
  /** Where each value was read, as offsets into the judgment text (line ends normalised to \n). */
  spans: Partial<Record<SentenceNumberField, Span>>;
}

export function extractRulesSentenceNumbers(fullText: string, rules?: RulesResult): RulesSentenceNumbers {
  const text = fullText.replace(/\r\n?/g, "\n");
  const r = rules ?? extractRules(text);
  const { fields, spans } = sentenceNumbers(text, { language: r.language, outcome: r.outcome, sentenceTexts: r.sentences });
  const values = { ...fields };
  for (const f of SENTENCE_NUMBER_FIELDS) {
    const v = values[f];
    if (typeof v === "number" && WHOLE.test(f)) values[f] = Math.round(v);
    if (typeof v === "string" && f.startsWith("sentence_fine_currency")) values[f] = v.toLowerCase();
  }
  return { values, spans };
}
