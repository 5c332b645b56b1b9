/**
 * The judgment fields analysis reads, and the text it makes of them. The row shape is the judgments row (as
 * supabase/seed/generate.ts writes it and the RPCs return it): any object with these keys works, extra keys are
 * ignored, so routes can pass rows straight from the database.
 */
import { searchable } from "@/lib/schema";
import { isoDate } from "@/lib/search/document";
import { words } from "@/lib/search/text/tokenize";

export interface AnalysisDocument {
  id: string;
  case_number?: string | null;
  title?: string | null;
  /** ISO date (or a Date as pg returns it); documents without one are left out of the per-period weights. */
  decision_date?: string | Date | null;
  jurisdiction?: string | null;
  summary?: string | null;
  keywords?: readonly string[] | null;
  legal_topics?: readonly string[] | null;
  /** Other fields (ANALYSIS_FIELDS, full_text for style scoring) are read by name; rows may carry any others. */
}

/**
 * Fields that hold names of people and courts. Names are not topics: a judge who sits often would otherwise become a
 * "topic" of their own (measured on the demo corpus: before this rule two of eight UK topics were lists of judges'
 * names). Their words are removed from the document's analysis text wherever they occur (title and summary repeat
 * them), and the searchable ones among them are not read as text.
 */
export const NAME_FIELDS: readonly string[] = [
  "court_name",
  "base_appeal_court_judges_names",
  "base_case_name",
  "base_offender_representative_name",
  "base_crown_attorney_general_representative_name",
  "base_conv_court_names",
  "base_sent_court_name",
];

/**
 * Fields topic modelling reads (title, summary, keywords, legal topics and the searchable base text fields,
 * less the name fields above). `base_keywords` (the extractor's keywords) is read as well: the `keywords` column is
 * empty on every UK row (spec, data observations), so without it UK judgments would be described by their
 * boilerplate opening only.
 */
export const ANALYSIS_FIELDS: readonly string[] = [
  "title",
  "summary",
  "keywords",
  "legal_topics",
  "base_keywords",
  ...searchable()
    .map((f) => f.column)
    .filter((c) => !NAME_FIELDS.includes(c)),
];

function fieldOf(doc: AnalysisDocument, field: string): unknown {
  return (doc as unknown as Record<string, unknown>)[field];
}

/** Folded words of the document's names: its name fields and the names in `judges` ([{name, role}]). */
export function nameTerms(doc: AnalysisDocument): Set<string> {
  const out = new Set<string>();
  const add = (v: unknown) => {
    if (typeof v === "string") for (const w of words(v)) out.add(w);
    else if (Array.isArray(v)) for (const x of v) add(typeof x === "object" && x !== null ? (x as { name?: unknown }).name : x);
  };
  for (const f of NAME_FIELDS) add(fieldOf(doc, f));
  add(fieldOf(doc, "judges"));
  return out;
}

/**
 * Stretches of header text that name people or firms outside the name fields: the solicitors in a UK judgment's
 * "(instructed by … Solicitors) for the Appellant" (measured: firm names formed a topic of their own on the demo
 * corpus).
 */
const NAME_SPANS: readonly RegExp[] = [/\(instructed by [^)]*\)/gi];

/**
 * The analysis text of a document: its fields' strings (arrays joined) separated by newlines, in field order, with
 * NAME_SPANS removed.
 */
export function analysisText(doc: AnalysisDocument, fields: readonly string[] = ANALYSIS_FIELDS): string {
  const parts: string[] = [];
  for (const f of fields) {
    const v = fieldOf(doc, f);
    if (typeof v === "string") parts.push(v);
    else if (Array.isArray(v)) for (const x of v) if (typeof x === "string") parts.push(x);
  }
  let text = parts.join("\n");
  for (const re of NAME_SPANS) text = text.replace(re, " ");
  return text;
}

/** ISO decision date of a document, or undefined. */
export function decisionDateOf(doc: AnalysisDocument): string | undefined {
  return isoDate(doc.decision_date);
}
