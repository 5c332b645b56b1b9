/**
 * Seeding the demo corpus into Postgres. Rows are generated deterministically (./generate.ts) and written in batches
 * of a few megabytes through one `json_populate_recordset` INSERT each, inside a single transaction: an interrupted
 * seed leaves the table empty, so the next start simply seeds again. Generation of the next batch overlaps the
 * database's work on the previous one (Postgres runs in its own process).
 */
import pg from "pg";
import { DEFAULT_CORPUS_SEED, DEFAULT_CORPUS_SIZE, GENERATOR_VERSION, generateJudgment, type JudgmentRow } from "./generate";
import { rebuildCitations, type RebuildResult } from "../../lib/citations/store";

export interface SeedOptions {
  size?: number;
  seed?: number;
  onProgress?: (done: number, total: number) => void;
}

/** Rows per INSERT are capped by count and by JSON size, whichever comes first. */
const MAX_BATCH_ROWS = 400;
const MAX_BATCH_BYTES = 6 * 1024 * 1024;

/** Columns written by the seed (every key of a generated row; base_search_tsv and judges_flat are derived). */
function columnsOf(row: JudgmentRow): string[] {
  return Object.keys(row).filter((k) => /^[a-z_][a-z0-9_]*$/.test(k));
}

function insertSql(columns: string[]): string {
  const list = columns.join(", ");
  return `insert into public.judgments (${list}) select ${list} from json_populate_recordset(null::public.judgments, $1::json)`;
}

/**
 * Secondary indexes of judgments (not the primary key or unique constraints), as CREATE INDEX statements. Bulk loads
 * into an empty table drop them and build them once at the end: building a GIN index over 12k documents is far
 * cheaper than maintaining it row by row (the full-text GIN indexes dominate the seed time otherwise).
 */
async function secondaryIndexes(client: pg.Client): Promise<{ name: string; def: string }[]> {
  const { rows } = await client.query<{ name: string; def: string }>(
    `select i.relname as name, pg_get_indexdef(x.indexrelid) as def
       from pg_index x join pg_class i on i.oid = x.indexrelid
      where x.indrelid = 'public.judgments'::regclass and not x.indisprimary and not x.indisunique
        and not exists (select 1 from pg_constraint c where c.conindid = x.indexrelid)`,
  );
  return rows;
}

/** Let pending socket writes and query results make progress between synchronous generation steps. */
const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** True when public.judgments has no rows. */
export async function corpusIsEmpty(databaseUrl: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ empty: boolean }>("select not exists (select 1 from public.judgments) as empty");
    return rows[0].empty;
  } finally {
    await client.end();
  }
}

/**
 * True when the database holds exactly the demo corpus (seed, size) of this generator version: a corpus written by
 * an older generator has other texts, and a stack that reuses its data folder must seed again.
 */
export async function corpusIsCurrent(databaseUrl: string, want: { seed: number; size: number }): Promise<boolean> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ ok: boolean }>(
      `select exists (select 1 from public.corpus_version where seed = $1 and size = $2 and generator_version = $3) as ok`,
      [want.seed, want.size, GENERATOR_VERSION],
    );
    return rows[0].ok;
  } finally {
    await client.end();
  }
}

/** Delete every judgment (and what hangs off them) and the corpus record, for a reseed. */
export async function clearCorpus(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("truncate public.judgments cascade");
    await client.query("delete from public.corpus_version");
  } finally {
    await client.end();
  }
}

/**
 * Insert the first `size` judgments of the corpus for `seed` (defaults: 12,307 and DEFAULT_CORPUS_SEED).
 * The caller decides whether the table may already hold rows (the CLI refuses unless --reset).
 */
