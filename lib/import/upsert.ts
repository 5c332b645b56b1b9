/**
 * Writes mapped records, one transaction per batch: the judgments in one
 * `INSERT … SELECT FROM jsonb_populate_recordset … ON CONFLICT (source, source_id)` statement (the long texts as
 * parameters of their own beside the JSON) with their citation graph rows beside them, so a batch lands whole
 * (judgment, references, `cites`, the counts of what it cites) or not at all, and a run that stops between batches
 * leaves a consistent graph behind. A record whose hash is unchanged is
 * skipped (no write, no re-index): a re-run after a crash skips what landed and inserts the rest. When a batch fails
 * (a constraint, two copies of one id in the batch), its records are written one transaction each, the same way, so
 * only the bad one is rejected.
 *
 * The references are extracted here, before the write, and `cites` goes into the same statement as the row: writing
 * the row and then updating its `cites` rewrote every imported row twice (a second version of each tuple and of each
 * of its ~70 index entries), which was a third of the database's time per record.
 */
import { createHash, randomUUID } from "node:crypto";
import type pg from "pg";
import {
  addTargets,
  citesOf,
  judgmentReferences,
  rebuildCitations,
  unresolvedCiters,
  writeReferenceRows,
  type ResolvedReference,
  type TargetIndex,
} from "@/lib/citations/store";
import { documentCitationKeys } from "@/lib/search/citations";
import type { PgRow } from "@/lib/supabase/pg-rows";
import type { JudgmentRecord } from "./types";

const COLUMNS = [
  "id",
  "source",
  "source_id",
  "source_url",
  "licence",
  "jurisdiction",
  "case_number",
  "title",
  "summary",
  "court_name",
  "court_level",
  "case_type",
  "decision_type",
  "decision_date",
  "publication_date",
  "judges",
  "keywords",
  "cited_legislation",
  "full_text",
  "full_html",
  "source_references",
  "metadata",
  "source_hash",
  "cites",
] as const;

/** Never changed by an update: the row keeps its id and its key. */
const KEPT = new Set<string>(["id", "source", "source_id"]);

/**
 * The two long texts go as text parameters of their own, not inside the batch's JSON: a 40 kB judgment read through
 * jsonb was lexed, unescaped, built into a jsonb value and copied out again (most of the statement's parse time, and
 * the importer escaped it first); a text parameter is copied as it is sent.
 */
const TEXT_PARAMS = ["full_text", "full_html"] as const;
const isTextParam = (c: string): boolean => (TEXT_PARAMS as readonly string[]).includes(c);

const UPSERT_TAIL =
  `on conflict (source, source_id) do update set ${COLUMNS.filter((c) => !KEPT.has(c))
    .map((c) => `${c} = excluded.${c}`)
    .join(", ")} ` +
  "where j.source_hash is distinct from excluded.source_hash " +
  "returning j.id::text, j.source_id, (j.xmax = 0) as inserted";

/** The upsert of n records: $1 the JSON of their other columns, then each record's full_text and full_html. */
function upsertSql(n: number): string {
  const arrays = TEXT_PARAMS.map(
    (_, k) => `array[${Array.from({ length: n }, (_, i) => `$${2 + i * TEXT_PARAMS.length + k}::text`).join(", ")}]`,
  );
  return (
    `insert into public.judgments as j (${COLUMNS.join(", ")}) ` +
    `select ${COLUMNS.map((c) => (isTextParam(c) ? `t.${c}` : `r.${c}`)).join(", ")} ` +
    "from jsonb_populate_recordset(null::public.judgments, $1::jsonb) with ordinality as r " +
    `join unnest(${arrays.join(", ")}) with ordinality as t(${TEXT_PARAMS.join(", ")}, n) on t.n = r.ordinality ` +
    UPSERT_TAIL
  );
}

/** The statement's parameters for `rows` (see upsertSql). */
function upsertParams(rows: readonly (Omit<Hashed, "record"> & { cites: string[] })[]): unknown[] {
  const texts: (Buffer | null)[] = [];
  const json = rows.map((r) => {
    const { full_text: _text, full_html: _html, utf8, ...rest } = r;
    // The bytes the hash read (recordHash): sent as they are (a binary-format text parameter is the text's bytes)
    // instead of being encoded to UTF-8 a second time by the driver.
    texts.push(utf8.text, utf8.html);
    return rest;
  });
  return [JSON.stringify(json), ...texts];
}

/** A record's two long texts as UTF-8, encoded once for its hash and its write. */
interface Utf8Texts {
  text: Buffer;
  html: Buffer | null;
}

