/**
 * The no-model answer (mode "extractive"): the sentences of the retrieved passages that best match the
 * question, ranked by BM25 over those sentences with the search's own tokenizer and stop words (so a word is the same
 * word as in search: case and diacritics folded), each followed by its [n] citation. Every sentence is verbatim text of
 * a source's excerpt; nothing is generated.
 */
import { words } from "@/lib/search/text/tokenize";
import { STOPWORDS } from "@/lib/search/text/stopwords";
import type { Source } from "./retrieval";

export interface RankedSentence {
  text: string;
  /** 1-based index into the sources: the citation. */
  source: number;
  score: number;
}

/** BM25 parameters (the usual values). */
const K1 = 1.2;
const B = 0.75;
const MIN_SENTENCE_CHARS = 25;
const MAX_SENTENCE_CHARS = 600;

/**
 * Sentences of a passage, verbatim. A boundary is terminal punctuation followed by space and a capital letter or digit
 * (so "art. 148 k.k." or "s. 18" rarely split). Chunks are cut by token count, so the first and last pieces may be
 * fragments: those are marked, and ranked only after complete sentences.
 */
export function splitSentences(text: string): { text: string; complete: boolean }[] {
  const out: { text: string; complete: boolean }[] = [];
  const re = /[.!?](?:["'”’)\]]*)\s+(?=["'“„(]?[\p{Lu}\p{N}])/gu;
  let start = 0;
  const pieces: string[] = [];
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const end = m.index + m[0].trimEnd().length;
    pieces.push(text.slice(start, end));
    start = m.index + m[0].length;
  }
  pieces.push(text.slice(start));
  pieces.forEach((raw, i) => {
    const s = raw.trim();
    if (s.length < MIN_SENTENCE_CHARS || s.length > MAX_SENTENCE_CHARS) return;
    const startsWell = /^["'“„(]?[\p{Lu}\p{N}]/u.test(s);
    const endsWell = /[.!?]["'”’)\]]*$/u.test(s);
    out.push({ text: s, complete: (i > 0 || startsWell) && (i < pieces.length - 1 || endsWell) });
  });
  return out;
}

const terms = (text: string) => words(text).filter((w) => !STOPWORDS.has(w) && w.length > 1);

/**
 * The best sentences for `question` over the sources' excerpts (BM25, the sentences being the documents), at most
 * `max`, with duplicates dropped. Sentences that share no word with the question score 0 and are left out, unless
 * nothing matches at all: then the opening sentences of the best passages stand in (the retrieval found them).
 */
export function rankSentences(question: string, sources: Source[], max: number): RankedSentence[] {
  const q = [...new Set(terms(question))];
  const cands: { text: string; source: number; complete: boolean; tf: Map<string, number>; len: number }[] = [];
  const seen = new Set<string>();
  sources.forEach((src, i) => {
    for (const s of splitSentences(src.excerpt)) {
      const key = s.text.toLowerCase().replace(/\s+/g, " ");
      if (seen.has(key)) continue;
      seen.add(key);
      const ws = terms(s.text);
      const tf = new Map<string, number>();
      for (const w of ws) tf.set(w, (tf.get(w) ?? 0) + 1);
      cands.push({ text: s.text, source: i + 1, complete: s.complete, tf, len: ws.length });
    }
  });
  if (cands.length === 0) return [];
  const avgLen = cands.reduce((a, c) => a + c.len, 0) / cands.length || 1;
  const df = new Map<string, number>();
  for (const t of q) df.set(t, cands.filter((c) => c.tf.has(t)).length);
  const n = cands.length;
  const scored = cands.map((c, order) => {
    let score = 0;
    for (const t of q) {
      const f = c.tf.get(t) ?? 0;
      if (!f) continue;
      const d = df.get(t) ?? 0;
      const idf = Math.log(1 + (n - d + 0.5) / (d + 0.5));
      score += (idf * f * (K1 + 1)) / (f + K1 * (1 - B + (B * c.len) / avgLen));
    }
    // The passage's own rank breaks ties, so better passages speak first.
    return { ...c, score, order };
  });
  const matching = scored.filter((s) => s.score > 0);
  const pool = matching.length ? matching : scored.filter((s) => s.complete);
  pool.sort((a, b) => Number(b.complete) - Number(a.complete) || b.score - a.score || a.order - b.order);
  return pool.slice(0, max).map((s) => ({ text: s.text, source: s.source, score: Number(s.score.toFixed(4)) }));
}

/** The first line of every extractive answer (the API's text is English; the UI labels the mode in its language). */
export const EXTRACTIVE_PREAMBLE = "Extractive answer (no language model): the passages of the retrieved judgments that best match your question.";
export const EXTRACTIVE_EMPTY = "No passage of the judgments matched your question; try other words or fewer filters.";

/** The whole extractive answer text: the preamble line, then one cited sentence per line. */
export function extractiveAnswer(question: string, sources: Source[], max: number): { text: string; sentences: RankedSentence[] } {
  const sentences = rankSentences(question, sources, max);
  if (sentences.length === 0) return { text: `${EXTRACTIVE_PREAMBLE}\n\n${EXTRACTIVE_EMPTY}`, sentences };
  return { text: `${EXTRACTIVE_PREAMBLE}\n\n${sentences.map((s) => `${s.text} [${s.source}]`).join("\n")}`, sentences };
}

/** Split text into stream tokens (a word with its following whitespace), so joining them gives the text back. */
export function streamTokens(text: string): string[] {
  return text.match(/\s*\S+\s*/g) ?? [];
}
