/**
 * Reasoning styles counted from phrase patterns (data/reasoning-patterns.json: Polish and English patterns per style,
 * each documented). Shared by the judge fingerprint and argumentation analysis: matching is a
 * general function over any text, and every count keeps the phrases and judgments it came from, so a lawyer can check
 * a score against the text.
 *
 * Matching is case- and accent-insensitive: patterns run over the folded text (the search tokenizer's fold: lower
 * case, no diacritics, ł → l) and match offsets are mapped back to the original for snippets.
 */
import { fold } from "@/lib/search/text/tokenize";
import data from "./data/reasoning-patterns.json";

export const REASONING_STYLES = ["textual", "deductive", "analogical", "policy", "teleological"] as const;
export type ReasoningStyle = (typeof REASONING_STYLES)[number];

export interface ReasoningPattern {
  id: string;
  style: ReasoningStyle;
  lang: "pl" | "en";
  /** How the phrase reads, for people (shown as evidence). */
  phrase: string;
  /** Why the phrase signals its style. */
  note: string;
  /** A sentence the pattern must match (documentation, checked by the tests). */
  example: string;
  /** Global regex over folded text. */
  regex: RegExp;
}

function isStyle(s: string): s is ReasoningStyle {
  return (REASONING_STYLES as readonly string[]).includes(s);
}

/** Compile pattern records (the data file's shape); throws on an unknown style or language, or a bad regex. */
export function compilePatterns(
  records: readonly { id: string; style: string; lang: string; phrase: string; note: string; example: string; regex: string }[],
): ReasoningPattern[] {
  return records.map((r) => {
    if (!isStyle(r.style)) throw new Error(`pattern ${r.id}: unknown style ${r.style}`);
    if (r.lang !== "pl" && r.lang !== "en") throw new Error(`pattern ${r.id}: unknown language ${r.lang}`);
    return {
      id: r.id,
      style: r.style,
      lang: r.lang,
      phrase: r.phrase,
      note: r.note,
      example: r.example,
      regex: new RegExp(r.regex, "g"),
    };
  });
}

export const REASONING_PATTERNS: readonly ReasoningPattern[] = compilePatterns(data.patterns);

/** What each style means (from the data file). */
export const STYLE_DESCRIPTIONS: Readonly<Record<ReasoningStyle, string>> = data.styles;

/**
 * Folded text and, when folding changed the length (decomposed input, "ß"), the original offset of every folded
 * code unit. Text in NFC (what the corpus holds) folds one unit to one unit, so the common path needs no map.
 */
export interface FoldedText {
  folded: string;
  /** Original offset of folded[i], or null when offsets are the same. */
  map: Int32Array | null;
}

const NON_ASCII_RE = /[^\x00-\x7f]/gu;

/**
 * The tokenizer's fold for a whole text, one character at a time: ASCII is only lower-cased, and every other
 * character goes through `fold` (memoised per character; `fold` on whole judgments would memoise every text and
 * normalising 30,000-character strings is slow). Removing all combining marks makes per-character folding equal to
 * folding the whole string (a unit test checks they agree).
 */
export function foldText(text: string): string {
  return text.replace(NON_ASCII_RE, (c) => fold(c)).toLowerCase();
}

export function foldWithOffsets(text: string): FoldedText {
  let sameLength = true;
  const folded = text
    .replace(NON_ASCII_RE, (c) => {
      const f = fold(c);
      if (f.length !== c.length) sameLength = false;
      return f;
    })
    .toLowerCase();
  if (sameLength && folded.length === text.length) return { folded, map: null };
  let out = "";
  const map: number[] = [];
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i) ?? 0;
    const len = cp > 0xffff ? 2 : 1;
    const f = fold(text.slice(i, i + len));
    out += f;
    for (let k = 0; k < f.length; k++) map.push(i);
    i += len;
  }
  return { folded: out, map: Int32Array.from(map) };
}

function originalOffset(ft: FoldedText, i: number, textLength: number): number {
  if (!ft.map) return i;
  return i < ft.map.length ? ft.map[i] : textLength;
}

export interface PatternMatch {
  pattern: ReasoningPattern;
  /** Offsets in the original text. */
  start: number;
  end: number;
}

/**
 * One regex for a pattern list: each pattern is one capturing group of an alternation, so a text is scanned once
 * (about twice as fast as one scan per pattern) and a stretch of text counts once (where patterns overlap, the
 * leftmost match wins, and among matches starting at the same place the pattern listed first).
 */
const combinedCache = new WeakMap<readonly ReasoningPattern[], RegExp>();

function combined(patterns: readonly ReasoningPattern[]): RegExp {
  let re = combinedCache.get(patterns);
  if (!re) {
    for (const p of patterns) {
      // A capturing group inside a pattern would shift the group numbers that say which pattern matched.
      const groups = (new RegExp(`(?:${p.regex.source})|`).exec("") ?? []).length - 1;
      if (groups !== 0) throw new Error(`pattern ${p.id}: use (?:...) instead of capturing groups`);
    }
    re = new RegExp(patterns.map((p) => `(${p.regex.source})`).join("|"), "g");
    combinedCache.set(patterns, re);
  }
  return re;
}

/** Every match of the patterns in a text, by position. */
export function findPatternMatches(
  text: string,
  patterns: readonly ReasoningPattern[] = REASONING_PATTERNS,
): PatternMatch[] {
  if (patterns.length === 0) return [];
  const ft = foldWithOffsets(text);
  const re = new RegExp(combined(patterns));
  const out: PatternMatch[] = [];
  for (let m = re.exec(ft.folded); m; m = re.exec(ft.folded)) {
    if (m[0].length === 0) {
      re.lastIndex++;
      continue;
    }
    let g = 1;
    while (m[g] === undefined) g++;
    out.push({
      pattern: patterns[g - 1],
      start: originalOffset(ft, m.index, text.length),
      end: originalOffset(ft, m.index + m[0].length, text.length),
    });
  }
  return out;
}

