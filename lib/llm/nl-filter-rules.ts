/**
 * The NL filter without a model: a deterministic translator from an English or Polish question to
 * `{filters, text_query}`. It reads three things and leaves the rest of the question as text_query:
 *
 * - dates: the spec's date table (nl-filter-dates.ts), on decision_date unless the appeal-judgment date is named;
 * - jurisdiction: only countries/legal systems named (nl-filter-jurisdiction.ts); writing in Polish sets nothing;
 * - vocabulary: the field registry's `synonyms` (enum values) and `nlTerms` (boolean yes/no), in both languages — the
 *   registry is the one list of words; nothing is listed here.
 *
 * Phrases are matched longest first on whole words and a matched span is not read again, so "female victim" sets
 * victim_gender (not offender_gender) and "did not confess" sets did_offender_confess=false (not true).
 */
import { EXTRACTED_FIELDS, type NlPhrases } from "@/lib/schema";
import { findDatePhrases } from "./nl-filter-dates";
import { jurisdictionSpans } from "./nl-filter-jurisdiction";
import { applyQuestionRules, TEXT_QUERY_MAX_CHARS, validateFilters, type NlFilterResult } from "./nl-filter";
import { NEVER_OUTPUT_KEYS } from "./nl-filter-schema";
import { findSentencePhrases } from "./nl-filter-sentence";
import { isNonContent } from "./nl-filter-stopwords";

/** One registry phrase: which key it sets and to what (an enum value, or true/false). */
interface VocabEntry {
  key: string;
  value: string | boolean;
  phrase: string;
  re: RegExp;
}

/** What a matched phrase set, with where it stood in the question (for tests and the text_query). */
export interface VocabMatch {
  key: string;
  value: string | boolean;
  text: string;
  start: number;
  end: number;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** "przyznał* się" → whole-word regex where `*` is any run of letters and spaces match any whitespace or hyphen. */
export function phraseRegex(phrase: string): RegExp {
  const words = phrase.trim().toLowerCase().split(/\s+/u);
  const body = words
    .map((w) => {
      const star = w.endsWith("*");
      const core = star ? w.slice(0, -1) : w;
      // "re-offending" and "re offending", "self-employed" and "self employed" read the same.
      const literal = core.split("-").map(escape).join("[-\\s]?");
      return star ? `${literal}\\p{L}*` : literal;
    })
    .join("[\\s-]+");
  return new RegExp(`(?<![\\p{L}\\p{N}])${body}(?![\\p{L}\\p{N}])`, "giu");
}

let vocabulary: VocabEntry[] | null = null;

/** Every phrase of the registry, longest first (ties: registry order), built once. */
export function nlVocabulary(): readonly VocabEntry[] {
  if (vocabulary) return vocabulary;
  const out: VocabEntry[] = [];
  const add = (key: string, value: string | boolean, phrases: NlPhrases | undefined) => {
    for (const phrase of [...(phrases?.en ?? []), ...(phrases?.pl ?? [])]) out.push({ key, value, phrase, re: phraseRegex(phrase) });
  };
  for (const f of EXTRACTED_FIELDS) {
    if (!f.rpcFilter || (NEVER_OUTPUT_KEYS as readonly string[]).includes(f.name)) continue;
    // The "after appeal" twins share the first-instance wording; a question's words are read as the first instance.
    if (f.name.endsWith("_after_appeal")) continue;
    if (f.control === "enum_multi") for (const o of f.enumValues ?? []) add(f.name, o.value, o.synonyms);
    if (f.control === "boolean_tri" && f.nlTerms) {
      add(f.name, true, f.nlTerms.yes);
      add(f.name, false, f.nlTerms.no);
    }
  }
  // Longest first: a longer phrase is the more specific reading of the same words. Stable sort keeps registry order.
  vocabulary = out.sort((a, b) => b.phrase.replace(/\*/g, "").length - a.phrase.replace(/\*/g, "").length);
  return vocabulary;
}

const overlaps = (spans: readonly [number, number][], start: number, end: number) => spans.some(([s, e]) => start < e && end > s);

/** The registry phrases found in the question, in text order; `claimed` spans (dates, countries) are skipped. */
export function findVocabulary(question: string, claimed: [number, number][] = []): VocabMatch[] {
  const taken = [...claimed];
  const found: VocabMatch[] = [];
  for (const entry of nlVocabulary()) {
    entry.re.lastIndex = 0;
    for (let m = entry.re.exec(question); m; m = entry.re.exec(question)) {
      const start = m.index;
      const end = start + m[0].length;
      if (overlaps(taken, start, end)) continue;
      taken.push([start, end]);
      found.push({ key: entry.key, value: entry.value, text: m[0], start, end });
    }
  }
  return found.sort((a, b) => a.start - b.start);
}

/** Words naming the appeal-judgment date ("date of the appeal court judgment"): read as the date field, not text. */
const APPEAL_DATE_WORDS =
  /(?:\bdate\s+of\s+(?:the\s+)?appeal(?:\s+court)?\s+judg(?:e)?ment\b|\bappeal(?:\s+court)?\s+judg(?:e)?ment\s+date\b|data\s+(?:wydania\s+)?wyroku\s+sądu\s+(?:odwoławczego|apelacyjnego|ii\s+instancji|drugiej\s+instancji))/giu;

/** The question without the claimed spans and non-content words (nl-filter-stopwords.ts), or null when nothing is left. */
export function leftoverText(question: string, spans: readonly [number, number][]): string | null {
  // Spans are UTF-16 offsets into the question; blank them (same length) so the other offsets stay exact.
  let text = question;
  for (const [s, e] of spans) text = `${text.slice(0, s)}${" ".repeat(e - s)}${text.slice(e)}`;
  const words = text
    .split(/\s+/u)
    .map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ""))
    .filter((w) => w !== "" && !isNonContent(w));
  const out = words.join(" ").trim();
  return out === "" ? null : Array.from(out).slice(0, TEXT_QUERY_MAX_CHARS).join("");
}

