/**
 * Meilisearch settings of the three indexes, derived from the one declaration in `../index-settings.ts`
 * (spec: Judgment index roles; D-26, D-27). Applied in two phases (ARCHITECTURE): phase 1 is everything but
 * the embedder, phase 2 registers the `userProvided` embedder, so a settings problem never hides behind a slow
 * embedder change and vice versa. Each phase is verified by reading the settings back (`diffSettings`).
 */
import type { Settings } from "meilisearch";
import {
  CHUNK_FILTERABLE_ATTRIBUTES,
  EMBEDDER_NAME,
  embedderSettings,
  indexSettings,
  type IndexSettings,
} from "../index-settings";
import type { Embedder } from "../types";

/**
 * Faceting of the judgments index (Meilisearch-only concern): the facet distribution keeps the most frequent values
 * (spec draft: top 20 per field; the adapter trims to the requested count and may narrow by a typed substring, so
 * the engine keeps more than 20 to narrow from).
 */
export const FACETING = { maxValuesPerFacet: 100, sortFacetValuesBy: { "*": "count" } } as const;

/**
 * Derived attribute of the judgments index (not in index-settings.ts: no user may filter or read it): the
 * normalised keys of the judgment's case number and neutral citation (../citations.ts), filterable so that a query
 * naming a citation can ask for its judgment exactly (adapter.ts searchWithPins; docs/meilisearch.md).
 */
export const CITATION_KEYS_ATTRIBUTE = "citation_keys";

/**
 * Searchable attributes that hold nothing but people's names: Meilisearch matches no typo in them
 * (`typoTolerance.disableOnAttributes`), so `robery` never finds a judge or counsel called Robert (docs/meilisearch.md
 * "Typos and proper names"). The embedded engine reaches the same by leaving names out of typo expansions.
 */
export const NAME_ATTRIBUTES: readonly string[] = [
  "judges_flat",
  "base_appeal_court_judges_names",
  "base_case_name",
  "base_offender_representative_name",
  "base_crown_attorney_general_representative_name",
];

/**
 * The corpus-derived part of the judgments index's typo tolerance, applied by the full sync before the swap: the
 * corpus's proper names (../text/proper-names.ts) as `disableOnWords`, so a query word that is a name gets no typo.
 * Not part of phase 1: the read-back compares only the keys phase 1 sets, so a process starting on a live index
 * keeps the list the last full sync wrote.
 */
export function properNamesSettings(names: Iterable<string>): Settings {
  // A shorter query word gets no typo anyway (minWordSizeForTypos), so the list holds only the names that matter.
  const min = indexSettings().typoTolerance.minWordSizeForTypos.oneTypo;
  return { typoTolerance: { disableOnWords: [...names].filter((w) => w.length >= min).sort() } };
}

/** Phase 1 of the judgments index: searchable order, filterable, sortable, displayed (no full_text), ranking
 * rules, typo tolerance (one typo from 5 letters, two from 9, none in names' attributes), pagination
 * (maxTotalHits 1000), faceting. */
export function documentsPhase1(): Settings {
  const s: IndexSettings = indexSettings();
  return {
    searchableAttributes: s.searchableAttributes,
    filterableAttributes: [...s.filterableAttributes, CITATION_KEYS_ATTRIBUTE],
    sortableAttributes: s.sortableAttributes,
    displayedAttributes: s.displayedAttributes,
    rankingRules: s.rankingRules,
    typoTolerance: { ...s.typoTolerance, disableOnAttributes: [...NAME_ATTRIBUTES] },
    pagination: s.pagination,
    faceting: { maxValuesPerFacet: FACETING.maxValuesPerFacet, sortFacetValuesBy: { ...FACETING.sortFacetValuesBy } },
  };
}

/** Phase 2 (every index with vectors): the `userProvided` embedder, sized to our Embedder, under the configured name. */
export function embedderPhase(embedderName: string, embedder: Pick<Embedder, "dimensions">): Settings {
  return { embedders: { [embedderName]: embedderSettings(embedder)[EMBEDDER_NAME] } };
}

/** Chunk index (semantic chunk search): vectors only, filter by judgment, jurisdiction and decision date. */
export function chunksPhase1(): Settings {
  const s = indexSettings();
  return {
    searchableAttributes: ["text"],
    filterableAttributes: [...CHUNK_FILTERABLE_ATTRIBUTES],
    sortableAttributes: [],
    displayedAttributes: ["id", "judgmentId", "position", "tokenStart", "text"],
    rankingRules: s.rankingRules,
    pagination: s.pagination,
  };
}

/**
 * Suggestion index (typeahead phrases mined at full sync, ../suggest-miner.ts): prefix matches first, then the
 * most frequent phrase (custom rule `score:desc` right after words/typo so equally good matches rank by frequency).
 */
export function suggestionsPhase1(): Settings {
  return {
    searchableAttributes: ["text"],
    filterableAttributes: ["kind"],
    sortableAttributes: ["score"],
    displayedAttributes: ["text", "score", "kind"],
    rankingRules: ["words", "typo", "score:desc", "proximity", "attribute", "exactness"],
    typoTolerance: indexSettings().typoTolerance,
    pagination: { maxTotalHits: 1000 },
  };
}

/** Keys whose order matters when read back (searchable rank, ranking rules, displayed order is not semantic). */
const ORDERED = new Set(["searchableAttributes", "rankingRules"]);

/**
 * Differences between what we asked for and what the engine reports (`GET /indexes/:uid/settings`). Lists compare
 * as sets except the ordered ones (the engine returns sortable/filterable attributes in its own order); objects
 * compare on the keys we set only (the engine fills in defaults for the rest).
 */
export function diffSettings(wanted: Settings, actual: Settings, path = ""): string[] {
  const out: string[] = [];
  for (const [key, w] of Object.entries(wanted)) {
    const a = (actual as Record<string, unknown>)[key];
    const here = path ? `${path}.${key}` : key;
    if (Array.isArray(w)) {
      if (!Array.isArray(a)) {
        out.push(`${here}: expected a list, got ${JSON.stringify(a)}`);
        continue;
      }
      const same = ORDERED.has(key) && !path
        ? JSON.stringify(w) === JSON.stringify(a)
        : w.length === a.length && [...w].map(String).sort().join("\u0000") === [...a].map(String).sort().join("\u0000");
      if (!same) out.push(`${here}: expected ${JSON.stringify(w)}, got ${JSON.stringify(a)}`);
    } else if (w !== null && typeof w === "object") {
      if (a === null || typeof a !== "object" || Array.isArray(a)) {
        out.push(`${here}: missing`);
        continue;
      }
      out.push(...diffSettings(w as Settings, a as Settings, here));
    } else if (w !== a) {
      out.push(`${here}: expected ${JSON.stringify(w)}, got ${JSON.stringify(a)}`);
    }
  }
  return out;
}
