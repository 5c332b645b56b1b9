/**
 * The no-model answer (mode "extractive"): whole sentences of the retrieved passages, ranked for the question, each
 * followed by its citation — `[n]` (the source: judgment and passage) or `[n, ¶ p]` when the judgment numbers its
 * paragraphs. Every sentence is verbatim text of a source's excerpt; nothing is generated, and a piece cut by the
 * passage's edges is never shown.
 *
 * Ranking: BM25 over the candidate sentences with the search's tokenizer (case and diacritics folded) on light stems,
 * so a question's word meets its inflected forms ("szablę" / "szabla", "sentence" / "sentenced"); the question's
 * question words ("what", "jaki"…) count for nothing. On top: the share of the question's words a sentence covers, what
 * the question asks for (a number for "how many"/"ile", a date or year for "when"/"kiedy", a term of imprisonment for
 * "what sentence"/"jaka kara"), negation when the question is negated, and the passage's retrieval rank. When no
 * sentence covers enough of the question the answer says so, in the question's language, and shows the closest
 * passages' sentences instead.
 */
import { words } from "@/lib/search/text/tokenize";
import { STOPWORDS } from "@/lib/search/text/stopwords";
import { looksWhole, paragraphMark, sentenceSpans } from "@/lib/text/sentences";
import { stem } from "@/lib/text/stem";
import type { Source } from "./retrieval";
import { QUESTION_WORDS } from "./question-words";

export interface RankedSentence {
  text: string;
  /** 1-based index into the sources: the citation. */
  source: number;
  /** The judgment's own paragraph number, when its text numbers paragraphs (UK style). */
  paragraph: number | null;
  score: number;
}

/** BM25 parameters (the usual values). */
const K1 = 1.2;
const B = 0.75;
const MIN_SENTENCE_CHARS = 25;
const MAX_SENTENCE_CHARS = 600;
/** A sentence answers only if it covers at least this share of the question's (idf-weighted) words. */
const MIN_COVERAGE = 0.34;

export interface SplitSentence {
  text: string;
  /** False for a piece cut by the passage's start or end (never shown in an answer). */
  complete: boolean;
  paragraph: number | null;
}

/**
 * Sentences of a passage, verbatim (lib/text/sentences: legal abbreviations do not end a sentence). A passage is cut
 * from its judgment by word count, so its first piece is a fragment unless the passage opens the judgment
 * (`opensText`), and its last is one unless it ends like a sentence. Paragraph numbers standing alone ("12.") are not
 * sentences: they set the paragraph of the sentences that follow.
 */
export function splitSentences(text: string, opensText = false): SplitSentence[] {
  const out: SplitSentence[] = [];
  const spans = sentenceSpans(text);
  let paragraph: number | null = null;
  spans.forEach((sp, i) => {
    const mark = paragraphMark(sp.text);
    if (mark !== null) {
      paragraph = mark;
      return;
    }
    const s = sp.text;
    if (s.length < MIN_SENTENCE_CHARS || s.length > MAX_SENTENCE_CHARS) return;
    const cutAtStart = i === 0 && !opensText;
    const cutAtEnd = i === spans.length - 1 && !looksWhole(s);
    out.push({ text: s, complete: !cutAtStart && !cutAtEnd && looksWhole(s), paragraph });
  });
  return out;
}

const contentWords = (text: string) => words(text).filter((w) => (!STOPWORDS.has(w) && w.length > 1) || /^\d+$/.test(w));

/** The stems of a question's content words (question words out). */
export function questionStems(question: string): string[] {
  return [...new Set(contentWords(question).filter((w) => !QUESTION_WORDS.has(w)).map(stem))];
}

type Asked = "number" | "date" | "term";

/** What kind of fact a question asks for, by its question words (EN, PL; folded). */
export function askedFor(question: string): Set<Asked> {
  const q = ` ${words(question).join(" ")} `;
  const asked = new Set<Asked>();
  if (/ (how many|how much|how long|ile|ilu|jak dlugo|jak wiele|what amount|jaka kwote|jakiej kwoty)/.test(q)) asked.add("number");
  if (/ (when|what date|which year|what year|kiedy|w ktorym roku|z ktorego roku|ktorego dnia|jakiego dnia|w jakim roku)/.test(q)) asked.add("date");
  if (/ (what sentence|which sentence|sentenced to|how long|jaka kara|jaka kare|jakiej kary|jaki wyrok|na ile lat|wymierzon|wymierzyl|kare)/.test(q)) asked.add("term");
  return asked;
}

