/**
 * A typo of an ordinary word must not rank a name's judgment first on Meilisearch either (docs/meilisearch.md "Typos
 * and proper names"; lib/search/meilisearch/name-typos.ts): `robery` is one typo from "robbery" and from "Robert",
 * which Meilisearch's `typo` rule ranks alike, and "R v Robert" matches in the title. Against the fake server, whose
 * ranking does the same: without the guard "R v Robert" comes first.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MeilisearchEngine } from "@/lib/search/meilisearch/adapter";
import { demoteNameTypos, wordsAtRisk } from "@/lib/search/meilisearch/name-typos";
import type { SearchDocumentsRequest } from "@/lib/search/types";
import type { FakeMeilisearch } from "@/tests/helpers/fake-meilisearch";
import { fakeMeiliCorpus } from "@/tests/helpers/fake-meilisearch-corpus";
import { fixtureId } from "@/tests/search-conformance/fixture";

const KEY = "name-typos-key";
let fake: FakeMeilisearch;
let engine: MeilisearchEngine;
let close: () => Promise<void>;

const ROBERT = fixtureId(32_001);
const ROBBERY = fixtureId(32_002);
const KNIFE_ROBBERY = fixtureId(32_003);

beforeAll(async () => {
  ({ fake, engine, close } = await fakeMeiliCorpus(KEY, [
    { id: ROBERT, title: "R v Robert", summary: "Robert appealed against his conviction." },
    { id: ROBBERY, title: "Appeal against sentence", summary: "The sentence for a street robbery was reduced on appeal." },
    { id: KNIFE_ROBBERY, title: "Robbery with a knife", summary: "A robbery of a shop worker; the appeal was dismissed." },
  ]));
});

afterAll(() => close());

const search = (q: string, more: Partial<SearchDocumentsRequest> = {}) => engine.searchDocuments({ q, limit: 10, offset: 0, ...more });
const ids = async (q: string, more: Partial<SearchDocumentsRequest> = {}) => (await search(q, more)).hits.map((h) => h.document.id);

describe("a typo that lands on a proper name on Meilisearch", () => {
  it("the fake ranks like Meilisearch: the name's judgment first when nothing guards it", async () => {
    // The premise of the guard: the raw search puts "R v Robert" (title, one typo) first.
    const direct = await fetch(`${fake.url}/indexes/judgments/search`, {
      method: "POST",
      headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
      body: JSON.stringify({ q: "robery ", limit: 10 }),
    });
    const body = (await direct.json()) as { hits: Array<{ id: string }> };
    expect(body.hits[0].id).toBe(ROBERT);
  });

  it("`robery` ranks the robbery judgments above \"R v Robert\", which is demoted, not dropped", async () => {
    const got = await ids("robery ");
    expect(got.slice(0, 2).sort()).toEqual([KNIFE_ROBBERY, ROBBERY].sort());
    expect(got[2]).toBe(ROBERT);
    expect(got).toHaveLength(3);
  });

  it("pages over the guarded order", async () => {
    const first = await ids("robery ", { limit: 2 });
    const rest = await ids("robery ", { offset: 2, limit: 2 });
    expect(first.sort()).toEqual([KNIFE_ROBBERY, ROBBERY].sort());
    expect(rest).toEqual([ROBERT]);
    expect((await search("robery ", { offset: 2, limit: 2 })).estimatedTotal).toBe(3);
  });

  it("the name itself, and its prefix, still find the name first", async () => {
    expect((await ids("robert "))[0]).toBe(ROBERT);
    expect((await ids("robe"))[0]).toBe(ROBERT);
  });

  it("returns only the marks the caller asked for", async () => {
    const res = await search("robery ", { attributesToHighlight: ["title"], attributesToCrop: ["summary"], cropLength: 40 });
    const knife = res.hits.find((h) => h.document.id === KNIFE_ROBBERY);
    expect(knife?.formatted?.title).toBe("<mark>Robbery</mark> with a knife");
    expect(knife?.formatted?.summary).toBe("A robbery of a shop worker; the appeal was dismissed.");
    // Nothing asked: nothing formatted.
    expect((await search("robery ")).hits.every((h) => h.formatted === undefined)).toBe(true);
  });
});

describe("the guard's rules", () => {
  const names = new Set(["robert", "kowalski"]);

  it("a plain word within its typo budget of a name is at risk; the name, a phrase, an exclusion and short words are not", () => {
    expect(wordsAtRisk("robery ", names)).toEqual([{ word: "robery", prefix: false }]);
    expect(wordsAtRisk("robery", names)).toEqual([{ word: "robery", prefix: true }]);
    expect(wordsAtRisk("robert ", names)).toEqual([]);
    expect(wordsAtRisk("robbery ", names)).toEqual([]); // two edits from "robert"
    expect(wordsAtRisk('"robery" ', names)).toEqual([]);
    expect(wordsAtRisk("-robery theft", names)).toEqual([]);
    expect(wordsAtRisk("kowalsky robery", names).map((w) => w.word)).toEqual(["kowalsky", "robery"]);
    expect(wordsAtRisk("rob", names)).toEqual([]);
    expect(wordsAtRisk("robery ", new Set())).toEqual([]);
  });

  it("a hit whose visible match is also an ordinary word, or the word exactly, keeps its place", () => {
    const atRisk = wordsAtRisk("robery ", names);
    const hit = (id: string, title: string) => ({ id, _formatted: { title } });
    const order = demoteNameTypos(
      [hit("a", "R v <mark>Robert</mark>"), hit("b", "<mark>Robert</mark>'s <mark>robbery</mark>"), hit("c", "No visible match")],
      atRisk,
      names,
    ).map((h) => h.id);
    expect(order).toEqual(["b", "c", "a"]);
  });
});
