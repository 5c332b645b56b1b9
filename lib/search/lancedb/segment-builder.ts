/** Builds an immutable KeywordSegment from documents (or postings encoded in a batch worker). */
import { B, fieldWeight } from "./keyword-scoring";
import { KeywordSegment } from "./keyword-segment";
import { PostingStream } from "./posting-stream";
import { TermEncoder, type EncodedPostings, type SegmentDocInput } from "./term-encoder";

/**
 * One document's postings by term text, in the order its encoding made them: what add() with `keep` hands back, so a
 * later segment can take the document again without tokenising its text (addPostings; the delta segment is rebuilt on
 * every incremental write, and tokenising every judgment in it again was most of that).
 */
export interface DocPostings {
  terms: string[];
  short: Float32Array;
  long: Uint32Array;
  mask: Uint32Array;
  longLen: number;
}

export class SegmentBuilder {
  private readonly ids: string[] = [];
  private readonly stream: PostingStream;
  private readonly longLens: number[] = [];
  /** Stream length after each document: a document's postings are contiguous, so no doc id per posting. */
  private readonly docEnds: number[] = [];
  /** Tokenises add()'s documents; its vocabulary is the segment's unless postings come encoded (addEncoded). */
  private readonly encoder: TermEncoder;
  /** The vocabulary of addEncoded()'s postings (their encoder's, in id order), or null while add() is used. */
  private encodedVocab: string[] | null = null;

  constructor(
    fieldCount: number,
    /** Index of the long field (full_text) among the searchable attributes, or -1. */
    private readonly longField: number,
    /** A file to keep the postings stream in until build() (see PostingStream), or null to keep it in memory. */
    spillFile: string | null = null,
  ) {
    this.encoder = new TermEncoder(fieldCount, longField);
    this.stream = new PostingStream(spillFile);
  }

  /** Remove the spill file of a build that will not be finished. */
  dispose(): void {
    this.stream.dispose();
  }

  private get vocab(): string[] {
    return this.encodedVocab ?? this.encoder.vocab;
  }

  add(doc: SegmentDocInput): void {
    if (this.encodedVocab) throw new Error("a segment takes documents from one encoder: add() after addEncoded()");
    this.ids.push(doc.id);
    this.longLens.push(this.encoder.encode(doc.fields, this.stream));
    this.docEnds.push(this.stream.length);
  }

  /** add(), handing back the document's postings by term text (for addPostings into a later segment). */
  addKeeping(doc: SegmentDocInput): DocPostings {
    if (this.encodedVocab) throw new Error("a segment takes documents from one encoder: add() after addEncoded()");
    const from = this.stream.length;
    const terms: string[] = [];
    const short: number[] = [];
    const long: number[] = [];
    const mask: number[] = [];
    const vocab = this.encoder.vocab;
    const stream = this.stream;
    const longLen = this.encoder.encode(doc.fields, {
      push(term, s, l, m) {
        terms.push(vocab[term]);
        short.push(s);
        long.push(l);
        mask.push(m);
        stream.push(term, s, l, m);
      },
    });
    this.ids.push(doc.id);
    this.longLens.push(longLen);
    this.docEnds.push(this.stream.length);
    if (this.stream.length - from !== terms.length) throw new Error("postings kept out of step with the stream");
    return { terms, short: Float32Array.from(short), long: Uint32Array.from(long), mask: Uint32Array.from(mask), longLen };
  }

  /**
   * A document whose postings addKeeping() kept from an earlier segment: the same postings, in the same order, as
   * add() of the same document would push here (so the segment is the one a fresh build makes), without tokenising.
   */
  addPostings(id: string, p: DocPostings): void {
    if (this.encodedVocab) throw new Error("a segment takes documents from one encoder: add() after addEncoded()");
    for (let i = 0; i < p.terms.length; i++) this.stream.push(this.encoder.termId(p.terms[i]), p.short[i], p.long[i], p.mask[i]);
    this.ids.push(id);
    this.longLens.push(p.longLen);
    this.docEnds.push(this.stream.length);
  }

  /** Documents `ids` tokenised by a TermEncoder elsewhere, every batch of one segment from that same encoder, in order. */
  addEncoded(ids: readonly string[], p: EncodedPostings): void {
    if (this.encodedVocab === null) {
      if (this.ids.length > 0) throw new Error("a segment takes documents from one encoder: addEncoded() after add()");
      this.encodedVocab = [];
    }
    const vocab = this.encodedVocab;
    if (p.firstNewTerm !== vocab.length) throw new Error(`postings from another encoder (first new term ${p.firstNewTerm}, ${vocab.length} known)`);
    for (const t of p.newTerms) vocab.push(t);
    if (ids.length !== p.docEnds.length) throw new Error("encoded postings for another number of documents");
    const { terms, short, long, mask } = p;
    let j = 0;
    for (let i = 0; i < ids.length; i++) {
      for (const end = p.docEnds[i]; j < end; j++) this.stream.push(terms[j], short[j], long[j], mask[j]);
      this.ids.push(ids[i]);
      this.longLens.push(p.longLens[i]);
      this.docEnds.push(this.stream.length);
    }
  }

  get size(): number {
    return this.ids.length;
  }

  build(): KeywordSegment {
    const n = this.ids.length;
    let sum = 0;
    for (const l of this.longLens) sum += l;
    const avg = n > 0 && sum > 0 ? sum / n : 1;
    const longW = this.longField >= 0 ? fieldWeight(this.longField) : 0;
    const V = this.vocab.length;
    // Sort the vocabulary (prefix and first-letter ranges need it) and renumber the terms by rank.
    const byRank = Array.from({ length: V }, (_, i) => i).sort((a, b) =>
      this.vocab[a] < this.vocab[b] ? -1 : this.vocab[a] > this.vocab[b] ? 1 : 0,
    );
    const rank = new Uint32Array(V);
    for (let r = 0; r < V; r++) rank[byRank[r]] = r;
    const vocab = byRank.map((i) => this.vocab[i]);
    // Counting sort of the stream into CSR postings (offsets per term; docs ascending within a term).
    const offsets = new Uint32Array(V + 1);
    const counts = this.stream.counts;
    for (let t = 0; t < V; t++) offsets[rank[t] + 1] = counts[t];
    for (let r = 0; r < V; r++) offsets[r + 1] += offsets[r];
    const total = offsets[V];
    const docs = new Uint32Array(total);
    const weights = new Float32Array(total);
    const masks = new Uint32Array(total);
    const cursor = offsets.slice(0, V);
    const longLens = Float64Array.from(this.longLens);
    const docEnds = this.docEnds;
    let g = 0;
    let d = 0;
    // Each block is released (or its buffers reused) once copied: peak memory stays near the final arrays.
    this.stream.drain((b) => {
      for (let i = 0; i < b.n; i++, g++) {
        while (g >= docEnds[d]) d++;
        const pos = cursor[rank[b.term[i]]]++;
        const l = b.long[i];
        docs[pos] = d;
        weights[pos] = b.short[i] + (l > 0 ? (longW * l) / (1 - B + (B * longLens[d]) / avg) : 0);
        masks[pos] = b.mask[i];
      }
    });
    this.encoder.finish();
    return new KeywordSegment(this.ids, vocab, offsets, docs, weights, masks);
  }
}
