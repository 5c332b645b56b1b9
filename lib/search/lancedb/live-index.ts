/**
 * The serving state of one generation in memory: the stored documents (without full_text) in indexing order, the
 * keyword segments (the main one, and a delta of incremental upserts whose ids are tombstoned in the main one), the
 * document vectors, the suggestions and the citation table, plus what queries derive from them (documents and vector
 * rows per segment ordinal, the column-major vectors), rebuilt after any change to the documents. A generation is
 * built aside and swapped in whole (engine.ts), so queries never see half an index.
 */
import { CitationIndex } from "../citations";
import { SEARCHABLE_ATTRIBUTES } from "../index-settings";
import type { IndexDocument } from "../types";
import type { DeltaEntry } from "./delta-log";
import type { KeywordSegment } from "./keyword-segment";
import { SegmentBuilder, type DocPostings } from "./segment-builder";
import type { Snapshot } from "./snapshot";
import { suggestionIndex, type SuggestionIndex } from "./suggestions";
import { annSettings, assignRows, probeCount, probeLists, trainIvf, type IvfModel } from "./ann";
import {
  maxRowNorm,
  rowSimilarity,
  scanRange,
  scanSimilarities,
  usedComponents,
  vectorColumns,
  type IvfLayout,
  type VectorIndex,
} from "./vector-scan";

/**
 * How many rows of a list's sequential column scan cost about as much as one row read on its own (rowSimilarity over
 * a row-major row: a cache line, often a TLB miss, per few components). Measured with 20-100 query components on
 * 12k and 123k random rows (load 10-14): a column scan 20-130 ns a row, a row read alone 0.25-2 µs, 11-78x.
 */
const ROW_READ_COST = 32;

/**
 * Scan IVF list `c` for the query of this tick (probeVectors set `usedCount` and `tick`): its rows' exact similarities
 * into `ix.sims`, each marked known for this query, and the list marked scanned.
 */
function scanList(ix: VectorIndex, ivf: IvfLayout, vec: Float32Array, c: number): void {
  const { perm, offsets, psims, stamp, used, listStamp, tick, usedCount } = ivf;
  const from = offsets[c];
  const to = offsets[c + 1];
  listStamp[c] = tick;
  scanRange(ix.columns, vec, used, usedCount, psims, from, to);
  for (let p = from; p < to; p++) {
    const r = perm[p];
    ix.sims[r] = psims[p];
    stamp[r] = tick;
  }
}

/** The document kept in memory: everything but full_text. */
export type StoredDoc = IndexDocument;

const LONG_FIELD = SEARCHABLE_ATTRIBUTES.indexOf("full_text");

/**
 * A builder of keyword segments over the searchable attributes (full_text is the long field); with `spillFile`, its
 * postings wait in that file until build() (the full build: see posting-stream.ts).
 */
export function segmentBuilder(spillFile: string | null = null): SegmentBuilder {
  return new SegmentBuilder(SEARCHABLE_ATTRIBUTES.length, LONG_FIELD, spillFile);
}

/** Index one document (with full_text) into a segment being built. */
export function addToSegment(builder: SegmentBuilder, doc: IndexDocument): void {
  builder.add({ id: doc.id, fields: SEARCHABLE_ATTRIBUTES.map((a) => doc[a]) });
}

