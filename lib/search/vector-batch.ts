/**
 * The "vectors" batch worker's work (batch-worker.ts) with the lexical `local-hash` embedder: a batch of rows → its
 * documents' vectors and its chunks as the chunks table's columns (chunk-columns.ts), exactly what
 * `encodeChunks(buildIndexBatch(rows).chunks)` and the packed document vectors are, but written straight into flat
 * arrays: no chunk record, chunk text string or vector array per chunk, and no string per token: a full text is
 * scanned once for its tokens' extents, which the embedder's memo is searched with, and their UTF-8 bytes (the chunk
 * texts are copied from the text's own bytes).
 * Those per-chunk objects were most of the vectors worker's garbage, which the collector's threads paid for.
 */
import { localHashVectorOfWordsInto, localHashVectorsOfTextRangesInto } from "@/lib/search/embedders/local-hash";
import { forEachChunkRange } from "./chunk";
import { utf8Parts, type EncodedChunks } from "./chunk-columns";
import { EMBEDDING_TEXT_FIELDS, embeddingText, toIndexDocument, type JudgmentRow } from "./document";
import { words } from "./text/tokenize";
import { grow } from "./typed-grow";

/** Per UTF-16 code unit: 1 when /\s/ matches it (the separator of chunk.ts's whitespaceTokens); made by the first encoder. */
let whitespace: Uint8Array | null = null;

function whitespaceTable(): Uint8Array {
  if (!whitespace) {
    whitespace = new Uint8Array(0x10000);
    for (let c = 0; c < 0x10000; c++) if (/\s/.test(String.fromCharCode(c))) whitespace[c] = 1;
  }
  return whitespace;
}

function growBytes(a: Buffer, min: number): Buffer {
  if (a.length >= min) return a;
  const b = Buffer.allocUnsafeSlow(Math.max(min, a.length * 2));
  a.copy(b);
  return b;
}

/**
 * The columns of a row that the vectors worker reads: toIndexDocument of these alone gives every field it uses (the
 * embedding text's, the full text, and the chunks' filterable copies). The worker is sent only these, so the main
 * thread clones and the worker normalises the other ~50 columns once (for the documents worker), not twice.
 */
const VECTOR_COLUMNS: readonly string[] = ["id", ...EMBEDDING_TEXT_FIELDS, "full_text", "jurisdiction", "decision_date"];

export function vectorRow(row: JudgmentRow): JudgmentRow {
  const out: JudgmentRow = {};
  for (const c of VECTOR_COLUMNS) if (c in row) out[c] = row[c];
  return out;
}

export interface VectorBatch {
  /** rows × dimensions, row-major: each document's vector (the doubles embedDocuments gives). */
  docVectors: Float64Array;
  encodedChunks: EncodedChunks;
}

/** One per worker: its scratch arrays grow to the largest batch and text and are reused. */
export class VectorBatchEncoder {
  // One text's whitespace tokens: UTF-16 and UTF-8 extents.
  private charStart = new Int32Array(4096);
  private charEnd = new Int32Array(4096);
  private byteStart = new Int32Array(4096);
  private byteEnd = new Int32Array(4096);
  private textBytes: Buffer = Buffer.allocUnsafeSlow(1 << 16);
  // One text's chunk ranges.
  private rangeStart = new Int32Array(64);
  private rangeEnd = new Int32Array(64);
  // The batch's chunk columns so far.
  private vectors = new Float64Array(0);
  private data: Buffer = Buffer.allocUnsafeSlow(1 << 20);
  private readonly whitespace = whitespaceTable();

  constructor(readonly dimensions: number) {}

  /** Whitespace tokens of `text` into the scratch arrays (exactly `text.split(/\s+/).filter(t => t !== "")`); their count. */
  private scan(text: string): number {
    const byteLength = Buffer.byteLength(text, "utf8");
    this.textBytes = growBytes(this.textBytes, byteLength);
    this.textBytes.write(text, 0, "utf8");
    const len = text.length;
    const isSpace = this.whitespace;
    let n = 0;
    let b = 0;
    let i = 0;
    while (i < len) {
      let c = text.charCodeAt(i);
      if (isSpace[c] === 1) {
        // Whitespace is never a surrogate.
        b += c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
        i++;
        continue;
      }
      const start = i;
      const byteStart = b;
      while (i < len) {
        c = text.charCodeAt(i);
        if (isSpace[c] === 1) break;
        if (c < 0x80) b += 1;
        else if (c < 0x800) b += 2;
        else if (c >= 0xd800 && c <= 0xdbff && i + 1 < len) {
          const d = text.charCodeAt(i + 1);
          if (d >= 0xdc00 && d <= 0xdfff) {
            b += 4;
            i++;
          } else b += 3; // a lone surrogate is written as U+FFFD
        } else b += 3;
        i++;
      }
      if (n === this.charStart.length) {
        this.charStart = grow(this.charStart, n + 1);
        this.charEnd = grow(this.charEnd, n + 1);
        this.byteStart = grow(this.byteStart, n + 1);
        this.byteEnd = grow(this.byteEnd, n + 1);
      }
      this.charStart[n] = start;
      this.charEnd[n] = i;
      this.byteStart[n] = byteStart;
      this.byteEnd[n] = b;
      n++;
    }
    if (b !== byteLength) throw new Error(`vector batch: UTF-8 length ${b} where Buffer gives ${byteLength}`);
    return n;
  }

