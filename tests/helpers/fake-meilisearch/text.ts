/** Text matching of the fake: tokens, typo tolerance by word length, prefix on the last word, highlight, crop. */
import { foldDiacritics } from "@/lib/text/fold";
import type { Doc, Json, Settings } from "./model";

/** Meilisearch's normaliser: case and diacritics folded ("Ł" → "l"); the project's one folder does exactly that. */
export const normalizeWord = foldDiacritics;

export function tokenize(text: string): string[] {
  return (text.match(/[\p{L}\p{N}]+/gu) ?? []).map(normalizeWord);
}

function levenshtein(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      rowMin = Math.min(rowMin, cur[j]);
    }
    if (rowMin > max) return max + 1;
    prev = cur;
  }
  return prev[b.length];
}

/**
 * Typos allowed for a query word (Meilisearch `minWordSizeForTypos`; none for a word of `disableOnWords`, compared
 * case-insensitively, nor in an attribute of `disableOnAttributes`).
 */
function allowedTypos(word: string, s: Settings, attr?: string): number {
  if (!s.typoTolerance.enabled) return 0;
  if (s.typoTolerance.disableOnNumbers && /^\d+$/.test(word)) return 0;
  if (s.typoTolerance.disableOnWords.some((w) => normalizeWord(w) === word)) return 0;
  if (attr !== undefined && s.typoTolerance.disableOnAttributes.includes(attr)) return 0;
  const { oneTypo, twoTypos } = s.typoTolerance.minWordSizeForTypos;
  return word.length >= twoTypos ? 2 : word.length >= oneTypo ? 1 : 0;
}

/** Match of one query word against one token: typos used, or null; `exact` when neither prefix nor typo. */
function wordMatch(word: string, token: string, isPrefix: boolean, s: Settings, attr?: string): { typos: number; exact: boolean; prefixLen?: number } | null {
  if (token === word) return { typos: 0, exact: true };
  if (isPrefix && token.startsWith(word)) return { typos: 0, exact: false, prefixLen: word.length };
  const allowed = allowedTypos(word, s, attr);
  if (allowed > 0) {
    const d = levenshtein(word, token, allowed);
    if (d <= allowed) return { typos: d, exact: false };
    if (isPrefix && token.length > word.length) {
      const d2 = levenshtein(word, token.slice(0, word.length), allowed);
      if (d2 <= allowed) return { typos: d2, exact: false, prefixLen: word.length };
    }
  }
  return null;
}

function fieldText(v: Json | undefined): string[] {
  if (v === undefined || v === null) return [];
  if (typeof v === "string") return [v];
  if (typeof v === "number" || typeof v === "boolean") return [String(v)];
  if (Array.isArray(v)) return v.flatMap((x) => fieldText(x));
  return Object.values(v).flatMap((x) => fieldText(x));
}

export function matchDoc(d: Doc, attrs: string[], words: string[], prefixLast: boolean, s: Settings) {
  const perWord = words.map((w, i) => {
    const isPrefix = prefixLast && i === words.length - 1;
    let best: { typos: number; attr: number; exact: boolean } | null = null;
    attrs.forEach((attr, rank) => {
      for (const text of fieldText(d[attr])) {
        for (const tok of tokenize(text)) {
          const m = wordMatch(w, tok, isPrefix, s, attr);
          if (!m) continue;
          if (!best || m.typos < best.typos || (m.typos === best.typos && rank < best.attr) || (m.typos === best.typos && rank === best.attr && m.exact && !best.exact)) {
            best = { typos: m.typos, attr: rank, exact: m.exact };
          }
        }
      }
    });
    return best as { typos: number; attr: number; exact: boolean } | null;
  });
  // matchingStrategy "last": the longest matched prefix of the query words counts (trailing words are dropped).
  let matchedPrefix = 0;
  while (matchedPrefix < perWord.length && perWord[matchedPrefix]) matchedPrefix += 1;
  const used = perWord.slice(0, matchedPrefix) as Array<{ typos: number; attr: number; exact: boolean }>;
  return {
    matchedPrefix,
    typos: used.reduce((n, m) => n + m.typos, 0),
    bestAttribute: used.length ? Math.min(...used.map((m) => m.attr)) : 99,
    exact: used.filter((m) => m.exact).length,
  };
}

export function highlightText(text: string, words: string[], prefixLast: boolean, s: Settings, pre: string, post: string): string {
  if (words.length === 0) return text;
  return text.replace(/[\p{L}\p{N}]+/gu, (tok) => {
    const norm = normalizeWord(tok);
    for (let i = 0; i < words.length; i++) {
      const m = wordMatch(words[i], norm, prefixLast && i === words.length - 1, s);
      if (!m) continue;
      if (m.prefixLen !== undefined && m.prefixLen < tok.length) return `${pre}${tok.slice(0, m.prefixLen)}${post}${tok.slice(m.prefixLen)}`;
      return `${pre}${tok}${post}`;
    }
    return tok;
  });
}

export function cropText(text: string, words: string[], prefixLast: boolean, s: Settings, length: number, marker: string): string {
  const tokens = [...text.matchAll(/[\p{L}\p{N}]+/gu)];
  if (tokens.length <= length) return text;
  let first = 0;
  outer: for (let t = 0; t < tokens.length; t++) {
    const norm = normalizeWord(tokens[t][0]);
    for (let i = 0; i < words.length; i++) {
      if (wordMatch(words[i], norm, prefixLast && i === words.length - 1, s)) {
        first = t;
        break outer;
      }
    }
  }
  const start = Math.max(0, Math.min(first - Math.floor((length - 1) / 2), tokens.length - length));
  const end = start + length - 1;
  const from = tokens[start].index ?? 0;
  const to = (tokens[end].index ?? 0) + tokens[end][0].length;
  return `${start > 0 ? marker : ""}${text.slice(from, to)}${end < tokens.length - 1 ? marker : ""}`;
}
