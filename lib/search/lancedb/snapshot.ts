/**
 * The serving state of one index generation on disk, so a fresh process opens the index in seconds instead of
 * re-reading every document (with its full text) from LanceDB and re-tokenising 355 MB to rebuild the keyword
 * index. Written by the full build next to the LanceDB tables, in `<dir>/keyword-<gen>/`:
 *
 * - `meta.json`: format version, counts, byte order; written last, so a directory without it is incomplete;
 * - the keyword segment as raw little-endian typed arrays (`offsets.u32`, `post-doc.u32`, `post-w.f32`,
 *   `post-mask.u32`) plus `vocab.txt` and `ids.txt` (newline-separated; terms and ids never contain newlines);
 * - `docs.json` (stored documents without full_text, in placeholder order), `vec-ids.txt` and `vectors.f32`.
 *
 * The directory is written under a temporary name and renamed into place. Incremental writes after the build are
 * not in the snapshot: they go to `delta-<gen>.jsonl` (see delta-log.ts) and are replayed on open.
 * A missing directory or another format version makes the engine rebuild from LanceDB (and write a new snapshot).
 */
import fs from "node:fs/promises";
import path from "node:path";
import type { IndexDocument } from "../types";
import type { SegmentParts } from "./keyword-segment";

/** Bump when any file's layout or meaning changes: older snapshots are then rebuilt. */
export const SNAPSHOT_FORMAT = 1;

export interface Snapshot {
  segment: SegmentParts;
  /** Stored documents (everything but full_text), in placeholder order. */
  docs: IndexDocument[];
  vecIds: string[];
  /** vecIds.length × dimensions floats. */
  vectors: Float32Array;
  dimensions: number;
  /**
   * The IVF partition of the vectors (ann.ts), when the build made one: `nlist` centroids (row-major) and the list
   * of each vector row. Optional files (`ivf-centroids.f32`, `ivf-lists.u32`): a snapshot without them opens as
   * before and the partition is trained on the first hybrid search when the corpus is past the threshold.
   */
  ivf?: { nlist: number; centroids: Float32Array; lists: Int32Array };
}