const NUMBER_WORDS =
  /\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred|thousand|dwa|dwie|trzy|cztery|piec|szesc|siedem|osiem|dziewiec|dziesiec|dwadziescia|trzydziesci|czterdziesci|piecdziesiat|sto|tysiac\w*|trzydziestu|czterdziestu|dwoch|trzech|czterech)\b/;
const DATE = /\b(1[89]\d\d|20\d\d)\b|\b\d{1,2}[./]\d{1,2}[./]\d{2,4}\b/;
const TERM = /\b\d+\s+(years?|months?|weeks?|days?|lat|lata|miesiec\w*|miesiecy|tygodni\w*|dni)\b|imprisonment|pozbawienia wolnosci|ograniczenia wolnosci|grzywn/;
const NEGATION = /\b(not|no|never|nothing|none|without|neither|nor|nie|nigdy|bez|zaden|zadna|zadne|ani|brak)\b|n't\b/;

/** Whether a sentence carries what the question asks for (folded text). */
function carries(folded: string, asked: Asked): boolean {
  if (asked === "number") return /\d/.test(folded) || NUMBER_WORDS.test(folded);
  if (asked === "date") return DATE.test(folded);
  return TERM.test(folded);
}

interface Candidate {
  text: string;
  source: number;
  paragraph: number | null;
  folded: string;
  tf: Map<string, number>;
  len: number;
  relevance: number;
  order: number;
}

export interface Ranking {
  sentences: RankedSentence[];
  /** Whether the best sentence covers enough of the question to be called an answer. */
  answered: boolean;
}

/**
 * The best whole sentences for `question` over the sources' excerpts, at most `max`, duplicates dropped. When none
 * covers enough of the question (`answered` false), the closest sentences are returned instead, best passage first.
 */
export function rankForQuestion(question: string, sources: Source[], max: number): Ranking {
  const q = questionStems(question);
  const asked = askedFor(question);
  const negated = NEGATION.test(words(question).join(" "));
  const cands: Candidate[] = [];
  const seen = new Set<string>();
  sources.forEach((src, i) => {
    for (const s of splitSentences(src.excerpt, src.position === 0)) {
      if (!s.complete) continue;
      const key = s.text.toLowerCase().replace(/\s+/g, " ");
      if (seen.has(key)) continue;
      seen.add(key);
      const ws = contentWords(s.text).map(stem);
      const tf = new Map<string, number>();
      for (const w of ws) tf.set(w, (tf.get(w) ?? 0) + 1);
      cands.push({ text: s.text, source: i + 1, paragraph: s.paragraph, folded: words(s.text).join(" "), tf, len: ws.length, relevance: src.relevance, order: cands.length });
    }
  });
  if (cands.length === 0) return { sentences: [], answered: false };
  const n = cands.length;
  const avgLen = cands.reduce((a, c) => a + c.len, 0) / n || 1;
  const idf = new Map(q.map((t) => {
    const d = cands.filter((c) => c.tf.has(t)).length;
    return [t, Math.log(1 + (n - d + 0.5) / (d + 0.5))];
  }));
  const idfTotal = [...idf.values()].reduce((a, b) => a + b, 0) || 1;
  const scored = cands.map((c) => {
    let bm25 = 0;
    let covered = 0;
    for (const t of q) {
      const f = c.tf.get(t) ?? 0;
      if (!f) continue;
      const w = idf.get(t) ?? 0;
      covered += w;
      bm25 += (w * f * (K1 + 1)) / (f + K1 * (1 - B + (B * c.len) / avgLen));
    }
    const coverage = covered / idfTotal;
    let score = bm25 * (0.5 + coverage);
    for (const a of asked) if (carries(c.folded, a)) score *= 1.5;
    if (negated && NEGATION.test(c.folded)) score *= 1.3;
    // The retrieval's judgment of the passage (1 = best) counts a little: between equals, the better passage speaks.
    score *= 0.8 + 0.2 * c.relevance;
    return { c, score, coverage };
  });
  const ranked = scored.filter((s) => s.score > 0).sort((a, b) => b.score - a.score || a.c.order - b.c.order);
  const answered = ranked.length > 0 && ranked[0].coverage >= MIN_COVERAGE;
  // Nothing answers: the closest sentences, else the first whole sentences of the best passages.
  const pool = answered ? ranked.filter((s) => s.coverage > 0) : ranked.length ? ranked : scored;
  return {
    answered,
    sentences: pool.slice(0, max).map((s) => ({ text: s.c.text, source: s.c.source, paragraph: s.c.paragraph, score: Number(s.score.toFixed(4)) })),
  };
}

