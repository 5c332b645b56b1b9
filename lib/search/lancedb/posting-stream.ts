import fs from "node:fs";
import { grow } from "../typed-grow";

/**
 * The postings stream while building: (term, weights, mask) appended in document order into typed blocks that
 * grow geometrically up to 1M entries and then stay fixed, so a full corpus never pays for per-term objects or for
 * doubling copies of hundreds of MB.
 *
 * With a spill file (the full build), every full block is written to the file and its buffers reused: the stream
 * (14 bytes a posting, 1.2 GB at 10x the demo corpus) is then never in memory beside the final CSR arrays that
 * build() fills from it (12 bytes a posting), only one block of it is.
 */
const MAX_BLOCK = 1 << 20;

export interface PostingBlock {
  term: Uint32Array;
  short: Float32Array;
  long: Uint16Array;
  mask: Uint32Array;
  n: number;
}

function newBlock(cap: number): PostingBlock {
  return { term: new Uint32Array(cap), short: new Float32Array(cap), long: new Uint16Array(cap), mask: new Uint32Array(cap), n: 0 };
}

/** A block's arrays as bytes, in file order (the first n entries of each). */
function blockParts(b: PostingBlock, n: number): Uint8Array[] {
  return [b.term, b.short, b.long, b.mask].map((a) => new Uint8Array(a.buffer, a.byteOffset, n * a.BYTES_PER_ELEMENT));
}

export class PostingStream {
  readonly blocks: PostingBlock[] = [];
  private cur: PostingBlock | null = null;
  length = 0;
  /** Postings per term id (the CSR offsets before the vocabulary is sorted). */
  counts = new Uint32Array(1024);
  private fd: number | null = null;
  /** Entries of each block written to the spill file, in order. */
  private readonly spilled: number[] = [];

  constructor(private readonly spillFile: string | null) {}

  push(term: number, short: number, long: number, mask: number): void {
    let b = this.cur;
    if (!b || b.n === b.term.length) {
      if (b && this.spillFile !== null && b.term.length === MAX_BLOCK) {
        this.spill(b);
      } else {
        b = newBlock(b ? Math.min(MAX_BLOCK, b.term.length * 2) : 4096);
        this.blocks.push(b);
        this.cur = b;
      }
    }
    const i = b.n++;
    b.term[i] = term;
    b.short[i] = short;
    b.long[i] = Math.min(long, 65535);
    b.mask[i] = mask;
    if (term >= this.counts.length) this.counts = grow(this.counts, term + 1);
    this.counts[term]++;
    this.length++;
  }

  /** Write the in-memory blocks (the last, full one included) to the spill file and keep only that block's buffers. */
  private spill(last: PostingBlock): void {
    this.fd ??= fs.openSync(this.spillFile as string, "w");
    for (const b of this.blocks) {
      for (const part of blockParts(b, b.n)) {
        for (let off = 0; off < part.byteLength; ) off += fs.writeSync(this.fd, part, off, part.byteLength - off);
      }
      this.spilled.push(b.n);
    }
    this.blocks.length = 0;
    last.n = 0;
    this.blocks.push(last);
  }

  /**
   * Every block in order, each released (or its buffers reused) once the callback returns: the spilled ones read
   * back one at a time into one block's buffers, then the ones still in memory.
   */
  drain(each: (b: PostingBlock) => void): void {
    if (this.fd !== null) {
      const fd = fs.openSync(this.spillFile as string, "r");
      try {
        const buf = newBlock(MAX_BLOCK);
        let pos = 0;
        for (const n of this.spilled) {
          for (const part of blockParts(buf, n)) {
            const got = fs.readSync(fd, part, 0, part.byteLength, pos);
            if (got !== part.byteLength) throw new Error("postings spill file is shorter than written");
            pos += got;
          }
          buf.n = n;
          each(buf);
        }
      } finally {
        fs.closeSync(fd);
      }
      this.dispose();
    }
    while (this.blocks.length > 0) each(this.blocks.shift() as PostingBlock);
    this.cur = null;
  }

  /** Close and remove the spill file (after build, or when the build is abandoned). */
  dispose(): void {
    if (this.fd === null) return;
    fs.closeSync(this.fd);
    this.fd = null;
    fs.rmSync(this.spillFile as string, { force: true });
  }
}
