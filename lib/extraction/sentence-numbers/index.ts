/**
 * Numbers out of sentences: typed sentence values (custody months, suspension, community hours, fine, kind) of the
 * first-instance sentence and of the sentence after appeal, each with its source span, read deterministically from
 * Polish and English judgments. `sentenceFields` flattens them into the base fields' names (lib/schema/fields.ts).
 */
import { extractSentenceNumbers, type SentenceNumbersResult } from "./judgment";
import type { SentenceValues, Span } from "./passage";

export { extractSentenceNumbers, readSentencePassage, passages, type SentenceNumbersResult, type SentenceNumbersOptions, type Outcome } from "./judgment";
export { readPassage, SENTENCE_KINDS, type SentenceKind, type SentenceValues, type PassageReading, type Span, type Currency } from "./passage";
export { findDurations, parseNumber } from "./numbers";

/** The typed values of one sentence, under their field names (without the `_after_appeal` suffix). */
export const SENTENCE_VALUE_FIELDS = [
  "sentence_kind",
  "sentence_custody_months",
  "sentence_suspended",
  "sentence_suspension_months",
  "sentence_community_hours",
  "sentence_fine_amount",
  "sentence_fine_currency",
] as const;
export type SentenceValueField = (typeof SENTENCE_VALUE_FIELDS)[number];

/** Every field this module fills: the first-instance values, the same after appeal, and the change in custody. */
export const SENTENCE_NUMBER_FIELDS = [
  ...SENTENCE_VALUE_FIELDS,
  ...SENTENCE_VALUE_FIELDS.map((f) => `${f}_after_appeal` as const),
  "sentence_change_months",
] as const;
export type SentenceNumberField = (typeof SENTENCE_NUMBER_FIELDS)[number];

export type SentenceFieldValue = string | number | boolean | null;

function valuesOf(v: SentenceValues | null): Record<SentenceValueField, SentenceFieldValue> {
  return {
    sentence_kind: v?.kind ?? null,
    sentence_custody_months: v?.custody_months ?? null,
    sentence_suspended: v?.suspended ?? (v && v.kind && v.kind !== "suspended" ? false : null),
    sentence_suspension_months: v?.suspension_months ?? null,
    sentence_community_hours: v?.community_hours ?? null,
    sentence_fine_amount: v?.fine_amount ?? null,
    sentence_fine_currency: v && (v.fine_amount !== null || v.fine_day_units !== null) ? v.fine_currency : null,
  };
}

function spansOf(v: SentenceValues | null): Partial<Record<SentenceValueField, Span>> {
  if (!v) return {};
  const s = v.spans;
  const out: Partial<Record<SentenceValueField, Span>> = {};
  if (s.kind) out.sentence_kind = s.kind;
  if (s.custody_months) out.sentence_custody_months = s.custody_months;
  if (s.suspended ?? s.suspension_months) out.sentence_suspended = (s.suspended ?? s.suspension_months) as Span;
  if (s.suspension_months) out.sentence_suspension_months = s.suspension_months;
  if (s.community_hours) out.sentence_community_hours = s.community_hours;
  if (s.fine_amount) out.sentence_fine_amount = out.sentence_fine_currency = s.fine_amount;
  return out;
}

/** The flat field values of a result. */
export function sentenceFields(r: SentenceNumbersResult): Record<SentenceNumberField, SentenceFieldValue> {
  const before = valuesOf(r.first_instance);
  const after = valuesOf(r.after_appeal);
  const out = { ...before } as Record<SentenceNumberField, SentenceFieldValue>;
  for (const f of SENTENCE_VALUE_FIELDS) out[`${f}_after_appeal`] = after[f];
  out.sentence_change_months = r.change_months;
  return out;
}

/** Where each flat value was read (offsets into the judgment text); the change has no span of its own. */
export function sentenceSpans(r: SentenceNumbersResult): Partial<Record<SentenceNumberField, Span>> {
  const out: Partial<Record<SentenceNumberField, Span>> = { ...spansOf(r.first_instance) };
  for (const [f, sp] of Object.entries(spansOf(r.after_appeal)) as [SentenceValueField, Span][]) out[`${f}_after_appeal`] = sp;
  return out;
}

/** Fields and spans of a judgment in one call. */
export function sentenceNumbers(fullText: string, opts: Parameters<typeof extractSentenceNumbers>[1]) {
  const result = extractSentenceNumbers(fullText, opts);
  return { result, fields: sentenceFields(result), spans: sentenceSpans(result) };
}
