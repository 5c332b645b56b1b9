import { MockEmbeddingModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { AiSdkEmbedder } from "@/lib/search/embedders/ai-sdk";
import { LOCAL_HASH_LABEL, LocalHashEmbedder, localHashVector } from "@/lib/search/embedders/local-hash";
import { chunkText } from "@/lib/search/chunk";
import { toIndexDocument, type JudgmentRow } from "@/lib/search/document";
import { buildIndexBatch } from "@/lib/search/batch";
import type { Embedder } from "@/lib/search/types";
import { DEFAULT_CORPUS_SEED, generateJudgment } from "@/supabase/seed/generate";
import { FIXTURE_ROWS } from "../search-conformance/fixture";

const norm = (v: number[]) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));
const cos = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i], 0);

describe("local-hash embedder", () => {
  it("is deterministic, 384-dimensional, L2-normalised and labelled lexical", async () => {
    const e = new LocalHashEmbedder();
    expect(e.label).toBe(LOCAL_HASH_LABEL);
    expect(e.label).toBe("lexical (no model configured)");
    const [a] = await e.embedDocuments(["Armed robbery of a jewellery shop"]);
    expect(a).toHaveLength(384);
    expect(norm(a)).toBeCloseTo(1, 6);
    expect(localHashVector("Armed robbery of a jewellery shop")).toEqual(a);
    expect(await e.embedQuery("Armed robbery of a jewellery shop")).toEqual(a);
    expect(localHashVector("")).toEqual(new Array(384).fill(0));
  });

  it("puts lexically close texts closer than unrelated ones (and folds diacritics)", () => {
    const q = localHashVector("zabójstwo nożem");
    expect(cos(q, localHashVector("zabojstwo z użyciem noża"))).toBeGreaterThan(cos(q, localHashVector("mortgage fraud")));
  });
});

describe("ai SDK embedder", () => {
  it("embeds through embedMany, normalises, and caches query embeddings", async () => {
    const model = new MockEmbeddingModelV3({
      maxEmbeddingsPerCall: 100,
      doEmbed: async ({ values }) => ({ embeddings: values.map((v) => [v.length, 0, 0]), warnings: [] }),
    });
    const e = new AiSdkEmbedder({ model, modelId: "mock-embed", dimensions: 3 });
    expect(e.kind).toBe("model");
    expect(await e.embedDocuments(["ab", "abcd"])).toEqual([
      [1, 0, 0],
      [1, 0, 0],
    ]);
    await e.embedQuery("hello");
    await e.embedQuery("hello");
    expect(model.doEmbedCalls).toHaveLength(2); // one for the documents, one for the first query
    expect(model.doEmbedCalls[0].values).toEqual(["ab", "abcd"]);
  });

  it("refuses vectors of the wrong size", async () => {
    const model = new MockEmbeddingModelV3({ doEmbed: async ({ values }) => ({ embeddings: values.map(() => [1, 2]), warnings: [] }) });
    await expect(new AiSdkEmbedder({ model, modelId: "m", dimensions: 3 }).embedDocuments(["x"])).rejects.toThrow(/dimensions/);
  });
});

describe("chunking and index documents", () => {
  it("chunks about 400 tokens with 100 overlap", () => {
    const text = Array.from({ length: 1000 }, (_, i) => `w${i}`).join(" ");
    const chunks = chunkText(text);
    expect(chunks.map((c) => c.tokenStart)).toEqual([0, 300, 600]);
    expect(chunks[0].text.split(" ")).toHaveLength(400);
    expect(chunks[1].text.split(" ")[0]).toBe("w300");
    expect(chunks[2].text.split(" ").at(-1)).toBe("w999");
    expect(chunkText("")).toEqual([]);
  });

  it("emits typed values, epoch twins, explicit nulls only for filterable keys", () => {
    const d = toIndexDocument({
      id: "x",
      title: "T",
      summary: null,
      decision_date: new Date(2020, 0, 31),
      base_num_victims: "3",
      base_victim_age_offence: "17.5",
      base_date_of_appeal_court_judgment: "2021-02-03",
      base_extracted_at: new Date("2024-05-06T07:08:09Z"),
      base_did_offender_confess: null,
      judges: [{ name: "A", role: "presiding" }, { name: "B" }],
    });
    expect(d).toMatchObject({
      id: "x",
      title: "T",
      decision_date: "2020-01-31",
      decision_date_ts: Date.UTC(2020, 0, 31) / 1000,
      base_num_victims: 3,
      base_victim_age_offence: 17.5,
      base_date_of_appeal_court_judgment: "2021-02-03",
      base_date_of_appeal_court_judgment_ts: Date.UTC(2021, 1, 3) / 1000,
      base_extracted_at_ts: Date.UTC(2024, 4, 6, 7, 8, 9) / 1000,
      base_did_offender_confess: null,
      judges_flat: "A, B",
    });
    expect(d).not.toHaveProperty("summary");
    expect(d.jurisdiction).toBeNull();
  });
});

describe("chunk vectors from token ranges (the build's fast path)", () => {
  it("are exactly the vectors of the chunk texts", async () => {
    const lexical = new LocalHashEmbedder();
    // The same embedder without embedTokenRanges: buildIndexBatch then embeds every chunk's text.
    const byText: Embedder = {
      id: lexical.id,
      label: lexical.label,
      kind: lexical.kind,
      dimensions: lexical.dimensions,
      embedDocuments: (texts) => lexical.embedDocuments(texts),
      embedQuery: (text) => lexical.embedQuery(text),
    };
    const rows = [
      ...Array.from({ length: 6 }, (_, i) => generateJudgment(DEFAULT_CORPUS_SEED, i) as unknown as JudgmentRow),
      ...FIXTURE_ROWS,
    ];
    const fast = await buildIndexBatch(rows, lexical);
    const slow = await buildIndexBatch(rows, byText);
    expect(fast.chunks.length).toBeGreaterThan(rows.length);
    expect(fast.chunks.map((c) => c.vector)).toEqual(slow.chunks.map((c) => c.vector));
    expect(fast).toEqual(slow);
  });
});