export class LiveIndex {
  docs = new Map<string, StoredDoc>();
  /** Placeholder order: the order documents were indexed in. */
  order: string[] = [];
  main: KeywordSegment | null = null;
  delta: KeywordSegment | null = null;
  /** Documents (with full_text) indexed by the delta segment. */
  deltaDocs = new Map<string, IndexDocument>();
  /** Each delta document's postings as its last rebuild made them (rebuildDelta tokenises only documents new since). */
  private deltaPostings = new Map<string, { doc: IndexDocument; postings: DocPostings }>();
  /** Ids whose main-segment postings are stale (deleted or re-indexed in the delta). */
  mainDead = new Set<string>();
  vecIds: string[] = [];
  vecRow = new Map<string, number>();
  vectors: Float32Array<ArrayBufferLike> = new Float32Array(0);
  suggestIndex: SuggestionIndex = suggestionIndex([]);
  /** Case numbers and neutral citations → ids (citations.ts), kept with `docs`: exact matches rank first. */
  citations = new CitationIndex();
  /** Bumped on every change to `docs` (invalidates the derived state below). */
  private docsVersion = 0;
  private segDocs = new WeakMap<KeywordSegment, { version: number; docs: Array<StoredDoc | undefined> }>();
  /** Vector row of each segment ordinal (-1: no vector), for the hybrid path; rebuilt like segDocs. */
  private segRows = new WeakMap<KeywordSegment, { version: number; rows: Int32Array }>();
  /** What the vector scan reads, derived from `vectors` (see vectorIndex). */
  private vecIndex: VectorIndex | null = null;
  /** The trained IVF partition (ann.ts), or null (exact scan only). */
  ivf: IvfModel | null = null;
  /** The IVF list of each vector row (-1: not assigned yet: added or changed since the partition was made). */
  vecList: number[] = [];

  constructor(
    /** The embedder's dimensions: a vector of another length is not stored. */
    readonly dimensions: number,
  ) {}

  /** The serving state as a snapshot (main segment, stored documents, vectors). */
  snapshot(): Snapshot {
    const dim = this.dimensions;
    return {
      segment: (this.main as KeywordSegment).parts(),
      docs: this.order.map((id) => this.docs.get(id) as StoredDoc),
      vecIds: this.vecIds,
      vectors: this.vectors.subarray(0, this.vecIds.length * dim),
      dimensions: dim,
      ivf: this.ivf ? { nlist: this.ivf.nlist, centroids: this.ivf.centroids, lists: Int32Array.from(this.vecList) } : undefined,
    };
  }

  /**
   * Train the IVF partition when the vectors reach the approximate index's threshold (annSettings().minRows) and
   * none is trained yet, and assign every row: done by the full build before its snapshot, so a serving process
   * reads it instead of training. Synchronous (seconds at 10x the demo corpus). True when a partition exists.
   */
  prepareAnn(): boolean {
    const rows = this.vecIds.length;
    if (rows < annSettings().minRows || rows === 0) return this.ivf !== null;
    if (!this.ivf) {
      this.ivf = trainIvf(this.vectors, rows, this.dimensions);
      this.vecList = new Array<number>(rows).fill(-1);
    }
    this.assignPending();
    return true;
  }

  private assignPending(): void {
    if (!this.ivf) return;
    const pending: number[] = [];
    for (let r = 0; r < this.vecList.length; r++) if (this.vecList[r] < 0) pending.push(r);
    if (pending.length === 0) return;
    const out = new Int32Array(pending.length);
    assignRows(this.ivf, this.vectors, pending, out);
    for (let i = 0; i < pending.length; i++) this.vecList[pending[i]] = out[i];
  }

  adoptSnapshotDocs(snap: Snapshot): void {
    for (const d of snap.docs) {
      if (!this.docs.has(d.id)) this.order.push(d.id);
      this.docs.set(d.id, d);
      this.citations.set(d.id, d);
    }
    this.vecIds = snap.vecIds;
    this.vecRow = new Map(snap.vecIds.map((id, i) => [id, i]));
    this.vectors = snap.vectors;
    if (snap.ivf && snap.ivf.lists.length === snap.vecIds.length) {
      this.ivf = { nlist: snap.ivf.nlist, dim: this.dimensions, centroids: snap.ivf.centroids };
      this.vecList = Array.from(snap.ivf.lists);
    } else {
      this.ivf = null;
      this.vecList = new Array<number>(snap.vecIds.length).fill(-1);
    }
  }

  /** Apply one logged incremental write in memory (the LanceDB tables already hold it). */
  applyDelta(entry: DeltaEntry): void {
    if (entry.op === "upsert") {
      for (const d of entry.documents) {
        this.putDoc(d.document, d.vector);
        this.mainDead.add(d.document.id);
        this.deltaDocs.set(d.document.id, d.document);
      }
    } else {
      for (const id of entry.ids) {
        this.removeDoc(id);
        this.mainDead.add(id);
        this.deltaDocs.delete(id);
      }
    }
  }

