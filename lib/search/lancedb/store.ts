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
import {
  Field,
  FixedSizeList,
  Float32,
  Int32,
  Int64,
  RecordBatch,
  Schema,
  Struct,
  Table,
  Utf8,
  makeData,
  type Data,
  type DataType,
} from "apache-arrow";
import type { ChunkRecord, IndexDocumentWithVector, Suggestion } from "../types";
import { encodeChunks, nullableInt64Parts, packVectors, utf8Parts, type EncodedChunks, type Utf8Parts } from "../chunk-columns";
import type { EncodedDocs } from "../encoded-docs";

export interface StoreState {
  gen: number;
  embedder: { id: string; dimensions: number };
  builtAt: string;
  /** INDEX_LAYOUT of the build (absent: built before layouts were recorded). */
  layout?: string;
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

/*
 * Rows → Arrow record batches built column by column from typed arrays. Handing LanceDB plain objects makes it
 * infer and convert every value through Arrow's generic builders (a third of a full build's JavaScript time,
 * mostly the 384 floats of each chunk vector); here a vector column is one Float32Array and a text column one
 * UTF-8 buffer.
 */

function utf8Data(p: Utf8Parts, n: number): Data<Utf8> {
  return makeData({ type: new Utf8(), length: n, nullCount: p.nullCount, nullBitmap: p.nullBitmap, valueOffsets: p.valueOffsets, data: p.data });
}

function int64Column(values: ReadonlyArray<number | null | undefined>): Data<Int64> {
  const { data, nullBitmap, nullCount } = nullableInt64Parts(values);
  return makeData({ type: new Int64(), length: values.length, nullCount, nullBitmap, data });
}

function flatVectorColumn(type: FixedSizeList<Float32>, length: number, flat: Float32Array): Data<FixedSizeList<Float32>> {
  const child = makeData({ type: type.children[0].type, length: flat.length, nullCount: 0, data: flat });
  return makeData({ type, length, nullCount: 0, child });
}

function table(schema: Schema, length: number, columns: Record<string, Data<DataType>>): Table {
  const children = schema.fields.map((f) => columns[f.name]);
  const data = makeData({ type: new Struct(schema.fields), length, nullCount: 0, children });
  return new Table([new RecordBatch(schema, data)]);
}

export function docsTable(docs: ReadonlyArray<IndexDocumentWithVector>, dim: number): Table {
  return docsColumnsTable(
    utf8Parts(docs.map((d) => d.document.id)),
    utf8Parts(docs.map((d) => JSON.stringify(d.document))),
    packVectors(
      docs.map((d) => d.vector),
      dim,
    ),
    dim,
  );
}

/** The docs table from documents encoded where they were made (encoded-docs.ts): one layout with docsTable. */
export function encodedDocsTable(e: EncodedDocs, dim: number): Table {
  return docsColumnsTable(e.id, e.doc, e.vectors, dim);
}

function docsColumnsTable(id: Utf8Parts, doc: Utf8Parts, vectors: Float64Array, dim: number): Table {
  const schema = docsSchema(dim);
  const n = id.valueOffsets.length - 1;
  if (vectors.length !== n * dim) throw new Error(`document vectors of ${vectors.length / n} dimensions where the table has ${dim}`);
  return table(schema, n, {
    id: utf8Data(id, n),
    doc: utf8Data(doc, n),
    // Float64 → Float32 exactly as Float32Array.set rounds a number[].
    vector: flatVectorColumn(schema.fields[2].type as FixedSizeList<Float32>, n, Float32Array.from(vectors)),
  });
}

export function chunksTable(chunks: ReadonlyArray<ChunkRecord>, dim: number): Table {
  return encodedChunksTable(encodeChunks(chunks, dim), dim);
}

/**
 * The chunks table from chunks encoded column by column: what the full build's batch worker hands over, and what
 * chunksTable encodes records into, so both write one layout.
 */
export function encodedChunksTable(e: EncodedChunks, dim: number): Table {
  const schema = chunksSchema(dim);
  const n = e.count;
  if (e.vectors.length !== n * dim) throw new Error(`chunk vectors of ${e.vectors.length / n} dimensions where the table has ${dim}`);
  return table(schema, n, {
    id: utf8Data(e.id, n),
    judgment_id: utf8Data(e.judgmentId, n),
    position: makeData({ type: new Int32(), length: n, nullCount: 0, data: e.position }),
    token_start: makeData({ type: new Int32(), length: n, nullCount: 0, data: e.tokenStart }),
    text: utf8Data(e.text, n),
    jurisdiction: utf8Data(e.jurisdiction, n),
    decision_date_ts: int64Column(Array.from(e.decisionDateTs, (t) => (Number.isNaN(t) ? null : t))),
    // Float64 → Float32 exactly as vectorColumn's Float32Array.set rounds a number[].
    vector: flatVectorColumn(schema.fields[7].type as FixedSizeList<Float32>, n, Float32Array.from(e.vectors)),
  });
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

  /**
   * Drop every generation except `except` and the one state.json names now (called under the folder's write lock,
   * write-lock.ts, which keeps other writers out; reading state.json again still guarantees the named generation is
   * never dropped, whoever named it).
   */
  async dropGenerations(except: number): Promise<void> {
    const named = (await this.readState())?.gen;
    const keep = (gen: number) => gen === except || gen === named;
    for (const name of await this.db.tableNames()) {
      const m = /^(docs|chunks)_(\d+)$/.exec(name);
      if (m && !keep(Number(m[2]))) await this.db.dropTable(name);
    }
    for (const f of await fs.readdir(this.dir)) {
      const m = /^(?:suggest-(\d+)\.json|keyword-(\d+)(\.tmp-.*)?|delta-(\d+)\.jsonl)$/.exec(f);
      if (!m) continue;
      const gen = Number(m[1] ?? m[2] ?? m[4]);
      // Temporary snapshot directories of the kept generation may belong to a writer still running.
      if (!keep(gen)) await fs.rm(path.join(this.dir, f), { recursive: true, force: true });
    }
  }

  async dropGeneration(gen: number): Promise<void> {
    const names = await this.db.tableNames();
    for (const n of [`docs_${gen}`, `chunks_${gen}`]) if (names.includes(n)) await this.db.dropTable(n);
    await fs.rm(path.join(this.dir, `suggest-${gen}.json`), { force: true });
    await fs.rm(this.snapshotDir(gen), { recursive: true, force: true });
    await fs.rm(this.deltaLogPath(gen), { force: true });
  }

  /**
   * Move a generation that cannot be opened (crash, disk fault) out of the way, into `corrupt-<gen>-<time>/` for a
   * post-mortem, and forget it as the live generation (state.json removed), so a full sync can rebuild from
   * Postgres (L10 / reliability row 29). Only the newest set-aside folder is kept, so repeated faults
   * cannot fill the disk. Returns the folder.
   */
  async setAside(gen: number): Promise<string> {
    const aside = path.join(this.dir, `corrupt-${gen}-${Date.now()}`);
    await fs.mkdir(aside, { recursive: true });
    const lance = path.join(this.dir, "lance");
    const parts: Array<[string, string]> = [
      [path.join(lance, `docs_${gen}.lance`), path.join(aside, `docs_${gen}.lance`)],
      [path.join(lance, `chunks_${gen}.lance`), path.join(aside, `chunks_${gen}.lance`)],
      [this.snapshotDir(gen), path.join(aside, `keyword-${gen}`)],
      [this.deltaLogPath(gen), path.join(aside, `delta-${gen}.jsonl`)],
      [path.join(this.dir, `suggest-${gen}.json`), path.join(aside, `suggest-${gen}.json`)],
      [path.join(this.dir, "state.json"), path.join(aside, "state.json")],
    ];
    for (const [from, to] of parts) {
      await fs.rename(from, to).catch((e: NodeJS.ErrnoException) => {
        if (e.code !== "ENOENT") throw e;
      });
    }
    for (const f of await fs.readdir(this.dir)) {
      if (/^corrupt-\d+-\d+$/.test(f) && path.join(this.dir, f) !== aside) {
        await fs.rm(path.join(this.dir, f), { recursive: true, force: true });
      }
    }
    return aside;
  }

  close(): void {
    this.db.close();
  }
}
