/**
 * Proper names and typos on the Meilisearch adapter (docs/meilisearch.md "Typos and proper names"), against the fake
 * server: the settings the adapter sends (the corpus's names as `typoTolerance.disableOnWords`, computed at the full
 * sync by the rule the embedded engine uses; names-only attributes in `disableOnAttributes`) and what they make hold:
 * a query word that is a name gets no typo, and no typo matches a judge's name. What Meilisearch cannot do (keep a
 * typo of another word from matching a name in the title or the text) is documented, not tested here.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MeilisearchEngine } from "@/lib/search/meilisearch/adapter";
import { NAME_ATTRIBUTES } from "@/lib/search/meilisearch/settings";
import type { FakeMeilisearch } from "@/tests/helpers/fake-meilisearch";
import { fakeMeiliCorpus } from "@/tests/helpers/fake-meilisearch-corpus";
import { fixtureId } from "@/tests/search-conformance/fixture";

const KEY = "typo-names-key";
let fake: FakeMeilisearch;
let engine: MeilisearchEngine;
let close: () => Promise<void>;

const ROBERTS = fixtureId(31_001);
const ROBBERY = fixtureId(31_002);
const ROBERTA = fixtureId(31_003);

beforeAll(async () => {
  ({ fake, engine, close } = await fakeMeiliCorpus(KEY, [
    { id: ROBERTS, title: "R v Roberts", summary: "ROBERTS appealed against sentence." },
    { id: ROBBERY, title: "Appeal against sentence", summary: "The sentence for a street robbery was reduced on appeal. Sentence reduced." },
    { id: ROBERTA, title: "R v Roberta", summary: "ROBERTA appealed against sentence." },
  ]));
});

afterAll(() => close());

const ids = async (q: string) => (await engine.searchDocuments({ q, limit: 10, offset: 0 })).hits.map((h) => h.document.id);

describe("typos and proper names on Meilisearch", () => {
  it("the full sync sends the corpus's proper names as disableOnWords, and names-only attributes as disableOnAttributes", () => {
    const typo = fake.index("judgments")!.settings.typoTolerance;
    // Capitalised in every field that holds them: the names (judges, parties, courts), not "appeal" nor "sentence",
    // which are also written in lower case; only words of five letters or more (shorter ones get no typo anyway).
    expect(typo.disableOnWords).toEqual(["court", "division", "holroyde", "justice", "roberta", "roberts", "smith"]);
    expect(typo.disableOnAttributes).toEqual([...NAME_ATTRIBUTES]);
    expect(typo.minWordSizeForTypos).toEqual({ oneTypo: 5, twoTypos: 9 });
    const patch = fake.calls().find((c) => c.method === "PATCH" && JSON.stringify(c.body).includes("disableOnWords"));
    expect(patch?.path).toMatch(/^\/indexes\/judgments_tmp_\d+\/settings$/);
  });

  it("a query word that is a name gets no typo; no typo matches in a judge's name", async () => {
    // "roberts" is one typo from "roberta": typed, each is a name, so only the exact word matches.
    expect(await ids("roberts ")).toEqual([ROBERTS]);
    expect(await ids("roberta ")).toEqual([ROBERTA]);
    // "Lord Justice Holroyde" is only in judges_flat: "holroyd" (one typo) does not reach it; the exact name does.
    expect(await ids("holroyd ")).toEqual([]);
    expect((await ids("holroyde ")).sort()).toEqual([ROBBERY, ROBERTA, ROBERTS].sort());
    // Ordinary words keep their typos.
    expect(await ids("robery ")).toContain(ROBBERY);
  });
});