  /** Chunk ranges of `tokenCount` tokens into the scratch arrays (chunk.ts's forEachChunkRange); their count. */
  private ranges(tokenCount: number): number {
    return forEachChunkRange(tokenCount, this.putRange);
  }

  private readonly putRange = (r: number, start: number, end: number): void => {
    this.rangeStart = grow(this.rangeStart, r + 1);
    this.rangeEnd = grow(this.rangeEnd, r + 1);
    this.rangeStart[r] = start;
    this.rangeEnd[r] = end;
  };

  /** The UTF-8 bytes of tokens [from, to) joined by single spaces, appended to `data` at `at`; the new end. */
  private appendText(text: string, from: number, to: number, at: number): number {
    let need = to - from - 1;
    for (let t = from; t < to; t++) need += this.byteEnd[t] - this.byteStart[t];
    this.data = growBytes(this.data, at + need);
    const { data, textBytes, byteStart, byteEnd, charStart, charEnd } = this;
    let t = from;
    while (t < to) {
      // A run of tokens separated by exactly one space is one copy of the text's bytes.
      const runStart = t;
      while (t + 1 < to && charStart[t + 1] === charEnd[t] + 1 && text.charCodeAt(charEnd[t]) === 0x20) t++;
      at += textBytes.copy(data, at, byteStart[runStart], byteEnd[t]);
      t++;
      if (t < to) data[at++] = 0x20;
    }
    return at;
  }

  encode(rows: readonly JudgmentRow[]): VectorBatch {
    const dim = this.dimensions;
    const docVectors = new Float64Array(rows.length * dim);
    const ids: string[] = [];
    const judgmentIds: string[] = [];
    const jurisdictions: Array<string | null> = [];
    const positions: number[] = [];
    const tokenStarts: number[] = [];
    const decisionDateTs: number[] = [];
    const textOffsets: number[] = [0];
    let textEnd = 0;
    let count = 0;
    for (let i = 0; i < rows.length; i++) {
      const d = toIndexDocument(rows[i]);
      localHashVectorOfWordsInto(words(embeddingText(d)), docVectors, i * dim, dim);
      const ft = typeof d.full_text === "string" ? d.full_text : "";
      const tokenCount = this.scan(ft);
      const rangeCount = this.ranges(tokenCount);
      this.vectors = grow(this.vectors, (count + rangeCount) * dim);
      localHashVectorsOfTextRangesInto(
        ft,
        this.charStart,
        this.charEnd,
        tokenCount,
        this.rangeStart,
        this.rangeEnd,
        rangeCount,
        this.vectors,
        count * dim,
        dim,
      );
      const jurisdiction = typeof d.jurisdiction === "string" ? d.jurisdiction : null;
      const ts = typeof d.decision_date_ts === "number" ? d.decision_date_ts : NaN;
      for (let r = 0; r < rangeCount; r++) {
        ids.push(`${d.id}:${r}`);
        judgmentIds.push(d.id);
        jurisdictions.push(jurisdiction);
        positions.push(r);
        tokenStarts.push(this.rangeStart[r]);
        decisionDateTs.push(ts);
        textEnd = this.appendText(ft, this.rangeStart[r], this.rangeEnd[r], textEnd);
        textOffsets.push(textEnd);
      }
      count += rangeCount;
    }
    const data = Buffer.allocUnsafeSlow(textEnd);
    this.data.copy(data, 0, 0, textEnd);
    return {
      docVectors,
      encodedChunks: {
        count,
        id: utf8Parts(ids),
        judgmentId: utf8Parts(judgmentIds),
        position: Int32Array.from(positions),
        tokenStart: Int32Array.from(tokenStarts),
        text: { valueOffsets: Int32Array.from(textOffsets), data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), nullBitmap: undefined, nullCount: 0 },
        jurisdiction: utf8Parts(jurisdictions),
        decisionDateTs: Float64Array.from(decisionDateTs),
        vectors: this.vectors.slice(0, count * dim),
      },
    };
  }
}
