import { describe, expect, it } from "vitest";
import { LocalHashEmbedder } from "@/lib/search/embedders/local-hash";
import { buildIndexBatch } from "@/lib/search/batch";
import { batchBuilder } from "@/lib/search/batch-pool";
import { decodeChunks, encodeChunks, packVectors } from "@/lib/search/chunk-columns";
import { VectorBatchEncoder } from "@/lib/search/vector-batch";
import { DEFAULT_CORPUS_SEED, generateJudgment } from "@/supabase/seed/generate";

const rows = [
  { id: "00000000-0000-0000-0000-000000000001", title: "Smith v Jones", jurisdiction: "UK", full_text: "The appellant's claim — négligence — fails. ".repeat(120) },
  { id: "00000000-0000-0000-0000-000000000002", title: "Re X", full_text: "short text" },
  { id: "00000000-0000-0000-0000-000000000003", title: "Empty" },
];

describe("chunk columns (the full build's batch worker)", () => {
  it("decodes to the chunk records it encoded, vectors exactly", async () => {
    const embedder = new LocalHashEmbedder();
    const batch = await buildIndexBatch(rows, embedder);
    const decoded = decodeChunks(encodeChunks(batch.chunks, embedder.dimensions), embedder.dimensions);
    expect(decoded.map((c) => ({ ...c, vector: Array.from(c.vector) }))).toEqual(
      batch.chunks.map((c) => ({ ...c, vector: Array.from(c.vector) })),
    );
  });

  it("a batch built by the worker equals the one built on this thread", async () => {
    const embedder = new LocalHashEmbedder();
    const builder = await batchBuilder(embedder);
    try {
      const viaBuilder = await builder.build(rows);
      const direct = await buildIndexBatch(rows, embedder);
      const plain = (b: typeof direct) => ({
        documents: b.documents.map((d) => ({ document: d.document, vector: Array.from(d.vector) })),
        chunks: b.chunks.map((c) => ({ ...c, vector: Array.from(c.vector) })),
      });
      // Built in the worker (under vitest too): the chunks came back as columns.
      expect(viaBuilder.encodedChunks?.count).toBe(direct.chunks.length);
      expect(plain(viaBuilder)).toEqual(plain(direct));
    } finally {
      await builder.close();
    }
  });
});

describe("the vectors worker's encoder (vector-batch.ts)", () => {
  // Every kind of separator /\s/ knows, runs of them, non-ASCII letters, astral characters and lone surrogates.
  const odd = [
    "  lead\tand\ttabs\n\nparagraph\r\nwindows\u00a0nbsp\u2003em\u3000ideo\ufeffbom\u2028ls\u2029ps\u000bvt\u000cff",
    "zażółć gęślą jaźń — «quotes» 𝒳𝒴 astral \ud800 lone-high \udc00 lone-low x\ud83d",
    "trailing   ",
  ].join(" ");
  const batchOf = [
    ...Array.from({ length: 4 }, (_, i) => generateJudgment(DEFAULT_CORPUS_SEED, i) as unknown as Record<string, unknown>),
    { id: "00000000-0000-0000-0000-000000000010", title: "Odd", jurisdiction: "PL", decision_date: "2020-02-03", full_text: `${odd} `.repeat(150) },
    { id: "00000000-0000-0000-0000-000000000011", title: "Spaces only", full_text: " \n\t " },
    { id: "00000000-0000-0000-0000-000000000012", title: "Exactly one chunk", full_text: Array.from({ length: 400 }, (_, i) => `w${i}`).join(" ") },
    { id: "00000000-0000-0000-0000-000000000013", title: "One past", full_text: Array.from({ length: 401 }, (_, i) => `w${i}`).join("\n") },
    ...rows,
  ];

  it("gives the columns and vectors of buildIndexBatch and encodeChunks, bit for bit, batch after batch", async () => {
    const embedder = new LocalHashEmbedder();
    const dim = embedder.dimensions;
    const encoder = new VectorBatchEncoder(dim);
    // Twice: the encoder's scratch arrays are reused from one batch to the next.
    for (const batchRows of [batchOf, batchOf.slice(2), []]) {
      const direct = await buildIndexBatch(batchRows, embedder);
      const got = encoder.encode(batchRows);
      const want = encodeChunks(direct.chunks, dim);
      expect(got.encodedChunks).toEqual(want);
      expect(Buffer.from(got.encodedChunks.vectors.buffer).equals(Buffer.from(want.vectors.buffer))).toBe(true);
      const docVectors = packVectors(
        direct.documents.map((d) => d.vector),
        dim,
      );
      expect(Buffer.from(got.docVectors.buffer).equals(Buffer.from(docVectors.buffer))).toBe(true);
    }
  });
});