/**
 * The marker of the current hash form (stored in front of it): sha-256 over the record's JSON without its two long
 * texts, then each text's UTF-8 bytes behind its length. The first form, sha-256 of the whole record's JSON
 * (legacyRecordHash), escaped and re-encoded 20-60 kB of text per record (~0.2 ms, more than the rest of the hash
 * and the write's own serialisation together); rows stored with it are still recognised as unchanged.
 */
const HASH_V2 = "v2:";

function lengthPrefix(n: number): Buffer {
  const b = Buffer.allocUnsafe(4);
  b.writeUInt32BE(n);
  return b;
}

export function recordHash(r: JudgmentRecord, utf8: Utf8Texts = utf8Texts(r)): string {
  const { full_text: _text, full_html: _html, ...rest } = r;
  const h = createHash("sha256").update(JSON.stringify(rest));
  h.update(lengthPrefix(utf8.text.length)).update(utf8.text);
  // -1 (0xffffffff) for a record without HTML, so no HTML and empty HTML differ.
  if (utf8.html) h.update(lengthPrefix(utf8.html.length)).update(utf8.html);
  else h.update(lengthPrefix(0xffffffff));
  return HASH_V2 + h.digest("hex");
}

/** The first hash form (before HASH_V2): what rows imported before it hold. */
export function legacyRecordHash(r: JudgmentRecord): string {
  return createHash("sha256").update(JSON.stringify(r)).digest("hex");
}

/** Whether `stored` (a row's source_hash) is the hash of `r` in either form. */
function sameHash(stored: string | null, r: Hashed): boolean {
  if (stored === null) return false;
  if (stored === r.source_hash) return true;
  return !stored.startsWith(HASH_V2) && stored === legacyRecordHash(r.record);
}

function utf8Texts(r: JudgmentRecord): Utf8Texts {
  return { text: Buffer.from(r.full_text, "utf8"), html: r.full_html === null ? null : Buffer.from(r.full_html, "utf8") };
}

export interface BatchOutcome {
  inserted: string[];
  updated: string[];
  skipped: string[];
  failed: { index: number; reason: string }[];
  /** The citation graph written with the batch. */
  citations: { judgments: number; references: number; resolved: number };
}

function dbReason(e: unknown): string {
  const err = e as { message?: string; constraint?: string };
  return `database rejected the record: ${err.constraint ? `${err.constraint}: ` : ""}${err.message ?? String(e)}`;
}

/** A record with its hash, its texts' bytes and (for the first hash form) the record as mapped. */
type Hashed = JudgmentRecord & { source_hash: string; utf8: Utf8Texts; record: JudgmentRecord };

/** What the database holds for the batch's keys: the row's id, hash and the neutral citation an extraction stored. */
async function stored(client: pg.Client, records: readonly Hashed[]) {
  const { rows } = await client.query<PgRow<"judgments", "id" | "source_id" | "source_hash" | "base_neutral_citation_number">>(
    "select id::text, source_id, source_hash, base_neutral_citation_number from public.judgments where source = $1 and source_id = any($2::text[])",
    [records[0].source, records.map((r) => r.source_id)],
  );
  return new Map(rows.map((r) => [r.source_id, r]));
}

