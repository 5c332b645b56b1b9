/**
 * One import run: expand the inputs, stream every file through its source's reader, write valid records in batches
 * (lib/import/upsert.ts) and gather the summary (read, valid, inserted, updated, skipped, rejected with file/record
 * and reason, warnings). A bad record or a malformed file is reported and the run goes on; nothing is written
 * half: a record is one row of one statement.
 */
import { statSync } from "node:fs";
import pg from "pg";
import { config } from "@/lib/config";
import { upsert as upsertJsonlRow, type IngestRow } from "@/lib/import/ingest-row";
import { FCL_NOTICE, LICENCES } from "./common";
import { readFcl } from "./fcl";
import { expandInputs } from "./files";
import { readJsonl } from "./jsonl";
import { readJuddges } from "./juddges";
import type { ReaderContext } from "./reader";
import { readSaos } from "./saos";
import { MalformedFileError } from "./stream";
import type { ImportSource, ImportSummary, JudgmentRecord, Position, Problem, ReadItem } from "./types";
import { upsertBatch } from "./upsert";
import { loadTargetIndex, refreshCitations, type TargetIndex } from "@/lib/citations/store";

const READERS: Record<ImportSource, (file: string, ctx: ReaderContext) => AsyncGenerator<ReadItem>> = {
  saos: readSaos,
  fcl: readFcl,
  juddges: readJuddges,
  jsonl: readJsonl,
};

/** How many problems of each kind the summary lists (the counts are always complete). */
const LISTED = 1_000;

export interface ImportProgress {
  file: string;
  bytes: number;
  totalBytes: number;
  read: number;
}

export interface ImportOptions {
  source: ImportSource;
  inputs: readonly string[];
  /** Required unless dryRun. */
  databaseUrl?: string;
  dryRun?: boolean;
  limit?: number | null;
  batchSize?: number;
  /** Characters of text and HTML after which a batch is written whatever its count (default IMPORT_BATCH_MAX_CHARS). */
  batchMaxChars?: number;
  today?: Date;
  onProgress?: (p: ImportProgress) => void;
}

