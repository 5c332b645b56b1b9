/**
 * Which words a highlight may mark, shared by both adapters so they agree: a query's terms and their folded,
 * prefixed and typo-matched forms, but never a stop-word ("z", "on", "with") nor a one-letter token (an initial
 * such as "Z." in "Artura Z."). A query made only of stop-words therefore highlights nothing.
 */
import { STOPWORDS } from "./stopwords";
import { fold } from "./tokenize";

/** Whether a folded word may carry a highlight. */
export function isMarkableTerm(folded: string): boolean {
  // UTF-16 length: a one-letter word of the scripts indexed here is one unit (hot: every expansion of every word).
  return folded.length >= 2 && !STOPWORDS.has(folded);
}

/** Whether a query word (folded) contributes highlights at all. */
export function marksQueryWord(folded: string): boolean {
  return isMarkableTerm(folded);
}

/** Whether the text inside one `<mark>` (as an engine returned it) may stay marked. */
export function keepsMark(markedText: string): boolean {
  return isMarkableTerm(fold(markedText));
}