/** One batch inside an open transaction; throws when any statement fails (the caller rolls back). */
async function writeInTransaction(client: pg.Client, records: readonly Hashed[], index: TargetIndex, outcome: BatchOutcome, undo: (() => void)[]): Promise<void> {
  const have = await stored(client, records);
  const todo: (Hashed & { id: string; base_neutral_citation_number: string | null })[] = [];
  for (const r of records) {
    const row = have.get(r.source_id);
    if (row && sameHash(row.source_hash, r)) outcome.skipped.push(r.source_id);
    // A new record's id is chosen here so that its references (and those naming it in the same batch) resolve before the write.
    else todo.push({ ...r, id: row?.id ?? randomUUID(), base_neutral_citation_number: row?.base_neutral_citation_number ?? null });
  }
  if (!todo.length) return;

  undo.push(addTargets(
    index,
    todo.map((r) => ({ id: r.id, court: r.court_name, date: r.decision_date, case_number: r.case_number, base_neutral_citation_number: r.base_neutral_citation_number })),
    ),
  );
  const refs = new Map<string, ResolvedReference[]>();
  const touched = new Set<string>();
  for (const r of todo) {
    const list = judgmentReferences(r, index);
    refs.set(r.id, list);
    for (const x of list) if (x.targetId) touched.add(x.targetId);
  }
  const ids = todo.map((r) => r.id);
  const updatedIds = todo.filter((r) => have.has(r.source_id)).map((r) => r.id);
  if (updatedIds.length) {
    // What the rewritten judgments cited before: those counts change too.
    const { rows } = await client.query<{ t: string }>(
      "select distinct target_judgment_id::text as t from public.judgment_references where source_judgment_id = any ($1::uuid[]) and target_judgment_id is not null",
      [updatedIds],
    );
    for (const r of rows) touched.add(r.t);
  }

  const rows = todo.map((r) => {
    const { base_neutral_citation_number: _stored, record: _record, ...row } = r;
    return { ...row, cites: citesOf(refs.get(r.id) ?? []) };
  });
  const { rows: written } = await client.query<{ id: string; source_id: string; inserted: boolean }>(upsertSql(rows.length), upsertParams(rows));
  const wrote = new Set(written.map((w) => w.id));
  for (const w of written) (w.inserted ? outcome.inserted : outcome.updated).push(w.source_id);
  // A row another writer changed between the read and the write keeps its own id (or its hash now matches ours):
  // the references computed here would be wrong, so the batch is retried (record by record, each re-reading).
  if (wrote.size !== ids.length || ids.some((id) => !wrote.has(id))) throw new Error("judgments changed by another writer during the batch");

  // Every one of `ids` was written by the statement above, in this transaction.
  const references = await writeReferenceRows(client, ids, refs);
  // Judgments already stored whose unresolved references name the new ones: resolved now, in the same transaction.
  const own = new Set(ids);
  const citers = (await unresolvedCiters(client, todo.flatMap((r) => documentCitationKeys({ case_number: r.case_number, base_neutral_citation_number: r.base_neutral_citation_number })))).filter((id) => !own.has(id));
  const rebuilt = citers.length ? await rebuildCitations(client, { ids: citers, index }) : null;
  if (touched.size) await client.query("select public.judgment_cited_by_refresh($1::uuid[])", [[...touched]]);

  outcome.citations.judgments += todo.length + (rebuilt?.judgments ?? 0);
  outcome.citations.references += references + (rebuilt?.references ?? 0);
  outcome.citations.resolved += [...refs.values()].reduce((n, l) => n + l.filter((x) => x.targetId).length, 0) + (rebuilt?.resolved ?? 0);
}

function emptyOutcome(): BatchOutcome {
  return { inserted: [], updated: [], skipped: [], failed: [], citations: { judgments: 0, references: 0, resolved: 0 } };
}

/** One transaction; answers the outcome, or throws after rolling back (the index is as it was). */
async function transaction(client: pg.Client, records: readonly Hashed[], index: TargetIndex): Promise<BatchOutcome> {
  const outcome = emptyOutcome();
  const undo: (() => void)[] = [];
  // Asynchronous commit (docs/ingestion.md, "Figures"): a batch's commit does not wait for its WAL flush.
  // A server crash can lose the last commits (whole batches, never part of one); the run's closing write to
  // import_runs commits synchronously and so flushes them, and a re-run writes whatever is missing.
  await client.query("begin; set local synchronous_commit = off");
  try {
    await writeInTransaction(client, records, index, outcome, undo);
    await client.query("commit");
    return outcome;
  } catch (e) {
    for (const u of undo) u();
    await client.query("rollback").catch(() => undefined);
    throw e;
  }
}

/**
 * Write a batch of records with their citation graph. `index` is the corpus' citation keys (loadTargetIndex), kept
 * current by this function as batches commit.
 */
export async function upsertBatch(client: pg.Client, records: JudgmentRecord[], index: TargetIndex): Promise<BatchOutcome> {
  if (!records.length) return emptyOutcome();
  const hashed = records.map((r) => {
    const utf8 = utf8Texts(r);
    return { ...r, source_hash: recordHash(r, utf8), utf8, record: r };
  });
  try {
    return await transaction(client, hashed, index);
  } catch {
    // Fall through to one record at a time.
  }
  const outcome = emptyOutcome();
  for (const [i, r] of hashed.entries()) {
    try {
      const one = await transaction(client, [r], index);
      outcome.inserted.push(...one.inserted);
      outcome.updated.push(...one.updated);
      outcome.skipped.push(...one.skipped);
      outcome.citations.judgments += one.citations.judgments;
      outcome.citations.references += one.citations.references;
      outcome.citations.resolved += one.citations.resolved;
    } catch (e) {
      outcome.failed.push({ index: i, reason: dbReason(e) });
    }
  }
  return outcome;
}
