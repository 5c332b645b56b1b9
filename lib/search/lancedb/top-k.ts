/**
 * Bounded selections: the first k items of a total order without sorting every item (the page, the semantic
 * candidates, similar()'s answer), with exactly the prefix a full sort gives.
 */

/**
 * The first `k` of the items 0..n-1 in the total order `before` (negative when a ranks first), in that order: a
 * bounded max-heap whose root is the last of the k best so far, so the result is exactly the prefix a full sort gives.
 * `skip(x, worst)`, when given, must only say true for items that rank after `worst`: it rejects them without `before`.
 */
export function boundedTop(
  n: number,
  k: number,
  before: (a: number, b: number) => number,
  skip: ((x: number, worst: number) => boolean) | null,
): number[] {
  if (k <= 0 || n <= 0) return [];
  if (k >= n) return Array.from({ length: n }, (_, i) => i).sort(before);
  const heap: number[] = [];
  for (let x = 0; x < n; x++) {
    if (heap.length < k) {
      heap.push(x);
      let c = heap.length - 1;
      while (c > 0) {
        const p = (c - 1) >> 1;
        if (before(heap[c], heap[p]) <= 0) break;
        [heap[c], heap[p]] = [heap[p], heap[c]];
        c = p;
      }
      continue;
    }
    if (skip && skip(x, heap[0])) continue;
    if (before(x, heap[0]) >= 0) continue;
    heap[0] = x;
    let c = 0;
    for (;;) {
      const l = 2 * c + 1;
      if (l >= k) break;
      const r = l + 1;
      const w = r < k && before(heap[r], heap[l]) > 0 ? r : l;
      if (before(heap[w], heap[c]) <= 0) break;
      [heap[c], heap[w]] = [heap[w], heap[c]];
      c = w;
    }
  }
  return heap.sort(before);
}

/**
 * `boundedTop` for orders that rank by `key` descending first: `key` rejects most items without calling `before`.
 */
export function topK(n: number, k: number, before: (a: number, b: number) => number, key: Float64Array | null): number[] {
  return boundedTop(n, k, before, key ? (x, worst) => key[x] < key[worst] : null);
}

/**
 * The first `k` of the items 0..n-1 that `accept` (a filter), in the order of `key` descending, then `tie`: exactly
 * the first k accepted items of that order (keys are finite). `accept` is asked at most once per item and in rank
 * order, about as few items as it can: the best 2k (a bounded selection), and only when fewer than k of those pass,
 * the following ones one at a time from a heap of every item (the best similarities can all fail a filter).
 */
export function topKAccepted(
  n: number,
  k: number,
  key: Float64Array,
  tie: (a: number, b: number) => number,
  accept: (i: number) => boolean,
): number[] {
  if (k <= 0 || n <= 0) return [];
  /** 0: not asked yet, 1: accepted, 2: rejected. */
  const verdict = new Uint8Array(n);
  const take = (x: number, out: number[]): boolean => {
    if (verdict[x] === 0) verdict[x] = accept(x) ? 1 : 2;
    return verdict[x] === 1 && out.push(x) === k;
  };
  const out: number[] = [];
  const best = topK(n, 2 * k, (a, b) => key[b] - key[a] || tie(a, b), key);
  for (const x of best) if (take(x, out)) return out;
  if (best.length >= n) return out;
  // A max-heap of every item in that order, popped until k are accepted.
  const first = (a: number, b: number): boolean => key[a] > key[b] || (key[a] === key[b] && tie(a, b) < 0);
  const heap = new Int32Array(n);
  for (let i = 0; i < n; i++) heap[i] = i;
  let size = n;
  const siftDown = (start: number): void => {
    let c = start;
    const x = heap[c];
    for (;;) {
      let w = 2 * c + 1;
      if (w >= size) break;
      if (w + 1 < size && first(heap[w + 1], heap[w])) w++;
      if (!first(heap[w], x)) break;
      heap[c] = heap[w];
      c = w;
    }
    heap[c] = x;
  };
  for (let i = (size >> 1) - 1; i >= 0; i--) siftDown(i);
  out.length = 0;
  while (size > 0) {
    const x = heap[0];
    heap[0] = heap[--size];
    siftDown(0);
    if (take(x, out)) return out;
  }
  return out;
}

/** What `list.slice(start, end)` keeps of a list of n: [from, to) (negative, fractional and NaN bounds as slice). */
export function sliceBounds(start: number, end: number, n: number): { from: number; to: number } {
  const clamp = (x: number): number => {
    const t = Number.isNaN(x) ? 0 : Math.trunc(x);
    return t < 0 ? Math.max(n + t, 0) : Math.min(t, n);
  };
  const from = clamp(start);
  return { from, to: Math.max(from, clamp(end)) };
}
