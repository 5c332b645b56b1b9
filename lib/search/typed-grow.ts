/** A typed array whose length can be grown by copying into a bigger one of the same kind. */
type Growable = Int32Array<ArrayBuffer> | Uint32Array<ArrayBuffer> | Float32Array<ArrayBuffer> | Float64Array<ArrayBuffer>;

/**
 * `a` itself when it holds `need` elements, else a copy at least twice as long (amortised O(1) appends): the one growth
 * rule of the build's scratch and column arrays.
 */
export function grow<T extends Growable>(a: T, need: number): T {
  if (need <= a.length) return a;
  const g = new (a.constructor as new (length: number) => T)(Math.max(need, a.length * 2));
  g.set(a);
  return g;
}