interface SnapshotMeta {
  format: number;
  endianness: "le";
  documents: number;
  terms: number;
  postings: number;
  vectors: number;
  dimensions: number;
  /** Lists of the IVF partition (absent: none). */
  ivfLists?: number;
  writtenAt: string;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

function bytes(a: Uint32Array | Float32Array): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

function lines(xs: readonly string[]): string {
  return xs.join("\n");
}

function splitLines(s: string, count: number): string[] {
  return count === 0 ? [] : s.split("\n");
}

/** A typed-array view over a file's bytes (copied only when the buffer is not 4-byte aligned). */
async function readTyped<T extends Uint32Array | Float32Array>(
  file: string,
  Ctor: { new (buf: ArrayBuffer, off: number, len: number): T; new (len: number): T },
  count: number,
): Promise<T> {
  const buf = await fs.readFile(file);
  if (buf.byteLength !== count * 4) throw new Error(`${path.basename(file)}: expected ${count * 4} bytes`);
  if (buf.byteOffset % 4 === 0) return new Ctor(buf.buffer as ArrayBuffer, buf.byteOffset, count);
  const copy = new Ctor(count);
  new Uint8Array(copy.buffer).set(buf);
  return copy;
}

const SLICE_CHARS = 1 << 20;

/**
 * `items` as a JSON array with one item per line (`[`, `item,` …, `item`, `]`), written in ~1 MB slices: the
 * documents' JSON is hundreds of MB at 10× (twice that as a JavaScript string with any non-Latin-1 character, plus the
 * encoded buffer), and it was made whole at the end of a full build, when memory is already at its peak. JSON.stringify
 * never writes a raw newline (one in a string is escaped), so every newline in the file is between items and
 * `readJsonArray` can parse it a slice at a time. The file is valid JSON (tests/unit/search-lancedb-snapshot.test.ts).
 */
export async function writeJsonArray(file: string, items: readonly unknown[]): Promise<void> {
  const fh = await fs.open(file, "w");
  try {
    let out = "[\n";
    for (let i = 0; i < items.length; i++) {
      // As in an array, a value JSON cannot represent (undefined, a function) is written as null.
      out += (i > 0 ? ",\n" : "") + (JSON.stringify(items[i]) ?? "null");
      if (out.length >= SLICE_CHARS) {
        await fh.write(out);
        out = "";
      }
    }
    await fh.write(out + "\n]");
  } finally {
    await fh.close();
  }
}

/** Bytes read and parsed at a time by readJsonArray. */
const READ_SLICE_BYTES = 8 << 20;
const NEWLINE = 0x0a;

/**
 * The array `writeJsonArray` wrote, parsed ~8 MB of lines at a time: opening a 10× index read docs.json whole into
 * one string (~0.5-1 GB) before parsing it, and peaked at 4.17 GB of RSS (docs/bench.md). A file in the older layout
 * (the whole array on one line) is parsed whole, as before. A file that does not end its array (cut short) throws.
 */
export async function readJsonArray<T>(file: string): Promise<T[]> {
  const fh = await fs.open(file, "r");
  try {
    const buf = Buffer.allocUnsafe(READ_SLICE_BYTES);
    const out: T[] = [];
    let carry: Buffer = Buffer.alloc(0); // the bytes of a line not yet ended
    let lineNo = 0;
    let ended = false;
    const take = (text: string) => {
      const items: string[] = [];
      for (const line of text.split("\n")) {
        const n = lineNo++;
        if (n === 0) {
          if (line !== "[") throw new Error(`${path.basename(file)}: not one item per line`);
          continue;
        }
        if (ended) throw new Error(`${path.basename(file)}: text after the end of the array`);
        if (line === "]") ended = true;
        else if (line !== "") items.push(line.endsWith(",") ? line.slice(0, -1) : line);
      }
      if (items.length > 0) for (const x of JSON.parse(`[${items.join(",")}]`) as T[]) out.push(x);
    };
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, buf.length, null);
      if (bytesRead === 0) break;
      if (lineNo === 0 && carry.length === 0 && !(buf[0] === 0x5b && buf[1] === NEWLINE)) {
        // The older layout: the whole array on one line.
        return JSON.parse(await fs.readFile(file, "utf8")) as T[];
      }
      const last = buf.lastIndexOf(NEWLINE, bytesRead - 1);
      if (last < 0) {
        carry = Buffer.concat([carry, buf.subarray(0, bytesRead)]);
        continue;
      }
      take(Buffer.concat([carry, buf.subarray(0, last)]).toString("utf8"));
      carry = Buffer.from(buf.subarray(last + 1, bytesRead));
    }
    take(carry.toString("utf8"));
    if (!ended) throw new Error(`${path.basename(file)}: the array is not closed (cut short?)`);
    return out;
  } finally {
    await fh.close();
  }
}

