/**
 * Extractive summaries and key points without a model: sentences of the judgment ranked by TextRank
 * (Mihalcea & Tarau 2004: a graph of sentences weighted by word overlap, normalised by sentence lengths, ranked by
 * PageRank). Deterministic: the same text always gives the same sentences, and every sentence returned is a verbatim
 * slice of the input (trimmed), so a reader can find it in the judgment.
 *
 * Words are the analysis tokens (folded, stop words and legal boilerplate removed, lib/analysis/text.ts), so two
 * sentences are linked by the facts and law they share, not by "sąd", "the court" or "art".
 */
import { analysisTokens } from "./text";

export interface Sentence {
  /** Verbatim text (trimmed). */
  text: string;
  /** Offset of `text` in the input. */
  start: number;
  /** 0-based position among the sentences. */
  index: number;
}

/**
 * Abbreviations after which a full stop does not end a sentence (folded to lower case, without the dot): Polish legal
 * ones (art., ust., pkt, k.k., sygn., tj., np., godz.), English ones (s., ss., para., No., v., Mr., Dr.).
 */
const ABBREVIATIONS = new Set([
  "art", "ust", "pkt", "par", "lit", "zd", "kk", "kpk", "kc", "kpc", "kw", "kkw", "kks", "kp", "sygn", "akt", "tj", "np",
  "nr", "godz", "ok", "r", "zm", "poz", "dz", "u", "tzw", "tzn", "min", "in", "ul", "sp", "prof", "dr", "mec", "adw",
  "s", "ss", "para", "paras", "no", "nos", "v", "vs", "mr", "mrs", "ms", "dr", "j", "lj", "ljj", "cj", "hhj", "qc", "kc",
  "por", "zob", "vide", "red", "wyd", "sa", "sn", "ws", "st", "co", "ltd", "etc", "cf", "eg", "ie", "al", "op", "cit", "ibid", "pp", "p", "ch", "sch", "reg", "regs",
]);

