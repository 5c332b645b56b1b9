/**
 * The sentence of a whole judgment, before and after appeal: which passages state the first-instance sentence,
 * which change it, and the values read from them (passage.ts). Pure functions over the text.
 *
 * After appeal: the first-instance values where the appeal is dismissed (the sentence stands), the values the
 * appellate court substitutes where it changes them (what it does not mention stays as it was), and nothing where the
 * conviction is quashed or the case sent back (no sentence stands).
 */
import type { Outcome } from "../rules/extract";
import { emptyValues, mentionsSentence, readPassage, type SentenceValues } from "./passage";

export type { Outcome };

export interface SentenceNumbersResult {
  first_instance: SentenceValues | null;
  after_appeal: SentenceValues | null;
  /** after − before custody in months, when both are known. */
  change_months: number | null;
  /** Where the first-instance values were read: the judgment text, or the extracted sentence texts (fallback). */
  source: "text" | "sentences" | null;
}

export interface SentenceNumbersOptions {
  language: "pl" | "en";
  /** How the appeal ended (rules-v1's outcome), when known. */
  outcome?: Outcome | null;
  /** Sentence texts already extracted (base `sentences_received`), read when the judgment text yields nothing. */
  sentenceTexts?: readonly string[];
}

interface Passage {
  start: number;
  end: number;
  text: string;
}

const ABBREVIATIONS = /(?:\b(?:art|ust|pkt|nr|sygn|tj|tzw|zw|m\.in|ok|r|k\.k|k\.p\.k|kk|kpk|adw|prok|poz|Dz|U|s|ss|para|paras|No|Nos|Mr|Mrs|Ms|Dr|v|St|cf|e\.g|i\.e|§)|\b\p{Lu})\.$/u;

