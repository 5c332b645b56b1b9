/** The fake Meilisearch's state and wire types: tasks, indexes, settings (documented defaults, PATCH merge), errors. */

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type Doc = Record<string, Json>;

export interface RecordedRequest {
  method: string;
  /** Path without the query string, e.g. `/indexes/judgments/search`. */
  path: string;
  query: Record<string, string>;
  /** Parsed JSON body (undefined when empty). */
  body: unknown;
  authorization?: string;
}

export interface MeiliErrorBody {
  message: string;
  code: string;
  type: string;
  link: string;
}

export interface Injection {
  method?: string;
  path?: string | RegExp;
  /** Respond with this status and body (default body: a documented internal error). */
  status?: number;
  body?: unknown;
  /** Wait this long before answering (or before the normal handling when no status is given). */
  delayMs?: number;
  /** How many matching requests this applies to (default 1; Infinity = until cleared). */
  times?: number;
}

export interface TaskFailure {
  /** Task type to fail, e.g. `settingsUpdate`, `documentAdditionOrUpdate`, `indexSwap`. */
  type: string;
  indexUid?: string;
  error: Omit<MeiliErrorBody, "link" | "type"> & { type?: string };
  times?: number;
}

export type TaskStatus = "enqueued" | "processing" | "succeeded" | "failed" | "canceled";

export interface Task {
  uid: number;
  batchUid: number | null;
  indexUid: string | null;
  status: TaskStatus;
  type: string;
  canceledBy: null;
  details: Record<string, Json>;
  error: MeiliErrorBody | null;
  duration: string | null;
  enqueuedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  /** Applies the effect; returns updated details or throws a MeiliError. */
  apply: () => Record<string, Json> | void;
  polls: number;
}

export interface Settings {
  displayedAttributes: string[];
  searchableAttributes: string[];
  filterableAttributes: string[];
  sortableAttributes: string[];
  rankingRules: string[];
  stopWords: string[];
  nonSeparatorTokens: string[];
  separatorTokens: string[];
  dictionary: string[];
  synonyms: Record<string, string[]>;
  distinctAttribute: string | null;
  proximityPrecision: string;
  typoTolerance: {
    enabled: boolean;
    minWordSizeForTypos: { oneTypo: number; twoTypos: number };
    disableOnWords: string[];
    disableOnAttributes: string[];
    disableOnNumbers: boolean;
  };
  faceting: { maxValuesPerFacet: number; sortFacetValuesBy: Record<string, string> };
  pagination: { maxTotalHits: number };
  embedders: Record<string, Record<string, Json>>;
  searchCutoffMs: number | null;
  localizedAttributes: Json;
  facetSearch: boolean;
  prefixSearch: string;
}

export interface Index {
  uid: string;
  primaryKey: string | null;
  createdAt: string;
  updatedAt: string;
  settings: Settings;
  /** Insertion-ordered documents by primary key (string form). */
  documents: Map<string, Doc>;
}

export class MeiliError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly type: string = "invalid_request",
  ) {
    super(message);
  }
  body(): MeiliErrorBody {
    return { message: this.message, code: this.code, type: this.type, link: `https://docs.meilisearch.com/errors#${this.code}` };
  }
}

/** Documented defaults of a fresh index (GET /indexes/:uid/settings). */
export function defaultSettings(): Settings {
  return {
    displayedAttributes: ["*"],
    searchableAttributes: ["*"],
    filterableAttributes: [],
    sortableAttributes: [],
    rankingRules: ["words", "typo", "proximity", "attribute", "sort", "exactness"],
    stopWords: [],
    nonSeparatorTokens: [],
    separatorTokens: [],
    dictionary: [],
    synonyms: {},
    distinctAttribute: null,
    proximityPrecision: "byWord",
    typoTolerance: {
      enabled: true,
      minWordSizeForTypos: { oneTypo: 5, twoTypos: 9 },
      disableOnWords: [],
      disableOnAttributes: [],
      disableOnNumbers: false,
    },
    faceting: { maxValuesPerFacet: 100, sortFacetValuesBy: { "*": "alpha" } },
    pagination: { maxTotalHits: 1000 },
    embedders: {},
    searchCutoffMs: null,
    localizedAttributes: null,
    facetSearch: true,
    prefixSearch: "indexingTime",
  };
}

export const clone = <T>(v: T): T => structuredClone(v);
export const now = () => new Date().toISOString();


// Settings merge (PATCH semantics: a given key replaces, null resets, nested objects merge, embedders merge by name)

export function applySettingsPatch(target: Settings, patch: Record<string, unknown>): void {
  const defaults = defaultSettings();
  const t = target as unknown as Record<string, unknown>;
  for (const [k, v] of Object.entries(patch)) {
    const def = (defaults as unknown as Record<string, unknown>)[k];
    if (v === null) {
      t[k] = clone(def);
    } else if (k === "embedders") {
      const cur = target.embedders;
      for (const [name, e] of Object.entries(v as Record<string, Record<string, Json> | null>)) {
        if (e === null) delete cur[name];
        else cur[name] = { ...(cur[name] ?? {}), ...e };
      }
    } else if (k === "sortableAttributes") {
      // Stored as a set: read back sorted (the real engine returns sortable attributes in alphabetical order).
      t[k] = [...new Set(v as string[])].sort();
    } else if (typeof def === "object" && def !== null && !Array.isArray(def) && k !== "synonyms") {
      const merged: Record<string, unknown> = { ...(t[k] as Record<string, unknown>) };
      for (const [nk, nv] of Object.entries(v as Record<string, unknown>)) {
        const nd = (def as Record<string, unknown>)[nk];
        if (nv === null) merged[nk] = clone(nd);
        else if (typeof nv === "object" && !Array.isArray(nv) && typeof nd === "object" && nd !== null && !Array.isArray(nd)) {
          merged[nk] = { ...(merged[nk] as Record<string, unknown>), ...(nv as Record<string, unknown>) };
        } else merged[nk] = nv;
      }
      t[k] = merged;
    } else {
      t[k] = clone(v);
    }
  }
}
