/**
 * Topic coherence as mean NPMI (normalised pointwise mutual information, Bouma 2009) over all pairs of a topic's
 * keywords, with document co-occurrence counted in the analysed sample. Range −1 (never together) … 0 (independent)
 * … 1 (always together): a lawyer can read it as "do these words really occur in the same judgments".
 */
import type { SparseRow } from "./tfidf";

/** For each column, the ascending list of rows (documents) where it is non-zero. */
export function postings(rows: readonly SparseRow[], cols: number): Int32Array[] {
  const lists: number[][] = Array.from({ length: cols }, () => []);
  rows.forEach((r, i) => {
    for (const j of r.indices) lists[j].push(i);
  });
  return lists.map((l) => Int32Array.from(l));
}

function intersectionSize(a: Int32Array, b: Int32Array): number {
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      n++;
      i++;
      j++;
    } else if (a[i] < b[j]) i++;
    else j++;
  }
  return n;
}

/** NPMI of two terms given their posting lists and the document count. */
export function npmi(a: Int32Array, b: Int32Array, documents: number): number {
  const joint = intersectionSize(a, b);
  if (joint === 0) return -1;
  const pij = joint / documents;
  if (pij >= 1) return 1;
  const pmi = Math.log(pij / ((a.length / documents) * (b.length / documents)));
  return pmi / -Math.log(pij);
}

/** Mean NPMI over the pairs of `columns` (0 for fewer than two terms). */
export function meanNpmi(columns: readonly number[], post: readonly Int32Array[], documents: number): number {
  let sum = 0;
  let pairs = 0;
  for (let a = 0; a < columns.length; a++) {
    for (let b = a + 1; b < columns.length; b++) {
      sum += npmi(post[columns[a]], post[columns[b]], documents);
      pairs++;
    }
  }
  return pairs === 0 ? 0 : sum / pairs;
}