export async function writeSnapshot(dir: string, snap: Snapshot): Promise<void> {
  if (!LITTLE_ENDIAN) return; // the files are little-endian; a big-endian host just rebuilds on open
  const tmp = `${dir}.tmp-${process.pid}-${Date.now()}`;
  await fs.rm(tmp, { recursive: true, force: true });
  await fs.mkdir(tmp, { recursive: true });
  try {
    const s = snap.segment;
    const dim = snap.dimensions;
    await Promise.all([
      fs.writeFile(path.join(tmp, "ids.txt"), lines(s.ids)),
      fs.writeFile(path.join(tmp, "vocab.txt"), lines(s.vocab)),
      fs.writeFile(path.join(tmp, "offsets.u32"), bytes(s.offsets)),
      fs.writeFile(path.join(tmp, "post-doc.u32"), bytes(s.docs)),
      fs.writeFile(path.join(tmp, "post-w.f32"), bytes(s.weights)),
      fs.writeFile(path.join(tmp, "post-mask.u32"), bytes(s.masks)),
      fs.writeFile(path.join(tmp, "vec-ids.txt"), lines(snap.vecIds)),
      fs.writeFile(path.join(tmp, "vectors.f32"), bytes(snap.vectors.subarray(0, snap.vecIds.length * dim))),
      snap.ivf ? fs.writeFile(path.join(tmp, "ivf-centroids.f32"), bytes(snap.ivf.centroids)) : null,
      snap.ivf ? fs.writeFile(path.join(tmp, "ivf-lists.u32"), bytes(new Uint32Array(snap.ivf.lists.buffer, snap.ivf.lists.byteOffset, snap.ivf.lists.length))) : null,
    ]);
    // One JSON text for all documents, parsed in a few large slices on open (one JSON.parse per document is slower).
    await writeJsonArray(path.join(tmp, "docs.json"), snap.docs);
    const meta: SnapshotMeta = {
      format: SNAPSHOT_FORMAT,
      endianness: "le",
      documents: s.ids.length,
      terms: s.vocab.length,
      postings: s.docs.length,
      vectors: snap.vecIds.length,
      dimensions: dim,
      ivfLists: snap.ivf?.nlist,
      writtenAt: new Date().toISOString(),
    };
    await fs.writeFile(path.join(tmp, "meta.json"), JSON.stringify(meta, null, 2));
    await fs.rm(dir, { recursive: true, force: true });
    await fs.rename(tmp, dir);
  } catch (e) {
    await fs.rm(tmp, { recursive: true, force: true }).catch(() => undefined);
    throw e;
  }
}

/** The snapshot in `dir`, or null when it is missing, incomplete, of another format or another dimension. */
export async function readSnapshot(dir: string, dimensions: number): Promise<Snapshot | null> {
  let meta: SnapshotMeta;
  try {
    meta = JSON.parse(await fs.readFile(path.join(dir, "meta.json"), "utf8")) as SnapshotMeta;
  } catch {
    return null;
  }
  if (meta.format !== SNAPSHOT_FORMAT || meta.endianness !== "le" || !LITTLE_ENDIAN) return null;
  if (meta.dimensions !== dimensions) return null;
  const f = (name: string) => path.join(dir, name);
  const [ids, vocab, offsets, docs, weights, masks, vecIds, vectors, storedDocs] = await Promise.all([
    fs.readFile(f("ids.txt"), "utf8").then((s) => splitLines(s, meta.documents)),
    fs.readFile(f("vocab.txt"), "utf8").then((s) => splitLines(s, meta.terms)),
    readTyped(f("offsets.u32"), Uint32Array, meta.terms + 1),
    readTyped(f("post-doc.u32"), Uint32Array, meta.postings),
    readTyped(f("post-w.f32"), Float32Array, meta.postings),
    readTyped(f("post-mask.u32"), Uint32Array, meta.postings),
    fs.readFile(f("vec-ids.txt"), "utf8").then((s) => splitLines(s, meta.vectors)),
    readTyped(f("vectors.f32"), Float32Array, meta.vectors * dimensions),
    readJsonArray<IndexDocument>(f("docs.json")),
  ]);
  if (ids.length !== meta.documents || vocab.length !== meta.terms || vecIds.length !== meta.vectors) {
    throw new Error(`keyword snapshot ${dir} is inconsistent with its meta.json`);
  }
  let ivf: Snapshot["ivf"];
  if (meta.ivfLists) {
    const [centroids, lists] = await Promise.all([
      readTyped(f("ivf-centroids.f32"), Float32Array, meta.ivfLists * dimensions),
      readTyped(f("ivf-lists.u32"), Uint32Array, meta.vectors),
    ]);
    const asLists = new Int32Array(lists.buffer, lists.byteOffset, lists.length);
    if (asLists.some((c) => c < 0 || c >= (meta.ivfLists as number))) throw new Error(`keyword snapshot ${dir}: IVF list out of range`);
    ivf = { nlist: meta.ivfLists, centroids, lists: asLists };
  }
  return {
    segment: { ids, vocab, offsets, docs, weights, masks },
    docs: storedDocs,
    vecIds,
    vectors,
    dimensions,
    ivf,
  };
}