/** Split a text into sentence-like passages: at new lines, semicolons and full stops that end a sentence. */
export function passages(text: string): Passage[] {
  const out: Passage[] = [];
  let start = 0;
  const push = (end: number) => {
    const raw = text.slice(start, end);
    const lead = raw.length - raw.trimStart().length;
    const t = raw.trim();
    if (t) out.push({ start: start + lead, end: start + lead + t.length, text: t });
    start = end;
  };
  for (const m of text.matchAll(/\n|;|[.!?](?=\s+[\p{Lu}\d„"(])/gu)) {
    const at = m.index ?? 0;
    if (m[0] === "." && ABBREVIATIONS.test(text.slice(Math.max(0, at - 12), at + 1))) continue;
    push(at + 1);
  }
  push(text.length);
  return out;
}

const has = (v: SentenceValues) =>
  v.kind !== null || v.custody_months !== null || v.life || v.suspended !== null || v.fine_amount !== null || v.fine_day_units !== null || v.community_hours !== null;

/** Fill what `into` lacks from `from`; a stated total custody (kara łączna, "a total of") replaces the unit term. */
function merge(into: SentenceValues, from: SentenceValues, fromIsTotal: boolean): SentenceValues {
  const v = { ...into, spans: { ...into.spans } };
  if (from.custody_months !== null && (v.custody_months === null || fromIsTotal)) {
    v.custody_months = from.custody_months;
    if (from.spans.custody_months) v.spans.custody_months = from.spans.custody_months;
  }
  if (from.life && !v.life) v.life = true;
  if (from.suspended !== null && v.suspended === null) {
    v.suspended = from.suspended;
    if (from.spans.suspended) v.spans.suspended = from.spans.suspended;
  }
  if (from.suspension_months !== null && v.suspension_months === null) {
    v.suspension_months = from.suspension_months;
    if (from.spans.suspension_months) v.spans.suspension_months = from.spans.suspension_months;
  }
  if (from.community_hours !== null && v.community_hours === null) {
    v.community_hours = from.community_hours;
    if (from.spans.community_hours) v.spans.community_hours = from.spans.community_hours;
  }
  if ((from.fine_amount !== null || from.fine_day_units !== null) && v.fine_amount === null && v.fine_day_units === null) {
    v.fine_amount = from.fine_amount;
    v.fine_currency = from.fine_currency;
    v.fine_day_units = from.fine_day_units;
    v.fine_day_rate = from.fine_day_rate;
    if (from.spans.fine_amount) v.spans.fine_amount = from.spans.fine_amount;
  }
  if (v.kind === null || (from.kind !== null && (fromIsTotal || rank(from.kind) > rank(v.kind)))) {
    v.kind = from.kind;
    if (from.spans.kind) v.spans.kind = from.spans.kind;
  }
  if (v.kind === "custody" && v.suspended) v.kind = "suspended";
  if (v.kind === "suspended" && v.suspended === false) v.kind = "custody";
  return v;
}

/** Custody outranks the others when one judgment passes several (the principal penalty). */
const rank = (k: string) => ({ custody: 5, suspended: 4, community: 3, fine: 2, discharge: 1, other: 0 })[k] ?? 0;

/** A change applied over the sentence it changes: named values replace, the rest stays. */
function applyChange(base: SentenceValues, change: SentenceValues): SentenceValues {
  const v = { ...base, spans: { ...base.spans } };
  if (change.custody_months !== null || change.life) {
    v.custody_months = change.custody_months;
    v.life = change.life;
    if (change.spans.custody_months) v.spans.custody_months = change.spans.custody_months;
  }
  if (change.suspended !== null) {
    v.suspended = change.suspended;
    v.suspension_months = change.suspended ? (change.suspension_months ?? v.suspension_months) : null;
    if (change.spans.suspended) v.spans.suspended = change.spans.suspended;
    if (change.spans.suspension_months) v.spans.suspension_months = change.spans.suspension_months;
  }
  if (change.community_hours !== null) v.community_hours = change.community_hours;
  if (change.fine_amount !== null || change.fine_day_units !== null) {
    v.fine_amount = change.fine_amount;
    v.fine_day_units = change.fine_day_units;
    v.fine_day_rate = change.fine_day_rate ?? v.fine_day_rate;
    if (v.fine_amount === null && v.fine_day_units !== null && v.fine_day_rate !== null) v.fine_amount = v.fine_day_units * v.fine_day_rate;
    v.fine_currency = change.fine_currency ?? v.fine_currency;
  }
  v.kind =
    v.custody_months !== null || v.life
      ? v.suspended
        ? "suspended"
        : "custody"
      : change.kind ?? base.kind;
  if (change.spans.kind) v.spans.kind = change.spans.kind;
  return v;
}

// Passages that speak of other sentences: previous convictions, the statutory range, guidelines, precedents.
const NOT_THIS_SENTENCE_PL =
  /uprzednio|wcześniej|poprzednio|już\s+karan|był[a-ząćęłńóśźż]*\s+(?:już\s+)?karan|zatarci|zagrożon[a-ząćęłńóśźż]*|zagrożeni[a-ząćęłńóśźż]*|nie\s+(?:niższ|krótsz)[a-ząćęłńóśźż]*|od\s+lat\s+\d|od\s+\d+\s+do\s+\d+\s+lat|do\s+lat\s+\d|wyrok[a-ząćęłńóśźż]*\s+(?:SN|Sądu\s+Najwyższego)\s+z\s+dnia|postanowieni[a-ząćęłńóśźż]*\s+SN|wnosząc[a-ząćęłńóśźż]*|wnosił[a-ząćęłńóśźż]*|wnosi\b|domagał|postulowan|żądan[a-ząćęłńóśźż]*|wniosek|apelacj[a-ząćęłńóśźż]*\s+(?:wniósł|wniosła)/i;
const NOT_THIS_SENTENCE_EN =
  /\bmaximum\b|\bstarting\s+point|\bcategory\s+range|\brange\s+(?:of|is|was)|\bguideline|\bnotional|\bwould\s+have\s+(?:been|passed|imposed)|\bdiscount|\bcredit\b|\bprevious(?:ly)?\b|\bprior\b|\bantecedents|\[\d{4}\]|\bIn\s+R\s+v\b|\bAttorney\s+General['’]s\s+Reference\s+No|\bsubmit|\bargue|\bcontend|\bshould\s+have\s+been|\bsought\b|\burged\b/i;
const FI_PL =
  /wymierzył[a-ząćęłńóśźż]*|skazał[a-ząćęłńóśźż]*|orzekł[a-ząćęłńóśźż]*|wymierzając|wymierzon[a-ząćęłńóśźż]*|orzeczon[a-ząćęłńóśźż]*|skazan[a-ząćęłńóśźż]*\s+(?:został[a-ząćęłńóśźż]*\s+)?(?:na|za)|został[a-ząćęłńóśźż]*\s+skazan|skazując|warunkowo\s+umorzył/i;
const FI_PL_PRESENT = /wymierza|skazuje|orzeka|warunkowo\s+zawiesza|warunkowo\s+umarza/i;
const FI_EN =
  /\bsentenced\b|\bpassed\s+(?:a\s+|the\s+)?(?:total\s+)?sentence|\bimposed\s+(?:a\s+|the\s+)?(?:total\s+|sentence|term|community|fine|conditional)|\breceived\s+(?:a\s+|the\s+)?(?:total\s+)?(?:sentence|term)|\bsentence\s+(?:was|imposed\s+was|passed\s+was)\b|\bwas\s+fined\b|\bmade\s+(?:a\s+)?(?:community\s+order|suspended\s+sentence\s+order)|\bwas\s+(?:conditionally|absolutely)\s+discharged|\bconditional\s+discharge\s+was|\bordered\s+to\s+(?:serve|pay)/i;
const APPELLATE_EN = /\bwe\s+(?:quash|substitute|reduce|increase|impose|allow|grant)|\bthis\s+court\b|\bsubstitut|\bwill\s+be\b/i;

/** Where the operative part of a Polish judgment ends (the reasons start). */
function plReasonsStart(text: string): number {
  const i = text.search(/^\s*UZASADNIENIE\s*$/mu);
  return i > 0 ? i : Math.min(text.length, 6000);
}

export function extractSentenceNumbers(fullText: string, opts: SentenceNumbersOptions): SentenceNumbersResult {
  const text = fullText;
  const pl = opts.language === "pl";
  const ps = passages(text).filter((p) => mentionsSentence(p.text));
  const appellate = pl
    ? /zaskarżon[a-ząćęłńóśźż]*\s+wyrok|apelacj/i.test(text.slice(0, 8000))
    : /court\s+of\s+appeal|\bappeal\b|\bappellant\b|\breference\b/i.test(text.slice(0, 8000));
  const operativeEnd = pl ? plReasonsStart(text) : 0;
  const tailStart = pl ? 0 : Math.max(0, text.length - Math.max(3000, Math.round(text.length * 0.25)));

  // First instance. A Polish first-instance judgment states its own sentence in the operative part; its reasons also
  // recount earlier convictions, so when the operative part states one, the reasons are not read.
  let first: SentenceValues | null = null;
  const operativeOnly = pl && !appellate;
  for (const p of ps) {
    if (operativeOnly && first && p.start >= operativeEnd) break;
    const isFi = pl
      ? (FI_PL.test(p.text) || (!appellate && FI_PL_PRESENT.test(p.text))) && !NOT_THIS_SENTENCE_PL.test(p.text) && !(appellate && p.start < operativeEnd && !FI_PL.test(p.text))
      : FI_EN.test(p.text) && !NOT_THIS_SENTENCE_EN.test(p.text) && !(APPELLATE_EN.test(p.text) && /\bwe\b|\bthis\s+court\b/i.test(p.text));
    if (!isFi) continue;
    const r = readPassage(p.text, p.start);
    if (!has(r.sentence)) continue;
    const total = pl ? /łączn/i.test(p.text) : /\btotal\b|\boverall\b|\bin\s+all\b/i.test(p.text);
    first = first ? merge(first, r.sentence, total) : r.sentence;
  }
  // Fallback for English texts whose only statement of the sentence is the one this court quashes.
  if (!first && !pl) {
    for (const p of ps) {
      if (p.start < tailStart || !/\bquash\w*\s+(?:the\s+)?(?:sentence|term)\s+of/i.test(p.text)) continue;
      const r = readPassage(p.text, p.start);
      if (has(r.sentence)) {
        first = r.sentence;
        break;
      }
    }
  }
  let source: SentenceNumbersResult["source"] = first ? "text" : null;
  if (!first && opts.sentenceTexts?.length) {
    const joined = opts.sentenceTexts.join("; ");
    const r = readPassage(joined, 0);
    if (has(r.sentence)) {
      first = { ...r.sentence, spans: {} }; // spans point into the extracted texts, not the judgment: dropped
      source = "sentences";
    }
  }

  // Changes made on appeal.
  let change: SentenceValues | null = null;
  if (appellate) {
    for (const p of ps) {
      const inOperative = pl ? p.start < operativeEnd : p.start >= tailStart;
      if (!inOperative) continue;
      if (pl ? NOT_THIS_SENTENCE_PL.test(p.text) && !/zmienia/i.test(p.text) : NOT_THIS_SENTENCE_EN.test(p.text) && !/\bwe\b/i.test(p.text)) continue;
      const r = readPassage(p.text, p.start);
      if (!r.changedTo) continue;
      // A new sentence imposed on appeal ("wymierza karę łączną", "substitute a total of") replaces custody.
      change = change ? merge(change, r.changedTo, pl ? /łączn/i.test(p.text) : /\btotal\b/i.test(p.text)) : r.changedTo;
    }
  }

  let after: SentenceValues | null = null;
  const outcome = opts.outcome ?? null;
  if (outcome === "outcome_conviction_quashed" || outcome === "outcome_other") after = null;
  else if (change) after = first ? applyChange(first, change) : change;
  else if (outcome === "outcome_dismissed_or_refused" && first) after = { ...first, spans: { ...first.spans } };

  const change_months = first && after && first.custody_months !== null && after.custody_months !== null ? Math.round((after.custody_months - first.custody_months) * 10) / 10 : null;
  return { first_instance: first, after_appeal: after, change_months, source };
}

/** Empty values with no kind, for callers that want an object rather than null. */
export const noSentence = emptyValues;

/** One passage read on its own (an extracted sentence text, a labelled example): its sentence and what it changes it to. */
export function readSentencePassage(text: string): SentenceNumbersResult {
  const r = readPassage(text);
  const first = has(r.sentence) ? r.sentence : null;
  const after = r.changedTo ? (first ? applyChange(first, r.changedTo) : r.changedTo) : null;
  const change_months = first && after && first.custody_months !== null && after.custody_months !== null ? Math.round((after.custody_months - first.custody_months) * 10) / 10 : null;
  return { first_instance: first, after_appeal: after, change_months, source: first ? "text" : null };
}
