/**
 * Writes mapped records: one `INSERT … SELECT FROM jsonb_populate_recordset … ON CONFLICT (source, source_id)` per
 * batch, so every row lands whole or not at all, and a record whose hash is unchanged is skipped (no write, no
 * re-index): a re-run after a crash skips what landed and inserts the rest. When a batch fails (a constraint, two
 * copies of one id in the batch), its rows are written one by one so only the bad one is rejected.
 */
import { createHash } from "node:crypto";
import type pg from "pg";
import type { JudgmentRecord } from "./types";
import type { PgRow } from "@/lib/supabase/pg-rows";

const COLUMNS = [
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
] as const;

const SQL =
  `insert into public.judgments as j (${COLUMNS.join(", ")}) ` +
  `select ${COLUMNS.join(", ")} from jsonb_populate_recordset(null::public.judgments, $1::jsonb) ` +
  `on conflict (source, source_id) do update set ${COLUMNS.filter((c) => c !== "source" && c !== "source_id")
    .map((c) => `${c} = excluded.${c}`)
    .join(", ")} ` +
  "where j.source_hash is distinct from excluded.source_hash " +
  "returning j.source_id, (j.xmax = 0) as inserted";

export function recordHash(r: JudgmentRecord): string {
  return createHash("sha256").update(JSON.stringify(r)).digest("hex");
}

export interface BatchOutcome {
  inserted: string[];
  updated: string[];
  skipped: string[];
  failed: { index: number; reason: string }[];
}

function dbReason(e: unknown): string {
  const err = e as { message?: string; constraint?: string };
  return `database rejected the record: ${err.constraint ? `${err.constraint}: ` : ""}${err.message ?? String(e)}`;
}

async function write(client: pg.Client, records: (JudgmentRecord & { source_hash: string })[]): Promise<{ source_id: string; inserted: boolean }[]> {
  if (!records.length) return [];
  const { rows: out } = await client.query<{ source_id: string; inserted: boolean }>(SQL, [JSON.stringify(records)]);
  return out;
}

const sameKey = (r: { source_id: string; source_hash: string }) => `${r.source_id}\u0000${r.source_hash}`;

/** Records whose stored hash already matches: skipped without sending their text (a resumed run re-reads fast). */
async function unchanged(client: pg.Client, records: (JudgmentRecord & { source_hash: string })[]): Promise<Set<string>> {
  const { rows } = await client.query<PgRow<"judgments", "source_id" | "source_hash">>(
    "select source_id, source_hash from public.judgments where source = $1 and source_id = any($2::text[])",
    [records[0].source, records.map((r) => r.source_id)],
  );
  const stored = new Map(rows.map((r) => [r.source_id, r.source_hash]));
  return new Set(records.filter((r) => stored.get(r.source_id) === r.source_hash).map(sameKey));
}

export async function upsertBatch(client: pg.Client, records: JudgmentRecord[]): Promise<BatchOutcome> {
  const outcome: BatchOutcome = { inserted: [], updated: [], skipped: [], failed: [] };
  if (!records.length) return outcome;
  const tally = (written: { source_id: string; inserted: boolean }[], batch: JudgmentRecord[]) => {
    const seen = new Set<string>();
    for (const w of written) {
      seen.add(w.source_id);
      (w.inserted ? outcome.inserted : outcome.updated).push(w.source_id);
    }
    for (const r of batch) if (!seen.has(r.source_id)) outcome.skipped.push(r.source_id);
  };
  const hashed = records.map((r) => ({ ...r, source_hash: recordHash(r) }));
  const same = await unchanged(client, hashed);
  const todo = hashed.filter((r) => !same.has(sameKey(r)));
  const skipped = hashed.filter((r) => same.has(sameKey(r))).map((r) => r.source_id);
  outcome.skipped.push(...skipped);
  try {
    // One statement: the whole batch lands or none of it does.
    tally(await write(client, todo), todo);
    return outcome;
  } catch {
    // Fall through to one record at a time.
  }
  // One statement per record: each is atomic on its own.
  outcome.inserted = [];
  outcome.updated = [];
  outcome.skipped = [...skipped];
  for (const [index, r] of hashed.entries()) {
    if (same.has(sameKey(r))) continue;
    try {
      tally(await write(client, [r]), [r]);
    } catch (e) {
      outcome.failed.push({ index, reason: dbReason(e) });
    }
  }
  return outcome;
}