  putDoc(doc: IndexDocument, vector: ArrayLike<number>): void {
    const { full_text: _fullText, ...rest } = doc;
    // Kept as JSON gives it back, i.e. what a process opening the snapshot holds: compact objects and flat strings
    // take about half the heap of the row's own values (demo corpus: 70 instead of 129 MB; 10x: 0.6 GB less).
    this.putStored(JSON.parse(JSON.stringify(rest)) as StoredDoc, vector);
  }

  /**
   * Room for `rows` vectors in one buffer, for a build that knows its size: growing by half as rows arrive left a
   * third of the last buffer idle and held the old one beside the new at each step (~0.3 GB at 10x the demo corpus,
   * at the build's peak).
   */
  reserveVectors(rows: number): void {
    const need = rows * this.dimensions;
    if (need <= this.vectors.length) return;
    const grown = new Float32Array(need);
    grown.set(this.vectors.subarray(0, this.vecIds.length * this.dimensions));
    this.vectors = grown;
  }

  /** putDoc of a document already without full_text and parsed from JSON. */
  putStored(stored: StoredDoc, vector: ArrayLike<number>): void {
    this.putStoredDoc(stored);
    this.putVector(stored.id, vector);
  }

  /** The stored-document half of putStored (the full build adds the vectors as batches arrive, the documents at commit). */
  putStoredDoc(stored: StoredDoc): void {
    const id = stored.id;
    this.docsVersion++;
    if (!this.docs.has(id)) this.order.push(id);
    this.docs.set(id, stored);
    this.citations.set(id, stored);
  }

  /** The vector half of putStored: a vector of another length is not stored. */
  putVector(id: string, vector: ArrayLike<number>): void {
    const dim = this.dimensions;
    if (vector.length !== dim) return;
    let row = this.vecRow.get(id);
    if (row === undefined) {
      row = this.vecIds.length;
      this.vecIds.push(id);
      this.vecList.push(-1);
      this.vecRow.set(id, row);
      if ((row + 1) * dim > this.vectors.length) {
        // Grow by half: the full build appends every document, and a doubled buffer would idle half of it.
        const grown = new Float32Array(Math.max(1024, Math.ceil((row + 1) * 1.5)) * dim);
        grown.set(this.vectors.subarray(0, row * dim));
        this.vectors = grown;
      }
    }
    this.vectors.set(vector, row * dim);
    this.vecList[row] = -1;
  }

  removeDoc(id: string): void {
    if (!this.docs.delete(id)) return;
    this.citations.delete(id);
    this.docsVersion++;
    this.order = this.order.filter((x) => x !== id);
    const row = this.vecRow.get(id);
    if (row !== undefined) {
      // Move the last row into the hole.
      const dim = this.dimensions;
      const lastRow = this.vecIds.length - 1;
      const lastId = this.vecIds[lastRow];
      if (row !== lastRow) {
        this.vectors.copyWithin(row * dim, lastRow * dim, (lastRow + 1) * dim);
        this.vecIds[row] = lastId;
        this.vecList[row] = this.vecList[lastRow];
        this.vecRow.set(lastId, row);
      }
      this.vecIds.pop();
      this.vecList.pop();
      this.vecRow.delete(id);
    }
  }

  /**
   * The delta segment over the delta documents, after incremental writes (in a writer, and in every serving process
   * catching up). Documents already in the previous delta are added from their kept postings, not tokenised again: the
   * delta grows with every import until the next full build, and tokenising it whole on each catch-up cost ~2.4 ms a
   * judgment. The segment is the one a fresh build over the same documents makes (tested).
   */
  rebuildDelta(): void {
    if (this.deltaDocs.size === 0) {
      this.delta = null;
      this.deltaPostings.clear();
      return;
    }
    const b = segmentBuilder();
    const kept = new Map<string, { doc: IndexDocument; postings: DocPostings }>();
    for (const d of this.deltaDocs.values()) {
      const cached = this.deltaPostings.get(d.id);
      if (cached && cached.doc === d) {
        b.addPostings(d.id, cached.postings);
        kept.set(d.id, cached);
      } else {
        kept.set(d.id, { doc: d, postings: b.addKeeping({ id: d.id, fields: SEARCHABLE_ATTRIBUTES.map((a) => d[a]) }) });
      }
    }
    this.deltaPostings = kept;
    this.delta = b.build();
  }

