/** What the Meilisearch adapter reports about its indexes: the settings in force, indexing state and health. */
import type { Settings } from "meilisearch";
import { MAX_TOTAL_HITS, type IndexSettings } from "../index-settings";
import type { Embedder, EngineHealth } from "../types";
import type { MeiliConnection } from "./connection";
import { mapMeiliError, meiliErrorCode } from "./errors";
import { CITATION_KEYS_ATTRIBUTE } from "./settings";

/** Indexing state for health pages: is a task running, when did the engine last finish one. */
export interface MeiliSyncState {
  isIndexing: boolean;
  lastUpdate: string | null;
  documents: number;
  chunks: number;
  suggestions: number;
}

/** The documents index's settings in the port's shape (what is in force, read back from the engine). */
export async function readIndexSettings(conn: MeiliConnection): Promise<IndexSettings> {
  let s: Settings;
  try {
    s = await conn.index(conn.uids.documents).getSettings();
  } catch (e) {
    throw mapMeiliError(e, "reading settings");
  }
  const names = (list: unknown): string[] =>
    Array.isArray(list)
      ? list.flatMap((x) => (typeof x === "string" ? [x] : ((x as { attributePatterns?: string[] }).attributePatterns ?? [])))
      : [];
  const out: IndexSettings = {
    searchableAttributes: names(s.searchableAttributes),
    // citation_keys is the adapter's own (citation lookup), not part of the declared index.
    filterableAttributes: names(s.filterableAttributes).filter((a) => a !== CITATION_KEYS_ATTRIBUTE),
    sortableAttributes: names(s.sortableAttributes),
    displayedAttributes: names(s.displayedAttributes),
    rankingRules: names(s.rankingRules),
    typoTolerance: {
      enabled: s.typoTolerance?.enabled ?? true,
      minWordSizeForTypos: {
        oneTypo: s.typoTolerance?.minWordSizeForTypos?.oneTypo ?? 5,
        twoTypos: s.typoTolerance?.minWordSizeForTypos?.twoTypos ?? 9,
      },
    },
    pagination: { maxTotalHits: s.pagination?.maxTotalHits ?? MAX_TOTAL_HITS },
  };
  const registered = s.embedders?.[conn.cfg.embedder];
  if (registered && registered.source === "userProvided") {
    out.embedders = { [conn.cfg.embedder]: { source: "userProvided", dimensions: registered.dimensions } };
  }
  return out;
}

/** Indexing state for the health page (D-20 sync state): running tasks, last update, document counts. */
export async function readSyncState(conn: MeiliConnection): Promise<MeiliSyncState> {
  try {
    const stats = await conn.client.getStats();
    const of = (uid: string) => stats.indexes[uid];
    return {
      isIndexing: Object.values(conn.uids).some((uid) => of(uid)?.isIndexing === true),
      lastUpdate: stats.lastUpdate ?? null,
      documents: of(conn.uids.documents)?.numberOfDocuments ?? 0,
      chunks: of(conn.uids.chunks)?.numberOfDocuments ?? 0,
      suggestions: of(conn.uids.suggestions)?.numberOfDocuments ?? 0,
    };
  } catch (e) {
    throw mapMeiliError(e, "stats");
  }
}

export async function engineHealth(conn: MeiliConnection, embedder: Embedder): Promise<EngineHealth> {
  const embedderInfo = { id: embedder.id, label: embedder.label, dimensions: embedder.dimensions, registered: false };
  const down = (message: string): EngineHealth => ({ engine: "meilisearch", status: "down", documents: 0, chunks: 0, embedder: embedderInfo, message });
  try {
    await conn.client.health();
  } catch (e) {
    return down(mapMeiliError(e, "health").message);
  }
  try {
    const [version, documents, chunks] = await Promise.all([
      conn.client.getVersion(),
      conn.documentCount(conn.uids.documents),
      conn.documentCount(conn.uids.chunks),
    ]);
    let problem: string | undefined;
    try {
      const embedders = await conn.index(conn.uids.documents).getEmbedders();
      const e = embedders?.[conn.cfg.embedder];
      embedderInfo.registered = e?.source === "userProvided" && e.dimensions === embedder.dimensions;
      if (!e) problem = `embedder \`${conn.cfg.embedder}\` is not registered on the index (semantic search answers 502)`;
      else if (!embedderInfo.registered) problem = `embedder \`${conn.cfg.embedder}\` on the index does not match the configured embedder`;
    } catch (e) {
      if (meiliErrorCode(e) !== "index_not_found") throw e;
      problem = `index \`${conn.uids.documents}\` does not exist yet (run a full sync)`;
    }
    return {
      engine: "meilisearch",
      status: problem ? "degraded" : "ok",
      documents,
      chunks,
      embedder: embedderInfo,
      message: problem ? `Meilisearch ${version.pkgVersion}: ${problem}` : `Meilisearch ${version.pkgVersion}`,
    };
  } catch (e) {
    return { ...down(mapMeiliError(e, "health").message), status: "degraded" };
  }
}