/** Spans the rules read as dates, the appeal-date field name, or a named country. */
function ruleSpans(question: string): [number, number][] {
  const spans: [number, number][] = [];
  let from = 0;
  for (const p of findDatePhrases(question)) {
    const at = question.indexOf(p.text, from);
    if (at >= 0) {
      spans.push([at, at + p.text.length]);
      from = at + p.text.length;
    }
  }
  APPEAL_DATE_WORDS.lastIndex = 0;
  for (let m = APPEAL_DATE_WORDS.exec(question); m; m = APPEAL_DATE_WORDS.exec(question)) spans.push([m.index, m.index + m[0].length]);
  spans.push(...jurisdictionSpans(question));
  return spans;
}

/**
 * Translate a question without a model: registry vocabulary, then the same date/jurisdiction rules and the same
 * shared-schema validation as the model path. Never throws for a valid question (at worst: no filters, all text).
 */
export function translateByRules(question: string): NlFilterResult {
  // Sentence lengths first: "over 5 years" is a range, and its words are not read again as vocabulary or text.
  const sentence = findSentencePhrases(question).map((p): [number, number] => [p.start, p.end]);
  const spans = [...ruleSpans(question), ...sentence];
  const matches = findVocabulary(question, spans);
  const filters: Record<string, unknown> = {};
  for (const m of matches) {
    if (typeof m.value === "boolean") {
      // "confessed … did not confess" contradicts itself: no condition rather than a guess.
      filters[m.key] = filters[m.key] === undefined || filters[m.key] === m.value ? m.value : null;
    } else {
      const list = (filters[m.key] as string[] | undefined) ?? [];
      if (!list.includes(m.value)) list.push(m.value);
      filters[m.key] = list;
    }
  }
  for (const [k, v] of Object.entries(filters)) if (v === null) delete filters[k];
  const withRules = applyQuestionRules(question, filters);
  return {
    filters: validateFilters(withRules),
    text_query: leftoverText(question, [...spans, ...matches.map((m): [number, number] => [m.start, m.end])]),
    mode: "rules",
  };
}
