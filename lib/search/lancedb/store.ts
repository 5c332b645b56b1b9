/**
 * Persistence of the LanceDB adapter in `<dir>` (default `.data/search`): LanceDB tables per generation
 * (`docs_<gen>`: id, JSON document incl. full_text, vector; `chunks_<gen>`: passages with vectors), the mined
 * suggestions per generation (`suggest-<gen>.json`), the serving snapshot (`keyword-<gen>/`, snapshot.ts) and the
 * log of incremental writes (`delta-<gen>.jsonl`, delta-log.ts) per generation, and `state.json` naming the live
 * generation (written with an atomic rename, so a crashed rebuild never replaces the live index).
 */
import fs from "node:fs/promises";
import path from "node:path";
import * as lancedb from "@lancedb/lancedb";
import { Field, FixedSizeList, Float32, Int32, Int64, Schema, Utf8 } from "apache-arrow";
import type { ChunkRecord, IndexDocumentWithVector, Suggestion } from "../types";

export interface StoreState {
  gen: number;
  embedder: { id: string; dimensions: number };
  builtAt: string;
  /** Bumped by every incremental write so other processes know to reload. */
  rev?: number;
}

export function docsSchema(dim: number): Schema {
  return new Schema([
    new Field("id", new Utf8(), false),
    new Field("doc", new Utf8(), false),
    new Field("vector", new FixedSizeList(dim, new Field("item", new Float32(), true)), false),
  ]);
}

export function chunksSchema(dim: number): Schema {
  return new Schema([
    new Field("id", new Utf8(), false),
    new Field("judgment_id", new Utf8(), false),
    new Field("position", new Int32(), false),
    new Field("token_start", new Int32(), false),
    new Field("text", new Utf8(), false),
    new Field("jurisdiction", new Utf8(), true),
    new Field("decision_date_ts", new Int64(), true),
    new Field("vector", new FixedSizeList(dim, new Field("item", new Float32(), true)), false),
  ]);
}

export function docRow(d: IndexDocumentWithVector): Record<string, unknown> {
  return { id: d.document.id, doc: JSON.stringify(d.document), vector: d.vector };
}

export function chunkRow(c: ChunkRecord): Record<string, unknown> {
  return {
    id: c.id,
    judgment_id: c.judgmentId,
    position: c.position,
    token_start: c.tokenStart,
    text: c.text,
    jurisdiction: c.jurisdiction ?? null,
    decision_date_ts: c.decision_date_ts ?? null,
    vector: c.vector,
  };
}

export class SearchStore {
  private constructor(
    readonly dir: string,
    readonly db: lancedb.Connection,
  ) {}

  static async open(dir: string): Promise<SearchStore> {
    await fs.mkdir(dir, { recursive: true });
    const db = await lancedb.connect(path.join(dir, "lance"));
    return new SearchStore(dir, db);
  }

  async readState(): Promise<StoreState | null> {
    try {
      return JSON.parse(await fs.readFile(path.join(this.dir, "state.json"), "utf8")) as StoreState;
    } catch {
      return null;
    }
  }

  async writeState(state: StoreState): Promise<void> {
    const tmp = path.join(this.dir, `state.json.${process.pid}.tmp`);
    await fs.writeFile(tmp, JSON.stringify(state, null, 2));
    await fs.rename(tmp, path.join(this.dir, "state.json"));
  }

  async writeSuggestions(gen: number, suggestions: Suggestion[]): Promise<void> {
    await fs.writeFile(path.join(this.dir, `suggest-${gen}.json`), JSON.stringify(suggestions));
  }

  async readSuggestions(gen: number): Promise<Suggestion[]> {
    try {
      return JSON.parse(await fs.readFile(path.join(this.dir, `suggest-${gen}.json`), "utf8")) as Suggestion[];
    } catch {
      return [];
    }
  }

  /** The keyword/doc snapshot of a generation (snapshot.ts). */
  snapshotDir(gen: number): string {
    return path.join(this.dir, `keyword-${gen}`);
  }

  /** Incremental writes since the generation was built (delta-log.ts). */
  deltaLogPath(gen: number): string {
    return path.join(this.dir, `delta-${gen}.jsonl`);
  }

  async createTables(gen: number, dim: number): Promise<{ docs: lancedb.Table; chunks: lancedb.Table }> {
    const docs = await this.db.createEmptyTable(`docs_${gen}`, docsSchema(dim), { mode: "overwrite" });
    const chunks = await this.db.createEmptyTable(`chunks_${gen}`, chunksSchema(dim), { mode: "overwrite" });
    return { docs, chunks };
  }

  async openTables(gen: number): Promise<{ docs: lancedb.Table; chunks: lancedb.Table }> {
    return { docs: await this.db.openTable(`docs_${gen}`), chunks: await this.db.openTable(`chunks_${gen}`) };
  }

  /** Drop every generation except `keep` (null = drop all). */
  async dropGenerations(except: number | null): Promise<void> {
    for (const name of await this.db.tableNames()) {
      const m = /^(docs|chunks)_(\d+)$/.exec(name);
      if (m && Number(m[2]) !== except) await this.db.dropTable(name);
    }
    for (const f of await fs.readdir(this.dir)) {
      const m = /^(?:suggest-(\d+)\.json|keyword-(\d+)(\.tmp-.*)?|delta-(\d+)\.jsonl)$/.exec(f);
      if (!m) continue;
      const gen = Number(m[1] ?? m[2] ?? m[4]);
      // Temporary snapshot directories of the kept generation may belong to a writer still running.
      if (gen !== except) await fs.rm(path.join(this.dir, f), { recursive: true, force: true });
    }
  }

  async dropGeneration(gen: number): Promise<void> {
    const names = await this.db.tableNames();
    for (const n of [`docs_${gen}`, `chunks_${gen}`]) if (names.includes(n)) await this.db.dropTable(n);
    await fs.rm(path.join(this.dir, `suggest-${gen}.json`), { force: true });
    await fs.rm(this.snapshotDir(gen), { recursive: true, force: true });
    await fs.rm(this.deltaLogPath(gen), { force: true });
  }

  close(): void {
    this.db.close();
  }
}
