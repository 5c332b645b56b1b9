/**
 * A string-keyed table searched by a range of a text's code units, so a hot loop over a long text finds a word or
 * token without making its string (only a key new to the table is sliced): open addressing with linear probing,
 * FNV-1a over the code units. The full build's scans of full texts use it (the lexical embedder's token memo, the
 * keyword encoder's non-ASCII words); a string per word there was most of their garbage.
 */
export class RangeTable<V> {
  /** slot → index + 1 (0: empty). */
  private slots = new Int32Array(1 << 16);
  private hashes = new Uint32Array(1 << 15);
  private keys: string[] = [];
  private values: V[] = [];
  /** The slot where the key of the last missed lookup goes. */
  private free = 0;

  get size(): number {
    return this.keys.length;
  }

  clear(): void {
    this.slots = new Int32Array(1 << 16);
    this.hashes = new Uint32Array(1 << 15);
    this.keys = [];
    this.values = [];
  }

  static hash(s: string, start: number, end: number): number {
    let h = 0x811c9dc5;
    for (let i = start; i < end; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
    return h >>> 0;
  }

  /** The value of the key text[start, end) whose hash is h, or undefined (then `add` may insert it). */
  find(text: string, start: number, end: number, h: number): V | undefined {
    const mask = this.slots.length - 1;
    const len = end - start;
    let i = h & mask;
    for (let e = this.slots[i]; e !== 0; i = (i + 1) & mask, e = this.slots[i]) {
      if (this.hashes[e - 1] !== h) continue;
      const key = this.keys[e - 1];
      if (key.length !== len) continue;
      let j = 0;
      while (j < len && key.charCodeAt(j) === text.charCodeAt(start + j)) j++;
      if (j === len) return this.values[e - 1];
    }
    this.free = i;
    return undefined;
  }

  /**
   * Insert the key that `find` just missed (with the hash it was given), before any other call. A key sliced from a
   * long text is copied first: V8 makes a slice of 13 or more code units a view that keeps the whole text alive.
   */
  add(key: string, h: number, value: V): void {
    const index = this.keys.length;
    this.keys.push(key.length >= 13 ? (" " + key).slice(1) : key);
    this.values.push(value);
    if (index >= this.hashes.length) {
      const g = new Uint32Array(this.hashes.length * 2);
      g.set(this.hashes);
      this.hashes = g;
    }
    this.hashes[index] = h;
    this.slots[this.free] = index + 1;
    if ((index + 1) * 2 > this.slots.length) {
      const slots = new Int32Array(this.slots.length * 2);
      const mask = slots.length - 1;
      for (let k = 0; k <= index; k++) {
        let i = this.hashes[k] & mask;
        while (slots[i] !== 0) i = (i + 1) & mask;
        slots[i] = k + 1;
      }
      this.slots = slots;
    }
  }
}