export async function seedCorpus(
  databaseUrl: string,
  opts: SeedOptions = {},
): Promise<{ inserted: number; ms: number; citations?: RebuildResult }> {
  const size = opts.size ?? DEFAULT_CORPUS_SIZE;
  const seed = opts.seed ?? DEFAULT_CORPUS_SEED;
  if (!Number.isInteger(size) || size < 0) throw new RangeError(`size must be a non-negative integer, got ${size}`);
  if (!Number.isInteger(seed)) throw new RangeError(`seed must be an integer, got ${seed}`);
  const started = Date.now();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  let inserted = 0;
  let citations: RebuildResult | undefined;
  try {
    await client.query("begin");
    // Only an empty table gets the drop-and-rebuild treatment; the whole thing is one transaction, so a failed seed
    // leaves both the rows and the indexes as they were.
    const { rows: emptyRows } = await client.query<{ empty: boolean }>("select not exists (select 1 from public.judgments) as empty");
    const rebuild = emptyRows[0].empty && size >= 1000 ? await secondaryIndexes(client) : [];
    for (const ix of rebuild) await client.query(`drop index public.${pg.escapeIdentifier(ix.name)}`);
    let sql: string | null = null;
    // The running INSERT; it resolves to its error (if any) so a failure is never an unhandled rejection while the
    // next batch is being generated.
    let inFlight: Promise<Error | null> | null = null;
    const settle = async () => {
      if (!inFlight) return;
      const err = await inFlight;
      inFlight = null;
      if (err) throw err;
      inserted += inFlightRows;
      opts.onProgress?.(inserted, size);
    };
    let inFlightRows = 0;
    let batch: string[] = [];
    let bytes = 0;
    const flush = async () => {
      if (batch.length === 0) return;
      const json = `[${batch.join(",")}]`;
      const rows = batch.length;
      batch = [];
      bytes = 0;
      await settle();
      inFlight = client.query(sql!, [json]).then(
        () => null,
        (e: Error) => e,
      );
      inFlightRows = rows;
    };
    opts.onProgress?.(0, size);
    for (let i = 0; i < size; i++) {
      const row = generateJudgment(seed, i);
      sql ??= insertSql(columnsOf(row));
      const json = JSON.stringify(row);
      batch.push(json);
      bytes += json.length;
      if (batch.length >= MAX_BATCH_ROWS || bytes >= MAX_BATCH_BYTES) await flush();
      if (i % 8 === 7) await yieldToLoop();
    }
    await flush();
    await settle();
    // The corpus's citation graph (references, cites, cited_by_count: the planted network) before anything indexes
    // it, and before the judgments' own secondary indexes are built: writing cites and cited_by_count then touches
    // no full-text index. A new corpus has no history: the graph's first writes are not changes a reader saw, so the
    // versions trigger is off for them (the table held no judgment before this seed).
    if (emptyRows[0].empty) {
      await client.query("alter table public.judgments disable trigger judgments_record_version");
      citations = await rebuildCitations(client);
      await client.query("alter table public.judgments enable trigger judgments_record_version");
    }
    for (const ix of rebuild) await client.query(ix.def);
    // Which corpus this database holds (health shows it): written with the rows, so both or neither land. Only a
    // seed into an empty table is "the corpus"; a slice added next to it (tests do that) leaves the record alone.
    if (emptyRows[0].empty) await client.query(
      `insert into public.corpus_version (id, seed, size, generator_version, seeded_at) values (true, $1, $2, $3, now())
       on conflict (id) do update set seed = excluded.seed, size = excluded.size, generator_version = excluded.generator_version, seeded_at = excluded.seeded_at`,
      [seed, size, GENERATOR_VERSION],
    );
    await client.query("commit");
    // Fresh statistics so the first filter queries get good plans (autovacuum follows for the graph's dead rows).
    await client.query(citations ? "analyze public.judgments, public.judgment_references" : "analyze public.judgments");
  } catch (e) {
    await client.query("rollback").catch(() => undefined);
    throw e;
  } finally {
    await client.end();
  }
  return citations ? { inserted, ms: Date.now() - started, citations } : { inserted, ms: Date.now() - started };
}
