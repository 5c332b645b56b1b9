/**
 * A chat follow-up rewritten against its thread by fixed rules, so that every message retrieves for itself:
 *   - a reference to the previous answer's judgment ("it", "that judgment", "this case"; "ten wyrok", "tego", "w tej
 *     sprawie") is replaced by that judgment's case number and the search is held to that judgment;
 *   - a reference to its court ("the same court", "that court"; "ten sam sąd", "tego samego sądu") is replaced by the
 *     court's name and the search is held to that court;
 *   - an elliptical follow-up ("And the sentence?", "A co z karą?": it opens with a conjunction, or names at most one
 *     thing besides generic legal words) carries the previous search's words;
 *   - anything else is a question of its own and is searched as written (a Polish burglary question after a UK
 *     robbery one finds Polish burglary judgments).
 * The thread's filters (jurisdiction, BaseSchemaFilters) are carried by the caller when the message brings none.
 */
import { words } from "@/lib/search/text/tokenize";
import { STOPWORDS } from "@/lib/search/text/stopwords";
import { stem } from "@/lib/text/stem";
import { QUESTION_WORDS } from "./question-words";

export interface PreviousJudgment {
  id: string;
  /** What the rewritten query names it by: its case number, else its title. */
  label: string;
  court?: string | null;
}

export interface ThreadContext {
  /** The previous turn's retrieval query (its question when it was not rewritten); null on a thread's first message. */
  previousQuery: string | null;
  /** The judgment the previous answer was most about (its first source). */
  previousJudgment: PreviousJudgment | null;
}

export interface FollowUp {
  /** The query searched for (the message itself when no rule applied). */
  query: string;
  /**
   * What an extractive answer's sentences are ranked against: the message, with the carried words when the topic
   * was carried (a judgment or court named by the rewrite is already the search's scope, not words to look for).
   */
  rankQuery: string;
  rewritten: boolean;
  /** Which rules applied, in order. */
  rules: Array<"judgment" | "court" | "topic">;
  /** Search only this judgment. */
  judgmentId: string | null;
  /** Search only this court's judgments. */
  court: string | null;
}

/** A phrase pointing at the previous answer's judgment. */
const JUDGMENT_REF = new RegExp(
  [
    String.raw`\b(?:that|this|the same|the said|the previous|the last|the above|the earlier)\s+(?:judgments?|judgements?|cases?|decisions?|rulings?|appeals?)\b`,
    String.raw`\b(?:ten|tym|tego|temu|tej|tę|tamten|tamtego|tamtym|tamtej|owym|owego|owej|to|tą|poprzedni\p{L}*)\s+(?:wyrok\p{L}*|orzeczeni\p{L}*|spraw\p{L}*|postanowieni\p{L}*|apelacj\p{L}*)(?![\p{L}\p{N}])`,
    String.raw`\b(?:it|its)\b`,
    String.raw`(?:^|\s)(?:tego|w nim|niego|nim|jego)(?=[\s?.!,]|$)`,
  ].join("|"),
  "giu",
);

/** A phrase pointing at the previous answer's court. */
const COURT_REF =
  /\b(?:the same court|that court|this court|the same tribunal)\b|(?:^|\s)(?:ten sam sąd|tego samego sądu|tym samym sądzie|temu samemu sądowi|ten sam sad|tego samego sadu|tym samym sadzie|tamten sąd|tamtego sądu|tamtym sądzie|tego sądu|ten sąd|tym sądzie)(?=[\s?.!,]|$)/giu;

/** Words of the follow-up's opening that mark it as continuing the previous question. */
const CONTINUES = /^\s*(?:and|also|what about|how about|then|so|oraz|także|również|co z|(?:a|i) (?:co|jak|czy|kto|ile|gdzie|kiedy|jaki|jaka|jakie|jaką|dlaczego))(?![\p{L}\p{N}])/iu;

/** Legal words that name no topic of their own (stemmed on use): a question of only these continues the thread's. */
const GENERIC = new Set(
  (
    "court courts judgment judgement case appeal appeals appellant defendant offender accused decide decided decision sentence sentenced " +
    "say said find found give given impose imposed rule ruled judge judges happen happened reason reasons outcome result held hold " +
    "other else more also then what about that this same " +
    "sad sadu sadem sadzie wyrok wyroku wyrokiem sprawa sprawy sprawie oskarzony oskarzonego oskarzonemu apelacja apelacji apelacje kara kare kary " +
    "orzekl orzeczono orzeczenie uznal uznano postanowil zdecydowal wymierzyl wymierzono powod powody wynik tez jeszcze inne ten ta to tym tego"
  )
    .split(" ")
    .map(stem),
);

const contentStems = (s: string) =>
  words(s)
    .filter((w) => !STOPWORDS.has(w) && !QUESTION_WORDS.has(w) && (w.length > 1 || /\d/.test(w)))
    .map(stem);

/** Whether a message points at the previous judgment or its court (the caller then looks up the court's name). */
export function followUpRefs(message: string): { judgment: boolean; court: boolean } {
  const court = new RegExp(COURT_REF.source, COURT_REF.flags).test(message);
  const withoutCourt = message.replace(new RegExp(COURT_REF.source, COURT_REF.flags), " ");
  return { judgment: new RegExp(JUDGMENT_REF.source, JUDGMENT_REF.flags).test(withoutCourt), court };
}

/** Whether a message continues the previous question rather than asking one of its own. */
export function isElliptical(message: string): boolean {
  if (CONTINUES.test(message)) return true;
  return contentStems(message).filter((w) => !GENERIC.has(w)).length <= 1;
}

/** The follow-up's retrieval, by the rules above. Deterministic: the same message and thread give the same query. */
export function rewriteFollowUp(message: string, ctx: ThreadContext): FollowUp {
  const plain: FollowUp = { query: message, rankQuery: message, rewritten: false, rules: [], judgmentId: null, court: null };
  if (ctx.previousQuery === null && ctx.previousJudgment === null) return plain;
  const refs = followUpRefs(message);
  const prev = ctx.previousJudgment;
  let query = message;
  const out: FollowUp = { ...plain };
  if (refs.court && prev?.court) {
    const court = prev.court;
    query = query.replace(new RegExp(COURT_REF.source, COURT_REF.flags), (m) => `${/^\s/.test(m) ? " " : ""}${court}`);
    out.court = court;
    out.rules.push("court");
  }
  if (refs.judgment && prev && !out.court) {
    query = query.replace(new RegExp(JUDGMENT_REF.source, JUDGMENT_REF.flags), (m) => `${/^\s/.test(m) ? " " : ""}${prev.label}`);
    out.judgmentId = prev.id;
    out.rules.push("judgment");
  }
  if (out.rules.length === 0 && ctx.previousQuery && isElliptical(message)) {
    // The previous search's words the message lacks, in their own spelling, after the message.
    const have = new Set(contentStems(message));
    const carried: string[] = [];
    for (const w of ctx.previousQuery.split(/\s+/)) {
      const s = contentStems(w);
      if (s.length === 0 || s.every((x) => have.has(x))) continue;
      for (const x of s) have.add(x);
      carried.push(w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ""));
    }
    if (carried.length) {
      query = `${message.trim()} ${carried.join(" ")}`;
      out.rules.push("topic");
    }
  }
  out.query = query.replace(/\s+/g, " ").trim();
  out.rankQuery = out.rules.includes("topic") ? out.query : message;
  out.rewritten = out.rules.length > 0;
  return out;
}
