/**
 * The index lifecycle of the Meilisearch adapter: settings applied in two phases and verified, the live indexes
 * prepared once per process, full rebuilds into `N_tmp_<ts>` swapped in atomically, incremental upserts and deletes
 * in place.
 */
import type { EnqueuedTaskPromise, Settings } from "meilisearch";
import { documentCitationKeys } from "../citations";
import { SearchEngineError } from "../errors";
import { toMeiliFilter } from "../filter/to-meili";
import type { ChunkRecord, Embedder, FullSyncOptions, FullSyncSession, IndexBatch, IndexDocument, SyncCounts, Vector } from "../types";
import type { IndexUids, MeiliConnection, Raw } from "./connection";
import { mapMeiliError } from "./errors";
import { DOC_ID } from "./hits";
import { ProperNameCollector } from "../text/proper-names";
import {
  CITATION_KEYS_ATTRIBUTE,
  chunksPhase1,
  diffSettings,
  documentsPhase1,
  embedderPhase,
  properNamesSettings,
  suggestionsPhase1,
} from "./settings";

/** A vector as JSON wants it (a typed array would serialise as an object). */
const jsonVector = (v: Vector): number[] => (Array.isArray(v) ? v : Array.from(v));

/** Suggestions written per request during commit. */
const SUGGESTION_BATCH = 10_000;

/** Chunk ids are `${judgmentId}:${position}` in the port; `:` is not allowed in a Meilisearch id. */
export function chunkDocumentId(judgmentId: string, position: number): string {
  return `${judgmentId}_${position}`;
}

export class MeiliIndexLifecycle {
  private liveReady: Promise<void> | null = null;

  constructor(
    private readonly conn: MeiliConnection,
    /** Its dimensions size the `userProvided` embedder. */
    private readonly embedder: Embedder,
    /** Clock for the `<name>_tmp_<ts>` suffix (tests pin it). */
    private readonly now: () => number,
  ) {}

  /** PATCH the settings, wait for the task, read them back and compare (throws when the engine disagrees). */
  private async applySettings(uid: string, phase: string, wanted: Settings): Promise<void> {
    await this.conn.run(`${phase} settings of ${uid}`, this.conn.index(uid).updateSettings(wanted));
    let actual: Settings;
    try {
      actual = await this.conn.index(uid).getSettings();
    } catch (e) {
      throw mapMeiliError(e, `reading settings of ${uid}`);
    }
    const diff = diffSettings(wanted, actual);
    if (diff.length > 0) {
      throw new SearchEngineError(`Meilisearch ${phase} settings of ${uid} did not apply: ${diff.join("; ")}`, {
        code: "SEARCH_SETTINGS_MISMATCH",
      });
    }
  }

  /** The two phases of each index kind. */
  private phases(kind: keyof IndexUids): Array<[phase: string, settings: Settings]> {
    const embedders: [string, Settings] = ["embedder", embedderPhase(this.conn.cfg.embedder, this.embedder)];
    if (kind === "documents") return [["index", documentsPhase1()], embedders];
    if (kind === "chunks") return [["index", chunksPhase1()], embedders];
    return [["index", suggestionsPhase1()]];
  }

  /** Create an index (if needed) and apply both phases; `onlyIfDifferent` skips phases already in force. */
  private async prepare(kind: keyof IndexUids, uid: string, onlyIfDifferent: boolean): Promise<void> {
    const exists = onlyIfDifferent ? await this.conn.indexExists(uid) : false;
    if (!exists) await this.conn.createIndex(uid);
    let current: Settings | null = null;
    if (exists) {
      try {
        current = await this.conn.index(uid).getSettings();
      } catch (e) {
        throw mapMeiliError(e, `reading settings of ${uid}`);
      }
    }
    for (const [phase, wanted] of this.phases(kind)) {
      if (current && diffSettings(wanted, current).length === 0) continue;
      await this.applySettings(uid, phase, wanted);
    }
  }

  /**
   * Make sure the live indexes exist with the declared settings (both phases), applying only what differs. Runs
   * once per process before the first write; `npm run search:sync` calls it explicitly.
   */
  async applyIndexSettings(): Promise<void> {
    this.liveReady ??= (async () => {
      for (const kind of ["documents", "chunks", "suggestions"] as const) await this.prepare(kind, this.conn.uids[kind], true);
    })().catch((e: unknown) => {
      this.liveReady = null;
      throw e;
    });
    return this.liveReady;
  }

  private documentBody(d: IndexDocument, vector: Vector): Raw {
    return { ...d, [CITATION_KEYS_ATTRIBUTE]: documentCitationKeys(d), _vectors: { [this.conn.cfg.embedder]: jsonVector(vector) } };
  }

  private chunkBody(c: ChunkRecord): Raw {
    const body: Raw = {
      id: chunkDocumentId(c.judgmentId, c.position),
      judgmentId: c.judgmentId,
      position: c.position,
      tokenStart: c.tokenStart,
      text: c.text,
      _vectors: { [this.conn.cfg.embedder]: jsonVector(c.vector) },
    };
    if (c.jurisdiction !== undefined) body.jurisdiction = c.jurisdiction;
    if (c.decision_date_ts !== undefined) body.decision_date_ts = c.decision_date_ts;
    return body;
  }

  private judgmentIdsFilter(ids: string[]): string {
    return toMeiliFilter({ type: "in", attribute: "judgmentId", values: ids, negated: false });
  }

