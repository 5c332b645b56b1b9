import { describe, expect, it } from "vitest";
import { LocalHashEmbedder } from "@/lib/llm/embedders/local-hash";
import { buildIndexBatch } from "@/lib/search/batch";
import { batchBuilder } from "@/lib/search/batch-pool";
import { decodeChunks, encodeChunks } from "@/lib/search/chunk-columns";

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
