/** Compiled filter predicates, remembered by filter and answering from a per-document memo from their second use. */
import { compileFilter, type FilterNode, type Predicate } from "../filter";
import type { FilterDoc } from "../filter/evaluate";
import { LruCache } from "@/lib/lru";

interface Entry {
  compiled: Predicate;
  memoized: Predicate | null;
}

/**
 * The predicate answering from a memo per stored document: a filter is typically repeated (facet selections, every
 * page and keystroke of a search), and evaluating it costs ~1 µs a document (property reads on documents of hundreds
 * of shapes) against ~50 ns for the lookup. Stored documents are replaced, never changed, so an answer can never go
 * stale (the WeakMap lets replaced documents go).
 */
function memoize(compiled: Predicate): Predicate {
  const memo = new WeakMap<FilterDoc, boolean>();
  return (doc) => {
    let v = memo.get(doc);
    if (v === undefined) {
      v = compiled(doc);
      memo.set(doc, v);
    }
    return v;
  };
}

/**
 * A memoized predicate's answers are its compiled predicate's: both share one verdict array per document array, so a
 * filter's second search does not answer every match again through the memo (a WeakMap write per document: the
 * second 'sąd apelacyjny' with a filter at 10x the demo corpus took 134 ms, now 55).
 */
const verdictOwner = new WeakMap<Predicate, Predicate>();

/** Per predicate, per document array: its answers by position (see passes). */
const verdicts = new WeakMap<Predicate, WeakMap<ReadonlyArray<FilterDoc | undefined>, Uint8Array>>();

/**
 * The answers of `pred` for the documents of `docs` (a segment's documents by ordinal, or the vector rows'), by
 * position: 0 not asked yet, 1 passes, 2 fails (or no document). An array of stored documents is never changed in
 * place (a new one is made when the documents change, and its answers die with it), so an answer never goes stale. A
 * common word with a filter asks about tens of thousands of documents per keystroke, and a byte read costs a small
 * fraction of the memo's WeakMap lookup (autocomplete "sąd" with a filter: most of its time at 4x the demo corpus).
 */
export function verdictsFor(pred: Predicate, docs: ReadonlyArray<FilterDoc | undefined>): Uint8Array {
  const owner = verdictOwner.get(pred) ?? pred;
  let perArray = verdicts.get(owner);
  if (!perArray) {
    perArray = new WeakMap();
    verdicts.set(owner, perArray);
  }
  let v = perArray.get(docs);
  if (!v) {
    v = new Uint8Array(docs.length);
    perArray.set(docs, v);
  }
  return v;
}

/** Whether docs[i] exists and passes `pred`, answered from and recorded in `v` (verdictsFor(pred, docs)). */
export function passes(v: Uint8Array, pred: Predicate, docs: ReadonlyArray<FilterDoc | undefined>, i: number): boolean {
  let x = v[i];
  if (x === 0) {
    const doc = docs[i];
    x = doc && pred(doc) ? 1 : 2;
    v[i] = x;
  }
  return x === 1;
}

export class PredicateCache {
  /** 16 filters × 12k answers at most. */
  private readonly predicates = new LruCache<string, Entry>(16);

  /**
   * The filter's predicate. Its first search evaluates it directly: filling the memo costs a WeakMap write per
   * document (~1 µs, a quarter of the worst allowed filter's cost), wasted on a filter never sent again;
   * from its second search on, the memo answers.
   */
  get(filter: FilterNode | undefined): Predicate | null {
    if (!filter) return null;
    const key = JSON.stringify(filter);
    const entry = this.predicates.get(key);
    if (!entry) {
      const compiled = compileFilter(filter);
      this.predicates.set(key, { compiled, memoized: null });
      return compiled;
    }
    if (!entry.memoized) {
      entry.memoized = memoize(entry.compiled);
      verdictOwner.set(entry.memoized, entry.compiled);
    }
    return entry.memoized;
  }
}
