/**
 * The raw buffers of the chunks table's Arrow columns, computed without Arrow or LanceDB so the full build's batch
 * worker (batch-worker.ts) can encode a batch's chunks off the main thread and transfer plain typed arrays:
 * the main thread then never holds the chunk texts as strings (~220 MB of text per demo corpus) nor one object per
 * chunk. lancedb/store.ts builds its columns from the same functions, so both paths write identical tables.
 */
import type { ChunkRecord, IndexBatch } from "./types";

export interface Utf8Parts {
  valueOffsets: Int32Array;
  data: Uint8Array;
  /** Present when some values are null. */
  nullBitmap?: Uint8Array;
  nullCount: number;
}

export interface NullableInt64Parts {
  data: BigInt64Array;
  nullBitmap?: Uint8Array;
  nullCount: number;
}

/** A batch's chunks, column by column (the chunks table's columns; vectors as computed, row-major). */
export interface EncodedChunks {
  count: number;
  id: Utf8Parts;
  judgmentId: Utf8Parts;
  position: Int32Array;
  tokenStart: Int32Array;
  text: Utf8Parts;
  jurisdiction: Utf8Parts;
  /** The chunks' decision_date_ts as given (NaN where absent); the int64 column is made from it. */
  decisionDateTs: Float64Array;
  /** count × dimensions. */
  vectors: Float64Array;
}

export function validity(n: number, isValid: (i: number) => boolean): { nullBitmap: Uint8Array; nullCount: number } {
  const nullBitmap = new Uint8Array((n + 7) >> 3);
  let nullCount = 0;
  for (let i = 0; i < n; i++) {
    if (isValid(i)) nullBitmap[i >> 3] |= 1 << (i & 7);
    else nullCount++;
  }
  return { nullBitmap, nullCount };
}

export function utf8Parts(values: ReadonlyArray<string | null | undefined>): Utf8Parts {
  const n = values.length;
  const valueOffsets = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) valueOffsets[i + 1] = valueOffsets[i] + Buffer.byteLength(values[i] ?? "", "utf8");
  // Not allocUnsafe: a small one is a slice of Node's shared pool, whose buffer must never be transferred away.
  const data = Buffer.allocUnsafeSlow(valueOffsets[n]);
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (v) data.write(v, valueOffsets[i], "utf8");
  }
  const { nullBitmap, nullCount } = validity(n, (i) => values[i] !== null && values[i] !== undefined);
  return {
    valueOffsets,
    data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
    nullBitmap: nullCount > 0 ? nullBitmap : undefined,
    nullCount,
  };
}

export function nullableInt64Parts(values: ReadonlyArray<number | null | undefined>): NullableInt64Parts {
  const n = values.length;
  const data = new BigInt64Array(n);
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (typeof v === "number") data[i] = BigInt(Math.trunc(v));
  }
  const { nullBitmap, nullCount } = validity(n, (i) => typeof values[i] === "number");
  return { data, nullBitmap: nullCount > 0 ? nullBitmap : undefined, nullCount };
}

/** Vectors of `dim` components as one row-major Float64Array (the doubles as given); another length is refused. */
export function packVectors(vectors: ReadonlyArray<ArrayLike<number>>, dim: number): Float64Array {
  const flat = new Float64Array(vectors.length * dim);
  vectors.forEach((v, i) => {
    if (v.length !== dim) throw new Error(`vector of ${v.length} dimensions where the table has ${dim}`);
    flat.set(v, i * dim);
  });
  return flat;
}

export function encodeChunks(chunks: ReadonlyArray<ChunkRecord>, dim: number): EncodedChunks {
  const vectors = packVectors(
    chunks.map((c) => c.vector),
    dim,
  );
  return {
    count: chunks.length,
    id: utf8Parts(chunks.map((c) => c.id)),
    judgmentId: utf8Parts(chunks.map((c) => c.judgmentId)),
    position: Int32Array.from(chunks.map((c) => c.position)),
    tokenStart: Int32Array.from(chunks.map((c) => c.tokenStart)),
    text: utf8Parts(chunks.map((c) => c.text)),
    jurisdiction: utf8Parts(chunks.map((c) => c.jurisdiction ?? null)),
    decisionDateTs: Float64Array.from(chunks, (c) => c.decision_date_ts ?? NaN),
    vectors,
  };
}

/** Value i of a UTF-8 column (null where the bitmap says so). */
export function utf8At(p: Utf8Parts, i: number): string | null {
  if (p.nullBitmap && !(p.nullBitmap[i >> 3] & (1 << (i & 7)))) return null;
  return Buffer.from(p.data.buffer, p.data.byteOffset + p.valueOffsets[i], p.valueOffsets[i + 1] - p.valueOffsets[i]).toString("utf8");
}

/** The chunk records back (for an engine that wants objects; the LanceDB full build reads the columns). */
export function decodeChunks(e: EncodedChunks, dim: number): ChunkRecord[] {
  const out = new Array<ChunkRecord>(e.count);
  for (let i = 0; i < e.count; i++) {
    const rec: ChunkRecord = {
      id: utf8At(e.id, i) ?? "",
      judgmentId: utf8At(e.judgmentId, i) ?? "",
      position: e.position[i],
      tokenStart: e.tokenStart[i],
      text: utf8At(e.text, i) ?? "",
      vector: e.vectors.subarray(i * dim, (i + 1) * dim),
    };
    const j = utf8At(e.jurisdiction, i);
    if (j !== null) rec.jurisdiction = j;
    const ts = e.decisionDateTs[i];
    if (!Number.isNaN(ts)) rec.decision_date_ts = ts;
    out[i] = rec;
  }
  return out;
}

/** Every buffer of an encoding (to transfer it to another thread). */
export function chunkBuffers(e: EncodedChunks): ArrayBuffer[] {
  const parts = [e.id, e.judgmentId, e.text, e.jurisdiction];
  const views: ArrayBufferView[] = [e.position, e.tokenStart, e.decisionDateTs, e.vectors];
  for (const p of parts) views.push(p.valueOffsets, p.data, ...(p.nullBitmap ? [p.nullBitmap] : []));
  return [...new Set(views.map((v) => v.buffer as ArrayBuffer))];
}

/** A batch's chunk count without decoding encoded chunks. */
export function batchChunkCount(b: IndexBatch): number {
  return b.encodedChunks ? b.encodedChunks.count : b.chunks.length;
}