export async function runImport(opts: ImportOptions): Promise<ImportSummary> {
  const started = Date.now();
  const limit = opts.limit ?? null;
  const batchSize = opts.batchSize ?? 200;
  const batchMaxChars = opts.batchMaxChars ?? config().IMPORT_BATCH_MAX_CHARS;
  const summary: ImportSummary = {
    source: opts.source,
    files: 0,
    read: 0,
    valid: 0,
    inserted: 0,
    updated: 0,
    skipped: 0,
    rejected: 0,
    rejections: [],
    warnings: [],
    dry_run: !!opts.dryRun,
    limit,
    licence: LICENCES[opts.source],
    ms: 0,
  };
  if (opts.source === "fcl") summary.notice = FCL_NOTICE;
  let extraRejections = 0;
  let extraWarnings = 0;
  const reject = (p: Problem) => {
    summary.rejected++;
    if (summary.rejections.length < LISTED) summary.rejections.push(p);
    else extraRejections++;
  };
  const warn = (p: Problem) => {
    if (summary.warnings.length < LISTED) summary.warnings.push(p);
    else extraWarnings++;
  };

  const { files, missing } = await expandInputs(opts.inputs);
  for (const m of missing) reject({ file: m, reason: "no such file, directory or matching path" });
  summary.files = files.length;
  const sizes = files.map((f) => statSync(f).size);
  const totalBytes = sizes.reduce((a, b) => a + b, 0);

  let client: pg.Client | null = null;
  if (!opts.dryRun) {
    if (!opts.databaseUrl) throw new Error("a database URL is required unless --dry-run");
    client = new pg.Client({ connectionString: opts.databaseUrl });
    await client.connect();
  }
  // Our JSONL rows are written one statement each (lib/import/ingest-row.ts); what they write moves updated_at past
  // this instant, and the citation graph is refreshed for exactly those rows at the end. Every other source writes
  // the graph with each batch (lib/import/upsert.ts), resolving against the corpus' citation keys loaded once here.
  const writtenSince = client && opts.source === "jsonl" ? (await client.query<{ t: string }>("select clock_timestamp()::text as t")).rows[0].t : null;
  const index: TargetIndex | null = client && opts.source !== "jsonl" ? await loadTargetIndex(client) : null;
  const citations = { judgments: 0, references: 0, resolved: 0 };

  let batch: { record: JudgmentRecord; pos: Position }[] = [];
  let batchChars = 0;
  const write = async (current: { record: JudgmentRecord; pos: Position }[], c: pg.Client, idx: TargetIndex) => {
    const out = await upsertBatch(
      c,
      current.map((b) => b.record),
      idx,
    );
    citations.judgments += out.citations.judgments;
    citations.references += out.citations.references;
    citations.resolved += out.citations.resolved;
    summary.inserted += out.inserted.length;
    summary.updated += out.updated.length;
    summary.skipped += out.skipped.length;
    for (const f of out.failed) reject({ ...current[f.index].pos, reason: f.reason });
  };
  // One batch is written while the next is read and mapped: the database and the parser work side by side (two
  // processes, two cores) instead of taking turns. Never more than one in flight, so memory holds two batches, each at
  // most `batchSize` records and about `batchMaxChars` characters of text and HTML.
  let inflight: Promise<void> = Promise.resolve();
  let writeError: { error: unknown } | null = null;
  const drain = async () => {
    await inflight;
    if (writeError) throw writeError.error;
  };
  const flush = async () => {
    batchChars = 0;
    if (!client || !index || !batch.length) {
      batch = [];
      return;
    }
    const current = batch;
    batch = [];
    await drain();
    const [c, idx] = [client, index];
    inflight = write(current, c, idx).catch((error: unknown) => {
      writeError = { error };
    });
  };

  let doneBytes = 0;
  try {
    for (const [i, file] of files.entries()) {
      if (limit !== null && summary.read >= limit) break;
      const progress = (bytes: number) => opts.onProgress?.({ file, bytes: doneBytes + Math.min(bytes, sizes[i]), totalBytes, read: summary.read });
      const ctx: ReaderContext = { onBytes: progress, today: opts.today ?? new Date(), stop: () => limit !== null && summary.read >= limit };
      try {
        for await (const item of READERS[opts.source](file, ctx)) {
          switch (item.kind) {
            case "file-error":
              reject({ ...item.pos, reason: item.reason });
              break;
            case "feed-entry":
              (summary.feed_entries ??= []).push(item.entry);
              break;
            case "rejected":
              summary.read++;
              reject({ ...item.pos, reason: item.reason });
              break;
            case "record":
              summary.read++;
              summary.valid++;
              for (const w of item.warnings) warn({ ...item.pos, reason: w });
              batch.push({ record: item.record, pos: item.pos });
              // Bounded by bytes as well as records: a batch of long judgments (Find Case Law's) is written sooner.
              batchChars += item.record.full_text.length + (item.record.full_html?.length ?? 0);
              if (batch.length >= batchSize || batchChars >= batchMaxChars) await flush();
              break;
            case "jsonl-row":
              summary.read++;
              summary.valid++;
              if (client) await writeJsonl(client, item.row, item.pos, summary, reject);
              break;
          }
        }
      } catch (e) {
        if (e instanceof MalformedFileError) reject({ file, at: e.at, reason: e.message });
        else if ((e as NodeJS.ErrnoException).code && (e as NodeJS.ErrnoException).syscall) reject({ file, reason: `cannot read: ${(e as Error).message}` });
        else throw e;
      }
      // Records read before a malformed part of a file are whole: they stay in the batch and are written. A batch
      // spans files (one LegalDocML file is one judgment: a write per file was a transaction per record).
      doneBytes += sizes[i];
      opts.onProgress?.({ file, bytes: doneBytes, totalBytes, read: summary.read });
    }
    await flush();
    await drain();
    if (client && writtenSince && summary.inserted + summary.updated > 0) {
      const { rows } = await client.query<{ id: string }>("select id::text from public.judgments where updated_at >= $1::timestamptz", [writtenSince]);
      const r = await refreshCitations(client, rows.map((x) => x.id));
      summary.citations = { judgments: r.judgments, references: r.references, resolved: r.resolved };
    } else if (index && summary.inserted + summary.updated > 0) summary.citations = citations;
  } finally {
    await inflight;
    await client?.end();
  }
  if (extraRejections || extraWarnings) summary.truncated = { rejections: extraRejections, warnings: extraWarnings };
  summary.ms = Date.now() - started;
  return summary;
}

async function writeJsonl(client: pg.Client, row: IngestRow, pos: Position, summary: ImportSummary, reject: (p: Problem) => void) {
  try {
    summary[await upsertJsonlRow(client, row)]++;
  } catch (e) {
    const err = e as { message: string; constraint?: string };
    reject({ ...pos, reason: `database rejected the row: ${err.constraint ? `${err.constraint}: ` : ""}${err.message}` });
  }
}

/** 0 when everything landed, 3 when something was rejected (the run itself finished). 1 is for a run that could not start. */
export function exitCodeOf(summary: ImportSummary): 0 | 3 {
  return summary.rejected > 0 ? 3 : 0;
}
