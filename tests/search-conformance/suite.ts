/**
 * The conformance suite every `SearchEngine` adapter must pass. Usage in a test file:
 *
 *   runConformance("lancedb", async () => new LanceDbEngine({ dir, embedder }));
 *
 * The suite indexes the fixture corpus through `buildIndexBatch` with the `local-hash` embedder, then checks the
 * port's observable behaviour: settings read-back, keyword relevance (title outweighs full_text), typo tolerance
 * (1 typo from 5 letters, 2 from 9), prefix on the last word, diacritic folding, `<mark>` highlights (HTML-escaped),
 * crop, displayed attributes (never full_text, no null keys), filters, sort, paging, facets, hybrid, chunk search,
 * similar, autocomplete, suggest, getDocuments, and the sync operations (upsert, delete, full rebuild), then the
 * estimated-total cap. `groups` narrows the run for an adapter whose test double can honour only part of it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildIndexBatch } from "@/lib/search/batch";
import { DocumentNotFoundError } from "@/lib/search/errors";
import { parseIndexFilter } from "@/lib/search/filter";
import {
  AUTOCOMPLETE_DEFAULTS,
  DISPLAYED_ATTRIBUTES,
  FILTERABLE_ATTRIBUTES,
  SEARCHABLE_ATTRIBUTES,
  SORTABLE_ATTRIBUTES,
  indexSettings,
} from "@/lib/search/index-settings";
import { SuggestionMiner } from "@/lib/search/suggest-miner";
import type { IndexBatch, SearchDocumentsRequest, SearchEngine } from "@/lib/search/types";
import { LocalHashEmbedder } from "@/lib/search/embedders/local-hash";
import type { JudgmentRow } from "@/lib/search/document";
import { F, FIXTURE_COUNT, FIXTURE_ROWS, PL_COUNT, fixtureId } from "./fixture";

export type ConformanceGroup =
  | "settings"
  | "keyword"
  | "display"
  | "filters"
  | "sort"
  | "facets"
  | "hybrid"
  | "chunks"
  | "similar"
  | "autocomplete"
  | "suggest"
  | "citations"
  | "documents"
  | "sync"
  | "query-language"
  | "cap";

export const ALL_GROUPS: readonly ConformanceGroup[] = [
  "settings",
  "keyword",
  "display",
  "filters",
  "sort",
  "facets",
  "hybrid",
  "chunks",
  "similar",
  "autocomplete",
  "suggest",
  "citations",
  "documents",
  "sync",
  "query-language",
  "cap",
];

export interface ConformanceOptions {
  groups?: readonly ConformanceGroup[];
}

const embedder = new LocalHashEmbedder();

async function indexRows(engine: SearchEngine, rows: JudgmentRow[]): Promise<IndexBatch> {
  const batch = await buildIndexBatch(rows, embedder);
  const miner = new SuggestionMiner();
  for (const d of batch.documents) miner.add(d.document);
  const session = await engine.sync.beginFull();
  await session.add(batch);
  await session.commit({ suggestions: miner.result() });
  return batch;
}

const ids = (r: { hits: Array<{ document: { id: string } }> }) => r.hits.map((h) => h.document.id);
const stripMarks = (s: string) => s.replace(/<\/?mark>/g, "");

export function runConformance(
  name: string,
  makeEngine: () => Promise<SearchEngine>,
  options: ConformanceOptions = {},
): void {
  const groups = new Set(options.groups ?? ALL_GROUPS);
  const when = (g: ConformanceGroup, body: () => void) => {
    if (groups.has(g)) describe(g, body);
  };

  describe(`SearchEngine conformance: ${name}`, () => {
    let engine: SearchEngine;
    let batch: IndexBatch;
    const search = (req: Partial<SearchDocumentsRequest> & { q: string }) =>
      engine.searchDocuments({ limit: 20, offset: 0, ...req });
    const f = (s: string) => parseIndexFilter(s);

    beforeAll(async () => {
      engine = await makeEngine();
      batch = await indexRows(engine, FIXTURE_ROWS);
    });

    afterAll(async () => {
      await engine?.close();
    });

    when("settings", () => {
      it("reads back the declared settings", async () => {
        const s = await engine.settings();
        const want = indexSettings();
        expect(s.searchableAttributes).toEqual(want.searchableAttributes);
        expect(s.filterableAttributes.slice().sort()).toEqual(want.filterableAttributes.slice().sort());
        expect(s.sortableAttributes.slice().sort()).toEqual(want.sortableAttributes.slice().sort());
        expect(s.displayedAttributes.slice().sort()).toEqual(want.displayedAttributes.slice().sort());
        expect(s.displayedAttributes).not.toContain("full_text");
        expect(s.typoTolerance.minWordSizeForTypos).toEqual({ oneTypo: 5, twoTypos: 9 });
        expect(s.pagination.maxTotalHits).toBe(1000);
        expect(s.embedders?.default).toEqual({ source: "userProvided", dimensions: embedder.dimensions });
        expect(SEARCHABLE_ATTRIBUTES.slice(0, 9)).toEqual([
          "title",
          "case_number",
          "summary",
          "court_name",
          "judges_flat",
          "keywords",
          "legal_topics",
          "cited_legislation",
          "full_text",
        ]);
      });

      it("reports health with counts and the embedder label", async () => {
        const h = await engine.health();
        expect(h.status).toBe("ok");
        expect(h.documents).toBe(FIXTURE_COUNT);
        expect(h.chunks).toBe(batch.chunks.length);
        expect(h.embedder).toMatchObject({
          id: "local-hash",
          label: "lexical (no model configured)",
          dimensions: 384,
          registered: true,
        });
      });
    });

    when("keyword", () => {
      it("placeholder search returns every document with the exact total", async () => {
        const r = await search({ q: "", limit: 100 });
        expect(r.hits).toHaveLength(FIXTURE_COUNT);
        expect(r.estimatedTotal).toBe(FIXTURE_COUNT);
        expect(r.totalCapped).toBe(false);
        expect(r.processingTimeMs).toBeGreaterThanOrEqual(0);
        expect(r.query).toBe("");
      });

      it("finds a title word and ranks the title match first", async () => {
        const r = await search({ q: "robbery" });
        expect(ids(r).slice(0, 2).sort()).toEqual([F.patel, F.khan].sort());
        expect(r.hits[0].score).toBeGreaterThan(0);
        expect(r.hits[0].score).toBeLessThanOrEqual(1);
      });

      it("weights title above full_text (attribute order)", async () => {
        const r = await search({ q: "arson" });
        expect(ids(r)[0]).toBe(F.gray);
        expect(ids(r)).toContain(F.cole);
      });

      it("requires every word with matchingStrategy all", async () => {
        const r = await search({ q: "kitchen knife", matchingStrategy: "all" });
        expect(ids(r)).toEqual([F.smith]);
        const none = await search({ q: "armed robbery zzqqxx", matchingStrategy: "all" });
        expect(none.hits).toHaveLength(0);
        expect(none.estimatedTotal).toBe(0);
      });

      it("drops trailing words with matchingStrategy last (the default)", async () => {
        const r = await search({ q: "armed robbery zzqqxx" });
        expect(ids(r).slice(0, 2).sort()).toEqual([F.patel, F.khan].sort());
        const r2 = await search({ q: "armed robbery zzqqxx", matchingStrategy: "last" });
        expect(ids(r2)).toEqual(ids(r));
      });

      it("tolerates one typo from 5 letters", async () => {
        expect(ids(await search({ q: "robbbery", matchingStrategy: "all" }))).toContain(F.patel);
        expect(ids(await search({ q: "brglary", matchingStrategy: "all" }))).toContain(F.brown);
      });

      it("tolerates two typos from 9 letters but not below", async () => {
        expect(ids(await search({ q: "mnslaugter", matchingStrategy: "all" }))).toContain(F.jones);
        expect(ids(await search({ q: "brglry", matchingStrategy: "all" }))).not.toContain(F.brown);
      });

      it("allows no typo below 5 letters", async () => {
        // "frud" (4 letters) must not reach "fraud".
        expect(ids(await search({ q: "frud", matchingStrategy: "all" }))).not.toContain(F.green);
      });

      it("matches the last word as a prefix", async () => {
        expect(ids(await search({ q: "mansla" }))).toContain(F.jones);
        expect(ids(await search({ q: "domestic burg" }))[0]).toBe(F.brown);
      });

      it("folds case and diacritics", async () => {
        expect(ids(await search({ q: "zabojstwo" }))[0]).toBe(F.zabojstwo);
        expect(ids(await search({ q: "KRADZIEZ" }))[0]).toBe(F.kradziez);
        expect(ids(await search({ q: "Łodzi" }))).toContain(F.pobicie);
      });

      it("searches case_number and court_name", async () => {
        expect(ids(await search({ q: "2019/01234/B1" }))[0]).toBe(F.smith);
        expect(ids(await search({ q: "Katowicach" }))).toEqual([F.znecanie]);
      });

      it("restricts matching with attributesToSearchOn", async () => {
        const r = await search({ q: "arson", attributesToSearchOn: ["title"] });
        expect(ids(r)).toEqual([F.gray]);
      });

      it("pages consistently with offset and limit", async () => {
        const all = await search({ q: "appeal", limit: 10 });
        const p1 = await search({ q: "appeal", limit: 3, offset: 0 });
        const p2 = await search({ q: "appeal", limit: 3, offset: 3 });
        expect([...ids(p1), ...ids(p2)]).toEqual(ids(all).slice(0, 6));
        expect(p2.estimatedTotal).toBe(all.estimatedTotal);
      });
    });

    when("query-language", () => {
      it("a quoted phrase matches its words adjacent and in order, not mere co-occurrence", async () => {
        expect(ids(await search({ q: '"armed robbery"' })).sort()).toEqual([F.khan, F.patel].sort());
        // Both documents hold "robbery" and "armed", but never in this order.
        expect(ids(await search({ q: '"robbery armed"' }))).toEqual([]);
        expect(ids(await search({ q: '"kitchen knife"' }))).toEqual([F.smith]);
      });

      it("-word and -\"phrase\" leave out the documents holding them", async () => {
        const both = ids(await search({ q: "armed robbery" }));
        expect(both).toEqual(expect.arrayContaining([F.khan, F.patel]));
        const noJewellery = ids(await search({ q: "armed robbery -jewellery" }));
        expect(noJewellery).toContain(F.khan);
        expect(noJewellery).not.toContain(F.patel);
        const noPostOffice = ids(await search({ q: 'armed robbery -"post office"' }));
        expect(noPostOffice).toContain(F.patel);
        expect(noPostOffice).not.toContain(F.khan);
        // Excluding a phrase whose words co-occur out of order leaves the document in.
        expect(ids(await search({ q: 'armed robbery -"office post"' }))).toEqual(expect.arrayContaining([F.khan, F.patel]));
        // Exclusions alone: every other document.
        const noRobbery = ids(await search({ q: "-robbery", limit: 100 }));
        expect(noRobbery).toContain(F.smith);
        expect(noRobbery).not.toContain(F.patel);
        expect(noRobbery).not.toContain(F.khan);
      });

      it("OR between two words matches either", async () => {
        const r = ids(await search({ q: "burglary OR manslaughter " }));
        expect(r).toEqual(expect.arrayContaining([F.brown, F.jones]));
        expect(ids(await search({ q: "burglary " }))).not.toContain(F.jones);
      });

      it("OR between quoted phrases, and between a word and a phrase, matches the union of the alternatives", async () => {
        const sorted = (xs: string[]) => [...xs].sort();
        expect(sorted(ids(await search({ q: '"armed robbery" OR "kitchen knife"' })))).toEqual(sorted([F.khan, F.patel, F.smith]));
        // Each side is still a phrase: words out of order match nothing on that side.
        expect(ids(await search({ q: '"robbery armed" OR "kitchen knife"' }))).toEqual([F.smith]);
        expect(sorted(ids(await search({ q: 'manslaughter OR "kitchen knife"' })))).toEqual(sorted([F.jones, F.smith]));
        expect(sorted(ids(await search({ q: '"kitchen knife" OR manslaughter' })))).toEqual(sorted([F.jones, F.smith]));
        // Three alternatives, and an exclusion beside them.
        const three = ids(await search({ q: '"kitchen knife" OR manslaughter OR "post office"' }));
        expect(sorted(three)).toEqual(sorted([F.jones, F.khan, F.smith]));
        expect(sorted(ids(await search({ q: '"armed robbery" OR "kitchen knife" -jewellery' })))).toEqual(sorted([F.khan, F.smith]));
      });

      it("highlights mark the words of every alternative", async () => {
        const r = await search({ q: '"armed robbery" OR "kitchen knife"', attributesToHighlight: ["title"] });
        expect(r.hits.find((h) => h.document.id === F.smith)?.formatted?.title).toBe(
          "R v Smith: murder by stabbing with a <mark>kitchen</mark> <mark>knife</mark>",
        );
        expect(r.hits.find((h) => h.document.id === F.patel)?.formatted?.title).toBe(
          "R v Patel: <mark>armed</mark> <mark>robbery</mark> of a jewellery shop",
        );
        const both = await search({ q: 'jewellery OR "post office"', attributesToHighlight: ["title"] });
        expect(both.hits.find((h) => h.document.id === F.khan)?.formatted?.title).toBe("R v Khan: armed robbery of a <mark>post</mark> <mark>office</mark>");
        expect(both.hits.find((h) => h.document.id === F.patel)?.formatted?.title).toBe("R v Patel: armed robbery of a <mark>jewellery</mark> shop");
        // A judgment holding both alternatives shows both (on Meilisearch: two searches' marks merged).
        const patel = await search({ q: '"armed robbery" OR jewellery', attributesToHighlight: ["title", "summary"] });
        const p = patel.hits.find((h) => h.document.id === F.patel);
        expect(p?.formatted?.title).toBe("R v Patel: <mark>armed</mark> <mark>robbery</mark> of a <mark>jewellery</mark> shop");
      });

      it("field terms must occur in their attribute", async () => {
        const r = await search({ q: "", fieldTerms: [{ attribute: "court_name", words: ["poznaniu"] }] });
        expect(ids(r)).toEqual([F.kradziez]);
        const none = await search({ q: "", fieldTerms: [{ attribute: "court_name", words: ["armed"] }] });
        expect(ids(none)).toEqual([]);
      });
    });

    when("display", () => {
      it("highlights matches with <mark> and escapes HTML", async () => {
        const r = await search({ q: "robbery", attributesToHighlight: ["title"] });
        const t = r.hits.find((h) => h.document.id === F.patel)?.formatted?.title;
        expect(t).toBe("R v Patel: armed <mark>robbery</mark> of a jewellery shop");
        const o = await search({ q: "abuse position", attributesToHighlight: ["title"] });
        const ot = o.hits.find((h) => h.document.id === F.oneil)?.formatted?.title;
        expect(ot).toBe("R v O'Neil &amp; &lt;Co&gt;: fraud by <mark>abuse</mark> of <mark>position</mark>");
      });

      it("highlights the query's terms only: never a stop-word or a one-letter word", async () => {
        const r = await search({ q: "kradziez z wlamaniem", attributesToHighlight: ["title", "summary"] });
        const hit = r.hits.find((h) => h.document.id === F.kradziez);
        expect(hit?.formatted?.title).toBe("Wyrok Sądu Apelacyjnego w Poznaniu: <mark>kradzież</mark> z <mark>włamaniem</mark>");
        expect(hit?.formatted?.summary).toBe("<mark>Kradzież</mark> z <mark>włamaniem</mark> do sklepu; kara złagodzona.");
        const e = await search({ q: "stabbing with a knife", attributesToHighlight: ["title"] });
        const et = e.hits.find((h) => h.document.id === F.smith)?.formatted?.title;
        expect(et).toBe("R v Smith: murder by <mark>stabbing</mark> with a kitchen <mark>knife</mark>");
      });

      it("highlights nothing for a query made only of stop-words", async () => {
        const r = await search({ q: "with a", attributesToHighlight: ["title", "summary"] });
        expect(r.hits.length).toBeGreaterThan(0);
        for (const h of r.hits) {
          for (const v of Object.values(h.formatted ?? {})) expect(String(v)).not.toContain("<mark>");
        }
      });

      it("highlights a prefix match on the matched part", async () => {
        const r = await search({ q: "jewell", attributesToHighlight: ["title"] });
        expect(r.hits[0].formatted?.title).toContain("<mark>jewell</mark>ery");
      });

      it("crops to N tokens around the match", async () => {
        const r = await search({
          q: "imitation",
          attributesToCrop: ["summary"],
          attributesToHighlight: ["summary"],
          cropLength: 4,
        });
        const s = r.hits[0].formatted?.summary;
        expect(typeof s).toBe("string");
        expect(s).toContain("<mark>imitation</mark>");
        const words = stripMarks(String(s))
          .replace(/…/g, " ")
          .split(/\s+/)
          .filter((w) => /[\p{L}\p{N}]/u.test(w));
        expect(words.length).toBeLessThanOrEqual(4);
      });

      it("never returns full_text and omits null-valued keys", async () => {
        const r = await search({ q: "", limit: 100, attributesToRetrieve: ["id", "title", "summary", "full_text"] });
        for (const h of r.hits) {
          expect(h.document).not.toHaveProperty("full_text");
          for (const v of Object.values(h.document)) expect(v).not.toBeNull();
        }
        const z = r.hits.find((h) => h.document.id === F.znecanie);
        expect(z?.document).not.toHaveProperty("summary");
        expect(Object.keys(z?.document ?? {}).sort()).toEqual(["id", "title"]);
      });

      it("returns the displayed attributes by default", async () => {
        const r = await search({ q: "Smith" });
        const d = r.hits[0].document;
        expect(d.id).toBe(F.smith);
        for (const k of Object.keys(d)) expect(DISPLAYED_ATTRIBUTES).toContain(k);
        expect(d.jurisdiction).toBe("UK");
        expect(d.decision_date).toBe("2019-05-10");
        expect(d.keywords).toEqual([]);
        expect(d.judges).toEqual([{ name: "Lord Justice Holroyde", role: "presiding" }]);
        expect(d.judges_flat).toBe("Lord Justice Holroyde");
      });
    });

    when("filters", () => {
      const count = async (filter: string, q = "") =>
        (await search({ q, filter: f(filter), limit: 100 })).estimatedTotal;
      const hitIds = async (filter: string, q = "") =>
        ids(await search({ q, filter: f(filter), limit: 100 })).sort();

      it("declares the filterable list the parser checks", () => {
        expect(FILTERABLE_ATTRIBUTES).toContain("decision_date_ts");
        expect(FILTERABLE_ATTRIBUTES).toContain("base_date_of_appeal_court_judgment_ts");
        expect(FILTERABLE_ATTRIBUTES).not.toContain("base_date_of_appeal_court_judgment");
      });

      it("= and != (case-insensitive strings)", async () => {
        expect(await count("jurisdiction = PL")).toBe(PL_COUNT);
        expect(await count("jurisdiction = 'pl'")).toBe(PL_COUNT);
        expect(await count("jurisdiction != PL")).toBe(FIXTURE_COUNT - PL_COUNT);
      });

      it("ranges on the epoch twin with TO and comparisons", async () => {
        // 2010-01-01 .. 2014-12-31
        const want = [F.brown, F.gray, F.cole, F.kradziez, F.pobicie].sort();
        expect(await hitIds("decision_date_ts 1262304000 TO 1420070399")).toEqual(want);
        expect(await hitIds("decision_date_ts >= 1262304000 AND decision_date_ts <= 1420070399")).toEqual(want);
        expect(await hitIds("decision_date_ts > 1640995200")).toEqual([F.narkotyki]);
        expect(await hitIds("decision_date_ts < 1136073600")).toEqual([F.oszustwo]);
      });

      it("numbers, booleans and array membership", async () => {
        expect(await hitIds("base_num_victims >= 3")).toEqual([F.patel]);
        expect(await count("base_did_offender_confess = true")).toBe(2);
        expect(await hitIds("base_appeal_outcome = outcome_conviction_quashed")).toEqual([F.green, F.oszustwo].sort());
      });

      it("IN, NOT IN, NOT, OR and parentheses", async () => {
        expect(await hitIds("base_num_victims IN [2, 3] AND jurisdiction = UK")).toEqual(
          [F.patel, F.brown, F.gray, F.khan].sort(),
        );
        expect(await count("jurisdiction NOT IN [UK]")).toBe(PL_COUNT);
        expect(await count("NOT jurisdiction = UK")).toBe(PL_COUNT);
        expect(await hitIds("(base_num_victims = 3 OR base_num_victims = 2) AND jurisdiction = PL")).toEqual([
          F.znecanie,
        ]);
      });

      it("IS NULL, IS NOT NULL, EXISTS, IS EMPTY", async () => {
        expect(await hitIds("base_num_victims IS NULL")).toEqual([F.green, F.oneil].sort());
        expect(await count("base_num_victims IS NOT NULL")).toBe(FIXTURE_COUNT - 2);
        expect(await count("jurisdiction EXISTS")).toBe(FIXTURE_COUNT);
        expect(await count("base_appeal_outcome IS NULL")).toBe(
          FIXTURE_ROWS.filter((r) => r.base_appeal_outcome === null).length,
        );
        expect(await count("outcome IS NULL")).toBe(FIXTURE_COUNT);
        expect(await count("outcome IS NOT NULL")).toBe(0);
      });

      it("combines a filter with a query", async () => {
        expect(await hitIds("jurisdiction = PL", "robbery")).toEqual([]);
        expect(await hitIds("jurisdiction = UK", "armed robbery")).toEqual([F.patel, F.khan].sort());
      });
    });

    when("sort", () => {
      it("sorts a placeholder search by decision_date both ways", async () => {
        const asc = await search({ q: "", limit: 100, sort: [{ attribute: "decision_date", direction: "asc" }] });
        const dates = asc.hits.map((h) => String(h.document.decision_date));
        expect(dates).toEqual(dates.slice().sort());
        const desc = await search({ q: "", limit: 100, sort: [{ attribute: "decision_date", direction: "desc" }] });
        expect(ids(desc)).toEqual(ids(asc).reverse());
        expect(SORTABLE_ATTRIBUTES).toContain("decision_date");
      });

      it("sorts by a numeric base field with a filter", async () => {
        const r = await search({
          q: "",
          limit: 100,
          filter: f("base_num_victims IS NOT NULL AND jurisdiction = UK"),
          sort: [{ attribute: "base_num_victims", direction: "desc" }],
        });
        const v = r.hits.map((h) => Number((batch.documents.find((d) => d.document.id === h.document.id)?.document
          .base_num_victims) ?? -1));
        expect(v).toEqual(v.slice().sort((a, b) => b - a));
        expect(v[0]).toBe(3);
      });
    });

    when("facets", () => {
      it("counts facet values over the matching set", async () => {
        const r = await engine.facets({ facets: ["jurisdiction", "base_appeal_outcome"] });
        expect(r.facetDistribution.jurisdiction).toEqual({ PL: PL_COUNT, UK: FIXTURE_COUNT - PL_COUNT });
        expect(r.facetDistribution.base_appeal_outcome.outcome_conviction_quashed).toBe(2);
        expect(r.total).toBe(FIXTURE_COUNT);
        const fr = await engine.facets({ facets: ["jurisdiction"], filter: f("base_num_victims >= 2") });
        expect(fr.facetDistribution.jurisdiction).toEqual({ PL: 1, UK: 4 });
        const q = await engine.facets({ facets: ["jurisdiction"], q: "robbery" });
        expect(q.facetDistribution.jurisdiction).toEqual({ UK: 2 });
      });

      it("limits values per facet and narrows by a facet query", async () => {
        const r = await engine.facets({ facets: ["base_appeal_outcome"], maxValuesPerFacet: 1 });
        expect(Object.keys(r.facetDistribution.base_appeal_outcome)).toEqual(["outcome_dismissed_or_refused"]);
        const n = await engine.facets({ facets: ["base_appeal_outcome"], facetQuery: "QUASH" });
        expect(n.facetDistribution.base_appeal_outcome).toEqual({ outcome_conviction_quashed: 2 });
      });

      it("returns facets with a search", async () => {
        const r = await search({ q: "", facets: ["jurisdiction"] });
        expect(r.facetDistribution?.jurisdiction).toEqual({ PL: PL_COUNT, UK: FIXTURE_COUNT - PL_COUNT });
      });
    });

    when("hybrid", () => {
      it("semanticRatio 1 ranks by the vector", async () => {
        const r = await search({ q: "murder stabbing kitchen knife", semanticRatio: 1, limit: 3 });
        expect(r.semanticRatio).toBe(1);
        expect(ids(r)[0]).toBe(F.smith);
      });

      it("semanticRatio 0.5 fuses both and honours filters", async () => {
        const r = await search({ q: "armed robbery", semanticRatio: 0.5, filter: f("jurisdiction = UK") });
        expect(r.semanticRatio).toBe(0.5);
        expect(ids(r).slice(0, 2).sort()).toEqual([F.patel, F.khan].sort());
        for (const h of r.hits) expect(h.document.jurisdiction).toBe("UK");
      });

      it("accepts a precomputed vector", async () => {
        const vector = await embedder.embedQuery("zabójstwo nożem");
        const r = await search({ q: "zabójstwo nożem", semanticRatio: 1, vector, limit: 3 });
        expect(ids(r)[0]).toBe(F.zabojstwo);
      });
    });

    when("chunks", () => {
      it("finds the passage of a long judgment with its position", async () => {
        const marker = "serrated blade pierced the left ventricle";
        const expected = batch.chunks.find((c) => c.judgmentId === F.smith && c.text.includes("left ventricle"));
        expect(expected).toBeDefined();
        const r = await engine.searchChunks({ query: marker, limit: 5 });
        expect(r.hits[0].judgmentId).toBe(F.smith);
        expect(r.hits[0].text).toContain("left ventricle");
        expect([expected?.position]).toContain(r.hits[0].position);
        expect(r.hits[0].similarity).toBeGreaterThan(0);
        expect(batch.chunks.filter((c) => c.judgmentId === F.smith).length).toBeGreaterThan(2);
      });

      it("filters chunks and drops results under minSimilarity", async () => {
        const r = await engine.searchChunks({ query: "armed robbery", limit: 10, filter: f("jurisdiction = PL") });
        for (const h of r.hits) expect(h.judgmentId).toMatch(/-0000000000(1[2-8])$/);
        const strict = await engine.searchChunks({ query: "armed robbery", limit: 10, minSimilarity: 0.999 });
        for (const h of strict.hits) expect(h.similarity).toBeGreaterThanOrEqual(0.999);
      });
    });

    when("similar", () => {
      it("returns other judgments most like the given one", async () => {
        const r = await engine.similar({ id: F.patel, limit: 3 });
        expect(ids(r)).not.toContain(F.patel);
        expect(ids(r)[0]).toBe(F.khan);
        expect(r.hits.length).toBeLessThanOrEqual(3);
        expect(["vector", "more_like_this"]).toContain(r.mode);
        for (const h of r.hits) expect(h.document).not.toHaveProperty("full_text");
      });

      it("throws DocumentNotFoundError for an unknown id", async () => {
        await expect(engine.similar({ id: fixtureId(999), limit: 3 })).rejects.toBeInstanceOf(DocumentNotFoundError);
      });
    });

    when("autocomplete", () => {
      it("uses the spec's fixed defaults", async () => {
        const r = await engine.autocomplete({ q: "robb", limit: 10 });
        expect(ids(r).slice(0, 2).sort()).toEqual([F.patel, F.khan].sort());
        for (const h of r.hits) {
          for (const k of Object.keys(h.document)) {
            expect(AUTOCOMPLETE_DEFAULTS.attributesToRetrieve as readonly string[]).toContain(k);
          }
        }
        expect(String(r.hits[0].formatted?.title)).toContain("<mark>robb</mark>ery");
      });

      it("does not search full_text and honours a filter", async () => {
        // "ventricle" only appears in Smith's full_text.
        expect((await engine.autocomplete({ q: "ventricle", limit: 10 })).hits).toHaveLength(0);
        const r = await engine.autocomplete({ q: "wyrok", limit: 10, filter: f("decision_date_ts >= 1420070400") });
        expect(ids(r).sort()).toEqual([F.zabojstwo, F.rozboj, F.narkotyki].sort());
      });

      it("crops summary to 24 tokens and returns topic hits", async () => {
        const r = await engine.autocomplete({ q: "zabój", limit: 5 });
        expect(ids(r)[0]).toBe(F.zabojstwo);
        const summary = String(r.hits[0].formatted?.summary ?? "");
        expect(stripMarks(summary).split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length).toBeLessThanOrEqual(24);
        expect(r.topicHits.map((t) => t.topic)).toContain("zabójstwo");
      });
    });

    when("suggest", () => {
      it("suggests corpus phrases for a prefix", async () => {
        const r = await engine.suggest({ q: "armed", limit: 5 });
        expect(r.suggestions.map((s) => s.text)).toContain("armed robbery");
        for (const s of r.suggestions) expect(s.text.toLowerCase().startsWith("armed")).toBe(true);
        const t = await engine.suggest({ q: "prawo karne", limit: 5 });
        expect(t.suggestions[0]).toMatchObject({ text: "prawo karne materialne", kind: "topic" });
        expect((await engine.suggest({ q: "zzqqxx", limit: 5 })).suggestions).toEqual([]);
      });
    });

    when("citations", () => {
      // A case number or neutral citation typed in any common form puts its judgment first, although
      // its words ("II", "AKa", "20", "2019", "EWCA", "Crim") are shared by the other judgments of the fixture.
      const CASES: Array<[forms: string[], id: string]> = [
        [["II AKa 13/20", "ii aka 13/20", "IIAKa13/20", "II  AKa 13 / 20", "sygn. akt II AKa 13/2020"], F.rozboj],
        [["II AKa 123/18", "sygn. akt II AKa 123/18 zabójstwo"], F.zabojstwo],
        [["[2019] EWCA Crim 710", "2019 ewca crim 710", "[2019]EWCA Crim 710", "R v Smith [2019] EWCA Crim 710"], F.smith],
        [["[2019] EWCA Crim 805", "2019 EWCA Crim 805"], F.green],
        [["[2021] EWHC 123 (QB)", "[2021] EWHC 123 QB", "[2021] EWHC 123"], F.patel],
        [["2019/01234/B1", "201901234 B1", "2019 01234 b1", "2019/1234/B1"], F.smith],
      ];

      it("ranks the judgment named by a case number or neutral citation first, in keyword search", async () => {
        for (const [forms, id] of CASES) {
          for (const q of forms) {
            const r = await search({ q, limit: 10 });
            expect(ids(r)[0], q).toBe(id);
            expect(r.hits[0].score, q).toBe(1);
            // The rest follows in the normal order, the pinned judgment once.
            expect(ids(r).filter((x) => x === id), q).toHaveLength(1);
          }
        }
      });

      it("still ranks the other matches after the pinned judgment, and pages through them", async () => {
        const all = ids(await search({ q: "II AKa 13/20", limit: 20 }));
        expect(all.length).toBeGreaterThan(1);
        const second = await search({ q: "II AKa 13/20", limit: 3, offset: 1 });
        expect(ids(second)).toEqual(all.slice(1, 4));
        expect(new Set(all).size).toBe(all.length);
        // The same words without the citation's slash: the same matches, the pinned judgment counted once.
        const words = await search({ q: "II AKa 13 20", limit: 20 });
        expect(ids(words).slice().sort()).toEqual(all.slice().sort());
        const pinned = await search({ q: "II AKa 13/20", limit: 20, facets: ["jurisdiction"] });
        expect(pinned.estimatedTotal).toBe(words.estimatedTotal);
        const counts = Object.values(pinned.facetDistribution?.jurisdiction ?? {});
        expect(counts.reduce((a, b) => a + b, 0)).toBe(pinned.estimatedTotal);
      });

      it("in hybrid search too", async () => {
        for (const [forms, id] of CASES) {
          for (const q of forms) {
            const r = await search({ q, semanticRatio: 0.5, limit: 10 });
            expect(ids(r)[0], q).toBe(id);
            expect(r.hits[0].score, q).toBe(1);
          }
        }
      });

      it("in autocomplete", async () => {
        for (const [forms, id] of CASES) {
          for (const q of forms.slice(0, 2)) expect(ids(await engine.autocomplete({ q, limit: 5 }))[0], q).toBe(id);
        }
      });

      it("keeps filters: a citation of a judgment the filter excludes pins nothing", async () => {
        const r = await search({ q: "II AKa 13/20", filter: f("jurisdiction = UK") });
        expect(ids(r)).not.toContain(F.rozboj);
        const pl = await search({ q: "[2019] EWCA Crim 710", filter: f("jurisdiction = PL") });
        expect(ids(pl)).not.toContain(F.smith);
      });

      it("pins nothing for a near miss (another year, another number)", async () => {
        for (const q of ["II AKa 13/19", "[2019] EWCA Crim 711", "[2020] EWCA Crim 710"]) {
          const r = await search({ q, limit: 10 });
          expect(r.hits.every((h) => h.score < 1), q).toBe(true);
        }
      });
    });

    when("documents", () => {
      it("gets documents by id in the order asked, skipping unknown ids", async () => {
        const docs = await engine.getDocuments([F.khan, fixtureId(999), F.smith]);
        expect(docs.map((d) => d.id)).toEqual([F.khan, F.smith]);
        expect(docs[0]).not.toHaveProperty("full_text");
        const few = await engine.getDocuments([F.khan], ["id", "title"]);
        expect(Object.keys(few[0]).sort()).toEqual(["id", "title"]);
      });
    });

    when("sync", () => {
      it("upserts a changed judgment (document and chunks)", async () => {
        const row = { ...FIXTURE_ROWS[5], title: "R v White: supply of class A drugs and xylophone theft" };
        const counts = await engine.sync.upsert(await buildIndexBatch([row], embedder));
        expect(counts.documents).toBe(1);
        expect(ids(await search({ q: "xylophone" }))).toEqual([F.white]);
        expect((await engine.health()).documents).toBe(FIXTURE_COUNT);
      });

      it("deletes judgments and their chunks", async () => {
        await engine.sync.delete([F.smith, fixtureId(999)]);
        expect(ids(await search({ q: "kitchen knife" }))).not.toContain(F.smith);
        expect(await engine.getDocuments([F.smith])).toEqual([]);
        const c = await engine.searchChunks({ query: "serrated blade pierced the left ventricle", limit: 5 });
        expect(c.hits.map((h) => h.judgmentId)).not.toContain(F.smith);
        expect((await engine.health()).documents).toBe(FIXTURE_COUNT - 1);
      });

      it("a full rebuild replaces the whole index", async () => {
        await indexRows(engine, FIXTURE_ROWS.slice(0, 3));
        expect((await search({ q: "", limit: 100 })).estimatedTotal).toBe(3);
        expect(ids(await search({ q: "xylophone" }))).toEqual([]);
        batch = await indexRows(engine, FIXTURE_ROWS);
        expect((await engine.health()).documents).toBe(FIXTURE_COUNT);
        expect(ids(await search({ q: "kitchen knife" }))).toContain(F.smith);
      });

      it("an aborted rebuild leaves the live index untouched", async () => {
        const session = await engine.sync.beginFull();
        await session.add(await buildIndexBatch(FIXTURE_ROWS.slice(0, 1), embedder));
        await session.abort();
        expect((await engine.health()).documents).toBe(FIXTURE_COUNT);
      });
    });

    when("cap", () => {
      it("caps the estimated total at 1000", async () => {
        const extra: JudgmentRow[] = Array.from({ length: 1005 }, (_, i) => ({
          ...FIXTURE_ROWS[1],
          id: fixtureId(10_000 + i),
          title: `Bulk judgment ${i} about quokka welfare`,
          summary: null,
          full_text: "",
        }));
        await engine.sync.upsert(await buildIndexBatch(extra, embedder));
        const r = await search({ q: "quokka", limit: 5 });
        expect(r.estimatedTotal).toBe(1000);
        expect(r.totalCapped).toBe(true);
        const all = await search({ q: "", limit: 5 });
        expect(all.estimatedTotal).toBe(1000);
        await engine.sync.delete(extra.map((x) => String(x.id)));
        expect((await search({ q: "quokka" })).estimatedTotal).toBe(0);
      });
    });
  });
}