/** The match with about `radius` characters each side, cut at spaces, whitespace collapsed, "…" where cut. */
export function snippetAround(text: string, start: number, end: number, radius = 80): string {
  let from = Math.max(0, start - radius);
  let to = Math.min(text.length, end + radius);
  if (from > 0) {
    const sp = text.indexOf(" ", from);
    if (sp >= 0 && sp < start) from = sp + 1;
  }
  if (to < text.length) {
    const sp = text.lastIndexOf(" ", to);
    if (sp >= end) to = sp;
  }
  return (from > 0 ? "…" : "") + text.slice(from, to).replace(/\s+/g, " ").trim() + (to < text.length ? "…" : "");
}

export interface StyleText {
  document_id: string;
  case_number?: string | null;
  text: string;
}

export interface StyleEvidence {
  style: ReasoningStyle;
  pattern_id: string;
  phrase: string;
  count: number;
  /** Judgments where the phrase occurs (first match in each), in input order, at most `maxExamples`. */
  examples: { document_id: string; case_number: string | null; snippet: string }[];
}

export interface StyleScores {
  /** Documents scored. */
  documents: number;
  /** Matches per style. */
  counts: Record<ReasoningStyle, number>;
  /** Counts max-normalised to 0-100 (the most used style is 100; all 0 when nothing matched). */
  styles: Record<ReasoningStyle, number>;
  /** One entry per pattern that matched: by style order, then count (descending), then pattern id. */
  evidence: StyleEvidence[];
}

export interface ScoreOptions {
  patterns?: readonly ReasoningPattern[];
  /** Example judgments kept per phrase (default 3). */
  maxExamples?: number;
  /** Snippet half-width in characters (default 80). */
  snippetRadius?: number;
}

const zeroCounts = (): Record<ReasoningStyle, number> => ({
  textual: 0,
  deductive: 0,
  analogical: 0,
  policy: 0,
  teleological: 0,
});

/**
 * What scoring keeps of one text: per pattern that matched, the number of matches and the snippet around the first
 * one. Stored per judgment (judgment_reasoning_phrases) so a judge profile sums these instead of rescanning texts.
 */
export type PhraseCounts = Record<string, [count: number, firstSnippet: string]>;

export function phraseCounts(text: string, patterns: readonly ReasoningPattern[] = REASONING_PATTERNS, radius = 80): PhraseCounts {
  const out: PhraseCounts = {};
  for (const m of findPatternMatches(text, patterns)) {
    const seen = out[m.pattern.id];
    if (seen) seen[0]++;
    else out[m.pattern.id] = [1, snippetAround(text, m.start, m.end, radius)];
  }
  return out;
}

export interface CountedText {
  document_id: string;
  case_number?: string | null;
  phrases: PhraseCounts;
}

/**
 * Score reasoning styles from per-text phrase counts (the texts in the order given: examples are the first judgments
 * in that order where a phrase occurs). Patterns not in the list are ignored.
 */
export function scoreCounted(docs: Iterable<CountedText>, opts: Pick<ScoreOptions, "patterns" | "maxExamples"> = {}): StyleScores {
  const patterns = opts.patterns ?? REASONING_PATTERNS;
  const maxExamples = opts.maxExamples ?? 3;
  const byId = new Map(patterns.map((p) => [p.id, p]));
  const counts = zeroCounts();
  const byPattern = new Map<string, StyleEvidence>();
  let documents = 0;
  for (const doc of docs) {
    documents++;
    for (const [id, [n, snippet]] of Object.entries(doc.phrases)) {
      const pattern = byId.get(id);
      if (!pattern || n <= 0) continue;
      counts[pattern.style] += n;
      let ev = byPattern.get(id);
      if (!ev) {
        ev = { style: pattern.style, pattern_id: id, phrase: pattern.phrase, count: 0, examples: [] };
        byPattern.set(id, ev);
      }
      ev.count += n;
      if (ev.examples.length < maxExamples) ev.examples.push({ document_id: doc.document_id, case_number: doc.case_number ?? null, snippet });
    }
  }
  const max = Math.max(...REASONING_STYLES.map((s) => counts[s]));
  const styles = zeroCounts();
  for (const s of REASONING_STYLES) styles[s] = max > 0 ? Math.round((100 * counts[s]) / max) : 0;
  const order = (s: ReasoningStyle) => REASONING_STYLES.indexOf(s);
  const evidence = [...byPattern.values()].sort(
    (a, b) =>
      order(a.style) - order(b.style) || b.count - a.count || (a.pattern_id < b.pattern_id ? -1 : a.pattern_id > b.pattern_id ? 1 : 0),
  );
  return { documents, counts, styles, evidence };
}

/** Score reasoning styles over a set of texts (e.g. all judgments of one judge): their phrase counts, scored. */
export function scoreStyles(texts: Iterable<StyleText>, opts: ScoreOptions = {}): StyleScores {
  const patterns = opts.patterns ?? REASONING_PATTERNS;
  const radius = opts.snippetRadius ?? 80;
  function* counted(): Generator<CountedText> {
    for (const t of texts) yield { document_id: t.document_id, case_number: t.case_number, phrases: phraseCounts(t.text, patterns, radius) };
  }
  return scoreCounted(counted(), { patterns, maxExamples: opts.maxExamples });
}