const TERMINATOR_RE = /[.!?…]+["»”)]?(?=\s)|\n\s*\n|\n(?=\s*(?:[IVXLC]+\.|\d+\.|[A-ZĄĆĘŁŃÓŚŹŻ]{4,}\b))/g;
const MIN_SENTENCE_CHARS = 25;
const MAX_SENTENCE_CHARS = 800;

/** The word before a full stop, for the abbreviation check ("k.k." → "kk", "Art." → "art"). */
function wordBefore(text: string, dot: number): string {
  let i = dot;
  while (i > 0 && /[\p{L}.]/u.test(text[i - 1])) i--;
  return text.slice(i, dot).toLowerCase().replace(/\./g, "");
}

/**
 * Split a judgment into sentences: at ., !, ? followed by space (unless after an abbreviation or a single letter or a
 * number such as "148 § 1." mid-sentence, i.e. when the next word starts lower case), at blank lines, and before
 * numbered headings. Pieces shorter than MIN_SENTENCE_CHARS (headings, signatures) are kept as sentences but flagged
 * by `isRankable` so they are never chosen (nor is a piece starting in lower case: the tail of a split we got wrong).
 */
export function splitSentences(text: string): Sentence[] {
  const out: Sentence[] = [];
  let from = 0;
  const push = (end: number) => {
    const raw = text.slice(from, end);
    const lead = raw.length - raw.trimStart().length;
    const t = raw.trim();
    if (t) out.push({ text: t, start: from + lead, index: out.length });
    from = end;
  };
  TERMINATOR_RE.lastIndex = 0;
  for (let m = TERMINATOR_RE.exec(text); m; m = TERMINATOR_RE.exec(text)) {
    const end = m.index + m[0].length;
    if (m[0].startsWith(".")) {
      const w = wordBefore(text, m.index);
      const next = /\s*(\S)/.exec(text.slice(end, end + 20))?.[1] ?? "";
      // An abbreviation, a lone letter or a number followed by a lower-case word does not end the sentence.
      if ((ABBREVIATIONS.has(w) || w.length === 1 || /\d/.test(text[m.index - 1] ?? "")) && !/[A-ZĄĆĘŁŃÓŚŹŻ"„]/.test(next)) continue;
      if (ABBREVIATIONS.has(w) && /\d|§/.test(next)) continue;
    }
    push(end);
  }
  push(text.length);
  return out;
}

/** Whether a sentence can be chosen for a summary (long enough to say something, short enough to read). */
export function isRankable(s: Sentence): boolean {
  // A line ending in ":" introduces something ("w składzie:", "orzeka:"): not a statement of its own.
  return s.text.length >= MIN_SENTENCE_CHARS && s.text.length <= MAX_SENTENCE_CHARS && /\p{Ll}/u.test(s.text) && !s.text.endsWith(":") && !/^\p{Ll}/u.test(s.text);
}

export interface RankedSentence extends Sentence {
  score: number;
}

const DAMPING = 0.85;
/** Sentences ranked at most (a 30,000-character judgment has about 250; the cap bounds time and memory on huge texts). */
const MAX_SENTENCES = 1500;
const ITERATIONS = 30;

/**
 * TextRank scores of the rankable sentences. Edges: w(i,j) = |Wi ∩ Wj| / (log|Wi| + log|Wj|) over distinct analysis
 * terms, built through an inverted index (a term shared by more than a third of the sentences carries no signal and
 * is skipped, which also keeps the graph sparse on long texts).
 */
export function textRank(text: string): RankedSentence[] {
  const all = splitSentences(text).filter(isRankable).slice(0, MAX_SENTENCES);
  const n = all.length;
  if (n === 0) return [];
  const terms = all.map((s) => [...new Set(analysisTokens(s.text))]);
  const postings = new Map<string, number[]>();
  terms.forEach((ts, i) => {
    for (const t of ts) {
      let p = postings.get(t);
      if (!p) postings.set(t, (p = []));
      p.push(i);
    }
  });
  const maxDf = Math.max(2, Math.ceil(n / 3));
  // Shared-term counts in one flat upper-triangle matrix (n is capped, so n² stays a few MB): much faster than maps.
  const overlap = new Uint16Array(n * n);
  for (const p of postings.values()) {
    if (p.length < 2 || p.length > maxDf) continue;
    for (let a = 0; a < p.length; a++) {
      const row = p[a] * n;
      for (let b = a + 1; b < p.length; b++) overlap[row + p[b]]++;
    }
  }
  const logLen = terms.map((ts) => Math.log(Math.max(2, ts.length)));
  const edges: { to: number; w: number }[][] = Array.from({ length: n }, () => []);
  const outSum = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const c = overlap[i * n + j];
      if (c === 0) continue;
      const w = c / (logLen[i] + logLen[j]);
      edges[i].push({ to: j, w });
      edges[j].push({ to: i, w });
      outSum[i] += w;
      outSum[j] += w;
    }
  }
  let score = new Float64Array(n).fill(1);
  for (let it = 0; it < ITERATIONS; it++) {
    const next = new Float64Array(n).fill(1 - DAMPING);
    for (let i = 0; i < n; i++) {
      if (outSum[i] === 0) continue;
      const share = (DAMPING * score[i]) / outSum[i];
      for (const e of edges[i]) next[e.to] += share * e.w;
    }
    score = next;
  }
  return all.map((s, i) => ({ ...s, score: score[i] }));
}

/**
 * The `count` best sentences, in document order (a summary reads in the judgment's order). Ties go to the earlier
 * sentence, so the choice is deterministic.
 */
export function topSentences(text: string, count: number): RankedSentence[] {
  const ranked = textRank(text).sort((a, b) => b.score - a.score || a.index - b.index);
  // Judgments repeat formulae word for word; a summary says each thing once.
  const seen = new Set<string>();
  const out: RankedSentence[] = [];
  for (const s of ranked) {
    if (out.length >= count) break;
    const key = s.text.toLowerCase().replace(/\s+/g, " ");
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(s);
  }
  return out.sort((a, b) => a.index - b.index);
}