  /** Changes whenever the stored documents change (what answers derived from them are keyed by). */
  get documentsVersion(): number {
    return this.docsVersion;
  }

  /**
   * The stored documents of a segment by ordinal (what a filter is evaluated on), so a query with a filter looks
   * every match up in an array rather than in the id map. Rebuilt after any change to the stored documents.
   */
  segmentDocs(segment: KeywordSegment): Array<StoredDoc | undefined> {
    const cached = this.segDocs.get(segment);
    if (cached && cached.version === this.docsVersion) return cached.docs;
    const docs = segment.ids.map((id) => this.docs.get(id));
    this.segDocs.set(segment, { version: this.docsVersion, docs });
    return docs;
  }

  /**
   * The column-major vectors, each row's stored document (what a filter is evaluated on) and per-row scratch, rebuilt
   * after any change to the stored documents (a few tens of ms for the full corpus, once per index change).
   */
  private vectorIndex(): VectorIndex {
    const cached = this.vecIndex;
    const rows = this.vecIds.length;
    // The approximate index is used from the threshold on (trained here if the snapshot had none: once, seconds).
    const useIvf = rows > 0 && rows >= annSettings().minRows && this.prepareAnn();
    if (
      cached &&
      cached.version === this.docsVersion &&
      cached.vectors === this.vectors &&
      cached.columns.rows === rows &&
      (cached.ivf !== null) === useIvf
    ) {
      return cached;
    }
    let ivf: IvfLayout | null = null;
    if (useIvf) {
      this.assignPending();
      const model = this.ivf as IvfModel;
      // Counting sort of the rows by list: list c occupies column positions [offsets[c], offsets[c + 1]).
      const offsets = new Int32Array(model.nlist + 1);
      for (let r = 0; r < rows; r++) offsets[this.vecList[r] + 1]++;
      for (let c = 0; c < model.nlist; c++) offsets[c + 1] += offsets[c];
      const next = offsets.slice(0, model.nlist);
      const perm = new Int32Array(rows);
      const listOf = new Int32Array(rows);
      for (let r = 0; r < rows; r++) {
        listOf[r] = this.vecList[r];
        perm[next[this.vecList[r]]++] = r;
      }
      ivf = {
        model,
        perm,
        offsets,
        psims: new Float64Array(rows),
        stamp: new Uint32Array(rows),
        tick: 0,
        cand: new Int32Array(rows),
        candSims: new Float64Array(rows),
        used: new Int32Array(this.dimensions),
        usedCount: 0,
        listStamp: new Uint32Array(model.nlist),
        listOf,
        listNeed: new Int32Array(model.nlist),
      };
    }
    // Drop the old copy first: at 10x the demo corpus it is ~190 MB.
    this.vecIndex = null;
    // Queries read a generation's scan state synchronously, so the old copy has no reader left.
    const columns = vectorColumns(this.vectors, rows, this.dimensions, ivf?.perm, cached?.columns);
    // The kernel's scratch is where it writes its sums: no copy per probed list.
    if (ivf && columns.kernel) ivf.psims = columns.kernel.sums;
    const fresh: VectorIndex = {
      version: this.docsVersion,
      vectors: this.vectors,
      columns,
      docs: this.vecIds.map((id) => this.docs.get(id)),
      sims: new Float64Array(rows),
      maxNorm: maxRowNorm(this.vectors, rows, this.dimensions),
      ivf,
    };
    this.vecIndex = fresh;
    return fresh;
  }

  /** Cosine similarity (vectors are L2-normalised) of the query with every row, into this generation's scratch. */
  scanVectors(vec: Float32Array): VectorIndex {
    const ix = this.vectorIndex();
    const ivf = ix.ivf;
    if (!ivf) {
      scanSimilarities(ix.columns, vec, ix.sims);
      return ix;
    }
    // Exact over the list-ordered columns, then back to row order.
    scanSimilarities(ix.columns, vec, ivf.psims);
    const { perm, psims } = ivf;
    for (let p = 0; p < perm.length; p++) ix.sims[perm[p]] = psims[p];
    return ix;
  }