/** The ranked sentences alone (the answer's evidence). */
export function rankSentences(question: string, sources: Source[], max: number): RankedSentence[] {
  return rankForQuestion(question, sources, max).sentences;
}

export type AnswerLanguage = "en" | "pl";

/** The question's language: Polish when it has Polish letters or Polish function words, else English. */
export function questionLanguage(question: string): AnswerLanguage {
  if (/[ąćęłńóśźż]/i.test(question)) return "pl";
  const ws = words(question);
  const pl = ws.filter((w) => PL_MARKERS.has(w)).length;
  const en = ws.filter((w) => EN_MARKERS.has(w)).length;
  return pl > en ? "pl" : "en";
}
const PL_MARKERS = new Set("czy jak jaki jaka jakie kto kiedy gdzie dlaczego ile w z na do sie nie jest sa przez dla oraz wyrok sad kara".split(" "));
const EN_MARKERS = new Set("what which who when where why how the a an of in on was were is are did does court sentence".split(" "));

/** The answer's fixed lines, in the question's language (the UI labels the mode in its own language too). */
export const EXTRACTIVE_TEXT = {
  en: {
    preamble: "Extractive answer (no language model): sentences of the retrieved judgments that best answer your question.",
    empty: "No passage of the judgments matched your question; try other words or fewer filters.",
    noAnswer: "No sentence of the retrieved judgments answers the question directly. The closest passages:",
  },
  pl: {
    preamble: "Odpowiedź z cytatów (bez modelu językowego): zdania z odnalezionych orzeczeń, które najlepiej odpowiadają na pytanie.",
    empty: "Żaden fragment orzeczeń nie pasuje do pytania; spróbuj innych słów lub mniejszej liczby filtrów.",
    noAnswer: "Żadne zdanie odnalezionych orzeczeń nie odpowiada wprost na pytanie. Najbliższe fragmenty:",
  },
} as const;
export const EXTRACTIVE_PREAMBLE = EXTRACTIVE_TEXT.en.preamble;
export const EXTRACTIVE_EMPTY = EXTRACTIVE_TEXT.en.empty;

/** `[n]`, or `[n, ¶ p]` when the sentence's paragraph number is known. */
export function citation(s: Pick<RankedSentence, "source" | "paragraph">): string {
  return s.paragraph === null ? `[${s.source}]` : `[${s.source}, ¶ ${s.paragraph}]`;
}

/** The whole extractive answer text: the preamble line, then one cited sentence per line (or the no-answer line first). */
export function extractiveAnswer(question: string, sources: Source[], max: number): { text: string; sentences: RankedSentence[]; answered: boolean } {
  const t = EXTRACTIVE_TEXT[questionLanguage(question)];
  const { sentences, answered } = rankForQuestion(question, sources, max);
  if (sentences.length === 0) return { text: `${t.preamble}\n\n${t.empty}`, sentences, answered };
  const lines = sentences.map((s) => `${s.text} ${citation(s)}`).join("\n");
  return { text: answered ? `${t.preamble}\n\n${lines}` : `${t.preamble}\n\n${t.noAnswer}\n${lines}`, sentences, answered };
}

/** Split text into stream tokens (a word with its following whitespace), so joining them gives the text back. */
export function streamTokens(text: string): string[] {
  return text.match(/\s*\S+\s*/g) ?? [];
}
