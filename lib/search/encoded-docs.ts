/**
 * A full build's documents encoded for the embedded engine where they are made (the batch worker, batch-worker.ts;
 * the docs table's columns, the stored documents (everything but full_text) as one JSON text, and
 * the keyword postings with the terms first met in them. The main thread then appends buffers to LanceDB and to the
 * postings stream and parses the stored documents once: it never holds a full text, tokenises nothing and makes no
 * per-document JSON (at 10x the demo corpus the garbage of those was most of a build's garbage-collector time).
 * A full build's plain batches (SEARCH_BUILD_WORKER=0, tests) go through the same encoder on the main thread.
 */
import { SEARCHABLE_ATTRIBUTES } from "./index-settings";
import { packVectors, utf8At, utf8Parts, type Utf8Parts } from "./chunk-columns";
import { PostingBuffer, TermEncoder, type EncodedPostings } from "./lancedb/term-encoder";
import type { IndexBatch, IndexDocument, IndexDocumentWithVector } from "./types";

const LONG_FIELD = SEARCHABLE_ATTRIBUTES.indexOf("full_text");

export interface EncodedDocs {
  count: number;
  /** The docs table's `id` and `doc` (the whole document as JSON) columns. */
  id: Utf8Parts;
  doc: Utf8Parts;
  /** count × dimensions, as the embedder gave them (the table and memory round them to float32). */
  vectors: Float64Array;
  /** Per document: 1 for the first document with its id in this build (only those are indexed and kept in memory). */
  fresh: Uint8Array;
  /**
   * The fresh documents without full_text, as one JSON array in UTF-8 (a one-value column): what the engine keeps in
   * memory. Bytes, not a string: the full build holds every batch's until commit (full-build.ts), and as bytes they
   * take half the room of a two-byte string (any Polish letter makes one) and cost the main thread's garbage collector
   * nothing to mark.
   */
  stored: Utf8Parts;
  /** The fresh documents' keyword postings, in order. */
  postings: EncodedPostings;
}

/** One per full build: term ids and the ids seen so far span its batches. */
export class DocumentEncoder {
  private readonly terms = new TermEncoder(SEARCHABLE_ATTRIBUTES.length, LONG_FIELD);
  private readonly seen = new Set<string>();

  constructor(readonly dimensions: number) {}

  /** Documents with their vectors (a plain batch). */
  encode(documents: ReadonlyArray<IndexDocumentWithVector>): EncodedDocs {
    return this.encodeDocuments(
      documents.map((d) => d.document),
      packVectors(
        documents.map((d) => d.vector),
        this.dimensions,
      ),
    );
  }

  /**
   * Documents whose vectors (row-major, as the embedder gave them) another thread computes: the batch worker that
   * encodes documents and the one that embeds them work on the same rows side by side (batch-pool.ts).
   */
  encodeDocuments(documents: readonly IndexDocument[], vectors: Float64Array): EncodedDocs {
    const n = documents.length;
    const fresh = new Uint8Array(n);
    const json = new Array<string>(n);
    const parts: string[] = [];
    const postings = new PostingBuffer();
    const docEnds: number[] = [];
    const longLens: number[] = [];
    const firstNewTerm = this.terms.vocab.length;
    for (let i = 0; i < n; i++) {
      const d = documents[i];
      json[i] = JSON.stringify(d);
      if (this.seen.has(d.id)) continue;
      this.seen.add(d.id);
      fresh[i] = 1;
      const { full_text: _fullText, ...rest } = d;
      parts.push(JSON.stringify(rest));
      longLens.push(this.terms.encode(SEARCHABLE_ATTRIBUTES.map((a) => d[a]), postings));
      docEnds.push(postings.length);
    }
    return {
      count: n,
      id: utf8Parts(documents.map((d) => d.id)),
      doc: utf8Parts(json),
      vectors,
      fresh,
      stored: utf8Parts([`[${parts.join(",")}]`]),
      postings: {
        firstNewTerm,
        newTerms: this.terms.vocab.slice(firstNewTerm),
        docEnds: Int32Array.from(docEnds),
        longLens: Int32Array.from(longLens),
        ...postings.take(),
      },
    };
  }
}

/** The stored documents of an encoding, from its `stored` column. */
export function storedDocuments<T>(stored: Utf8Parts): T[] {
  return JSON.parse(utf8At(stored, 0) ?? "[]") as T[];
}

/** Every buffer of an encoding (to transfer it to another thread). */
export function encodedDocsBuffers(e: EncodedDocs): ArrayBuffer[] {
  const p = e.postings;
  const views: ArrayBufferView[] = [e.vectors, e.fresh, p.docEnds, p.longLens, p.terms, p.short, p.long, p.mask];
  for (const u of [e.id, e.doc, e.stored]) views.push(u.valueOffsets, u.data, ...(u.nullBitmap ? [u.nullBitmap] : []));
  return [...new Set(views.map((v) => v.buffer as ArrayBuffer))];
}

/** The documents back with their vectors (for an engine that reads records; the LanceDB full build writes the columns). */
export function decodeDocuments(e: EncodedDocs): IndexDocumentWithVector[] {
  const dim = e.count > 0 ? e.vectors.length / e.count : 0;
  const out = new Array<IndexDocumentWithVector>(e.count);
  for (let i = 0; i < e.count; i++) {
    out[i] = { document: JSON.parse(utf8At(e.doc, i) ?? "null") as IndexDocument, vector: e.vectors.subarray(i * dim, (i + 1) * dim) };
  }
  return out;
}

/**
 * A batch's document count without decoding encoded documents (reading `documents` of a worker's batch parses every
 * document's JSON, full text included: 13 s of the main thread's 26 s CPU at 2x the demo corpus, for a count).
 */
export function batchDocumentCount(b: IndexBatch): number {
  return b.encodedDocs ? b.encodedDocs.count : b.documents.length;
}