  /**
   * The approximate scan (null when the exact scan is in use: below the threshold): the rows of the `nprobe` lists
   * nearest the query (`cand[0..n)`, their similarities in `candSims` and in `ix.sims`, marked as known: see
   * `knownSimilarity`). Other rows' similarities are computed on demand by `fillSimilarities`.
   */
  probeVectors(vec: Float32Array): { ix: VectorIndex; ivf: IvfLayout; n: number } | null {
    const ix = this.vectorIndex();
    const ivf = ix.ivf;
    if (!ivf) return null;
    const { perm, offsets, psims, cand, candSims, used } = ivf;
    const m = usedComponents(ix.columns, vec, used);
    ivf.usedCount = m;
    ivf.tick = (ivf.tick + 1) >>> 0 || 1;
    let n = 0;
    for (const c of probeLists(ivf.model, vec, used, m, probeCount(annSettings(), ivf.model.nlist))) {
      scanList(ix, ivf, vec, c);
      for (let p = offsets[c]; p < offsets[c + 1]; p++) {
        cand[n] = perm[p];
        candSims[n++] = psims[p];
      }
    }
    return { ix, ivf, n };
  }

  /**
   * After probeVectors(vec): the similarity of every row in `ix.sims`, scanning only the lists the probe did not
   * (the exact scan's values, bit for bit, at the cost of one exact scan in all).
   */
  completeScan(probe: { ix: VectorIndex; ivf: IvfLayout }, vec: Float32Array): void {
    const { ix, ivf } = probe;
    const { columns, sims } = ix;
    const { perm, offsets, psims, stamp, used, tick, usedCount, listStamp } = ivf;
    for (let c = 0; c < ivf.model.nlist; c++) {
      if (listStamp[c] === tick) continue;
      const from = offsets[c];
      const to = offsets[c + 1];
      scanRange(columns, vec, used, usedCount, psims, from, to);
      for (let p = from; p < to; p++) {
        const r = perm[p];
        sims[r] = psims[p];
        stamp[r] = tick;
      }
    }
  }

  /**
   * After probeVectors(vec): the exact similarity in `ix.sims` of each of `rows[0..count)` (-1 entries skipped) that
   * the probe did not reach, bit-identical to the scan's. A row read on its own costs about ROW_READ_COST rows of a
   * sequential scan of its list's columns: a list holding more needed rows than its size / ROW_READ_COST is scanned
   * whole instead.
   */
  fillSimilarities(probe: { ix: VectorIndex; ivf: IvfLayout }, vec: Float32Array, rows: ArrayLike<number>, count: number): void {
    const { ix, ivf } = probe;
    const { sims } = ix;
    const { stamp, used, tick, usedCount, listOf, listNeed, offsets } = ivf;
    for (let i = 0; i < count; i++) {
      const r = rows[i];
      if (r >= 0 && stamp[r] !== tick) listNeed[listOf[r]]++;
    }
    for (let c = 0; c < ivf.model.nlist; c++) {
      const need = listNeed[c];
      if (need === 0) continue;
      listNeed[c] = 0;
      if (need * ROW_READ_COST >= offsets[c + 1] - offsets[c]) scanList(ix, ivf, vec, c);
    }
    const dim = this.dimensions;
    for (let i = 0; i < count; i++) {
      const r = rows[i];
      if (r >= 0 && stamp[r] !== tick) {
        sims[r] = rowSimilarity(this.vectors, dim, r, vec, used, usedCount);
        stamp[r] = tick;
      }
    }
  }

  /** The vector row of each ordinal of a segment (-1 when the document has no vector). */
  segmentRows(segment: KeywordSegment): Int32Array {
    const cached = this.segRows.get(segment);
    if (cached && cached.version === this.docsVersion) return cached.rows;
    const rows = Int32Array.from(segment.ids, (id) => this.vecRow.get(id) ?? -1);
    this.segRows.set(segment, { version: this.docsVersion, rows });
    return rows;
  }
}