  async upsert(batch: IndexBatch): Promise<SyncCounts> {
    await this.applyIndexSettings();
    const ids = batch.documents.map((d) => d.document.id);
    if (ids.length === 0 && batch.chunks.length === 0) return { documents: 0, chunks: 0, deleted: 0 };
    // Enqueue in this order; the engine processes tasks in order, so old chunks go before the new ones arrive.
    const docs = this.conn.index(this.conn.uids.documents);
    const chunks = this.conn.index(this.conn.uids.chunks);
    const pending: Array<[string, EnqueuedTaskPromise]> = [];
    if (ids.length) {
      pending.push(["upsert documents", docs.addDocuments(batch.documents.map((d) => this.documentBody(d.document, d.vector)), { primaryKey: "id" })]);
      pending.push(["delete old chunks", chunks.deleteDocuments({ filter: this.judgmentIdsFilter(ids) })]);
    }
    if (batch.chunks.length) {
      pending.push(["upsert chunks", chunks.addDocuments(batch.chunks.map((c) => this.chunkBody(c)), { primaryKey: "id" })]);
    }
    for (const [what, p] of pending) await this.conn.run(what, p);
    return { documents: ids.length, chunks: batch.chunks.length, deleted: 0 };
  }

  async deleteDocuments(ids: string[]): Promise<SyncCounts> {
    const valid = ids.filter((id) => DOC_ID.test(id));
    if (valid.length === 0) return { documents: 0, chunks: 0, deleted: 0 };
    await this.applyIndexSettings();
    const docsTask = this.conn.index(this.conn.uids.documents).deleteDocuments(valid);
    const chunksTask = this.conn.index(this.conn.uids.chunks).deleteDocuments({ filter: this.judgmentIdsFilter(valid) });
    const done = await this.conn.run("delete documents", docsTask);
    await this.conn.run("delete chunks", chunksTask);
    const deleted = typeof done.details?.deletedDocuments === "number" ? done.details.deletedDocuments : valid.length;
    return { documents: 0, chunks: 0, deleted };
  }

  async beginFull(options: FullSyncOptions = {}): Promise<FullSyncSession> {
    const suffix = `_tmp_${this.now()}`;
    const tmp: IndexUids = {
      documents: this.conn.uids.documents + suffix,
      chunks: this.conn.uids.chunks + suffix,
      suggestions: this.conn.uids.suggestions + suffix,
    };
    const kinds = ["documents", "chunks", "suggestions"] as const;
    try {
      for (const kind of kinds) await this.prepare(kind, tmp[kind], false);
    } catch (e) {
      await this.dropIndexes(Object.values(tmp));
      throw e;
    }
    const counts: SyncCounts = { documents: 0, chunks: 0, deleted: 0 };
    // The corpus's proper names, read from the documents as they stream by (settings.ts properNamesSettings).
    const names = new ProperNameCollector();
    let finished = false;
    const guard = () => {
      if (finished) throw new SearchEngineError("This full sync session is already committed or aborted", { code: "SYNC_SESSION_CLOSED" });
    };

    return {
      add: async (batch: IndexBatch) => {
        guard();
        const pending: Array<[string, EnqueuedTaskPromise]> = [];
        if (batch.documents.length) {
          pending.push([
            "add documents (full sync)",
            this.conn.index(tmp.documents).addDocuments(batch.documents.map((d) => this.documentBody(d.document, d.vector)), { primaryKey: "id" }),
          ]);
        }
        if (batch.chunks.length) {
          pending.push(["add chunks (full sync)", this.conn.index(tmp.chunks).addDocuments(batch.chunks.map((c) => this.chunkBody(c)), { primaryKey: "id" })]);
        }
        for (const d of batch.documents) names.add(d.document);
        for (const [what, p] of pending) await this.conn.run(what, p);
        counts.documents += batch.documents.length;
        counts.chunks += batch.chunks.length;
        options.onProgress?.({ ...counts });
      },
      commit: async ({ suggestions }) => {
        guard();
        finished = true;
        for (let i = 0; i < suggestions.length; i += SUGGESTION_BATCH) {
          const docs = suggestions.slice(i, i + SUGGESTION_BATCH).map((s, j) => ({ id: `s${i + j}`, text: s.text, score: s.score, kind: s.kind }));
          await this.conn.run("add suggestions", this.conn.index(tmp.suggestions).addDocuments(docs, { primaryKey: "id" }));
        }
        try {
          await this.applySettings(tmp.documents, "proper names", properNamesSettings(names.names()));
        } catch (e) {
          await this.dropIndexes(Object.values(tmp));
          throw e;
        }
        // One atomic swap of the three pairs; a live index that does not exist yet is created by renaming.
        const swaps = [];
        const oldGeneration: string[] = [];
        for (const kind of kinds) {
          if (await this.conn.indexExists(this.conn.uids[kind])) {
            swaps.push({ indexes: [this.conn.uids[kind], tmp[kind]] as [string, string], rename: false });
            oldGeneration.push(tmp[kind]);
          } else {
            swaps.push({ indexes: [tmp[kind], this.conn.uids[kind]] as [string, string], rename: true });
          }
        }
        try {
          await this.conn.run("swap indexes", this.conn.client.swapIndexes(swaps));
        } catch (e) {
          await this.dropIndexes(Object.values(tmp));
          throw e;
        }
        // After the swap the temporary uids hold the previous generation.
        await this.dropIndexes(oldGeneration);
        // The live indexes now carry the declared settings; writes need not re-check them.
        this.liveReady = Promise.resolve();
        return { ...counts };
      },
      abort: async () => {
        if (finished) return;
        finished = true;
        await this.dropIndexes(Object.values(tmp));
      },
    };
  }

  private async dropIndexes(uids: string[]): Promise<void> {
    for (const uid of uids) {
      try {
        await this.conn.run(`delete index ${uid}`, this.conn.client.deleteIndex(uid));
      } catch (e) {
        // Already gone is fine (abort after a failed create, rename swaps).
        if (!(e instanceof SearchEngineError && /index_not_found/.test(e.message))) throw e;
      }
    }
  }
}
