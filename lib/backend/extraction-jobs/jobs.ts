/**
 * Extraction jobs for the API over the RPCs of
 * supabase/migrations/20261126120000_extraction_jobs.sql, always with the caller's client: reads are RLS-bound
 * (another user's job is a plain 404, D-30); changes go through SECURITY DEFINER functions that check the owner.
 * The message to the worker goes through pg-boss (./queue.ts) after the job's rows exist.
 */
import { z } from "zod";
import type { DbClient } from "@/lib/supabase/db-client";
import { ApiError, fromDatabaseError } from "@/lib/errors";
import { config } from "@/lib/config";
import { isUuid } from "@/lib/schema/uuid";
import { jsonArg } from "@/lib/supabase/json";
import { languageModel } from "@/lib/llm/provider";
import { JOB_STATUSES, type CreateExtractionRequest } from "@/lib/schema/requests/extraction-jobs";
import { schemaFieldSchema, type SchemaField } from "@/lib/schema/requests/schemas";
import { fieldsNeedingModel, rulesFillability } from "@/lib/extraction/fillability";
import { getSchema } from "@/lib/backend/schemas/schemas";
import { BASE_JOB_SCHEMA, baseSchemaFields } from "./base";
import { enqueueExtraction } from "./queue";
import type { ExtractionJob, ExtractionJobPage, ResultField, ResultRow } from "./types";

export type { ExtractionJob, ExtractionJobPage, ResultField, ResultRow };

export const ExtractionJobSchema = z.object({
  job_id: z.string(),
  status: z.enum(JOB_STATUSES),
  mode: z.enum(["rules", "model"]),
  schema: z.object({ id: z.string().nullable(), key: z.string(), name: z.string(), version: z.number().nullable() }),
  progress: z.object({ total: z.number(), done: z.number(), failed: z.number(), skipped: z.number() }),
  cancel_requested: z.boolean(),
  writes_judgments: z.boolean(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  error: z.string().nullable(),
  reason: z.string().nullable().default(null),
});


const Outcome = z.object({ outcome: z.string(), job: ExtractionJobSchema.optional(), missing: z.number().optional(), count: z.number().optional() });

function jobId(id: string): string {
  if (!isUuid(id)) throw new ApiError("INVALID_JOB_ID");
  return id;
}
const notFound = () => new ApiError("EXTRACTION_JOB_NOT_FOUND");
const runningLimit = () =>
  new ApiError("EXTRACTION_RUNNING_LIMIT", undefined, { limit: config().EXTRACTION_MAX_RUNNING_JOBS_PER_USER });

/** POST /api/extractions → 202 {job_id, status, …}; the same idempotency key within 24 h answers the first job. */
export async function createExtractionJob(db: DbClient, body: CreateExtractionRequest): Promise<{ job: ExtractionJob; created: boolean }> {
  const c = config();
  const base = body.schema_id === "base";
  const mode = languageModel() ? "model" : "rules";
  if (!base && mode === "rules" && !body.allow_unextractable) await refuseUnextractable(db, body.schema_id);
  const { data, error } = await db.rpc("create_extraction_job", {
    p_schema_id: base ? null : body.schema_id,
    p_base: base ? jsonArg({ name: BASE_JOB_SCHEMA.name, fields: baseSchemaFields() }) : null,
    p_document_ids: body.document_ids ?? null,
    p_collection_id: body.collection_id ?? null,
    p_idempotency_key: body.idempotency_key ?? null,
    p_mode: mode,
    p_max_running: c.EXTRACTION_MAX_RUNNING_JOBS_PER_USER,
    p_max_documents: c.EXTRACTION_MAX_DOCUMENTS,
  });
  if (error) throw fromDatabaseError(error);
  const r = Outcome.parse(data);
  switch (r.outcome) {
    case "created":
      await enqueueExtraction(r.job!.job_id);
      return { job: r.job!, created: true };
    case "existing":
      return { job: r.job!, created: false };
    case "limit":
      throw runningLimit();
    case "schema_not_found":
      throw new ApiError("SCHEMA_NOT_FOUND");
    case "collection_not_found":
      throw new ApiError("COLLECTION_NOT_FOUND");
    case "documents_not_found":
      throw new ApiError("EXTRACTION_DOCUMENTS_NOT_FOUND", `${r.missing ?? "Some"} of the documents do not exist.`, { missing: r.missing });
    case "empty":
      throw new ApiError("EXTRACTION_NO_DOCUMENTS");
    default:
      throw new ApiError("EXTRACTION_TOO_MANY_DOCUMENTS", `The job names ${r.count} documents; at most ${c.EXTRACTION_MAX_DOCUMENTS} are allowed.`);
  }
}

/**
 * Without a model, a schema whose fields rules cannot fill is refused (422, naming the fields) unless the request
 * confirms the run: its values would otherwise read as blanks of a "completed" job.
 */
async function refuseUnextractable(db: DbClient, schemaId: string): Promise<void> {
  const schema = await getSchema(db, schemaId);
  const needs = fieldsNeedingModel(schema.fields, false, "rules");
  if (!needs.length) return;
  const names = needs.map((f) => `"${f.label}"`).join(", ");
  throw new ApiError(
    "EXTRACTION_FIELDS_NEED_MODEL",
    `No language model is configured, and the rules extractor cannot fill ${names}. Give ${needs.length === 1 ? "it" : "them"} a rule in the schema editor (a regular expression, keywords, or a date or number after a cue), or confirm to run anyway: ${needs.length === 1 ? "that column" : "those columns"} will show "needs a model".`,
    { fields: needs.map((f) => ({ name: f.name, label: f.label })) },
  );
}

export async function getExtractionJob(db: DbClient, id: string): Promise<ExtractionJob> {
  const { data, error } = await db.rpc("get_extraction_job", { p_job_id: jobId(id) });
  if (error) throw fromDatabaseError(error);
  if (!data) throw notFound();
  return ExtractionJobSchema.parse(data);
}


export async function listExtractionJobs(db: DbClient, q: { status?: string; page: number; page_size: number }): Promise<ExtractionJobPage> {
  const { data, error } = await db.rpc("list_extraction_jobs", { p_status: q.status, p_limit: q.page_size, p_offset: (q.page - 1) * q.page_size });
  if (error) throw fromDatabaseError(error);
  const r = z.object({ jobs: z.array(ExtractionJobSchema), total: z.number() }).parse(data);
  return { ...r, page: q.page, page_size: q.page_size, has_more: q.page * q.page_size < r.total };
}

export async function cancelExtractionJob(db: DbClient, id: string): Promise<ExtractionJob> {
  const { data, error } = await db.rpc("cancel_extraction_job", { p_job_id: jobId(id) });
  if (error) throw fromDatabaseError(error);
  const r = Outcome.parse(data);
  if (r.outcome === "not_found") throw notFound();
  if (r.outcome === "finished") throw new ApiError("EXTRACTION_JOB_FINISHED", undefined, { status: r.job?.status });
  return r.job!;
}

/** Re-runs only the failed documents: they go back to pending, the job to queued, and a new message to the worker. */
export async function retryExtractionJob(db: DbClient, id: string): Promise<ExtractionJob> {
  const { data, error } = await db.rpc("retry_extraction_job", { p_job_id: jobId(id), p_max_running: config().EXTRACTION_MAX_RUNNING_JOBS_PER_USER });
  if (error) throw fromDatabaseError(error);
  const r = Outcome.parse(data);
  if (r.outcome === "not_found") throw notFound();
  if (r.outcome === "not_finished") throw new ApiError("EXTRACTION_JOB_NOT_FINISHED");
  if (r.outcome === "nothing_failed") throw new ApiError("EXTRACTION_NOTHING_TO_RETRY");
  if (r.outcome === "limit") throw runningLimit();
  await enqueueExtraction(r.job!.job_id);
  return r.job!;
}

export async function deleteExtractionJob(db: DbClient, id: string): Promise<void> {
  const { data, error } = await db.rpc("delete_extraction_job", { p_job_id: jobId(id) });
  if (error) throw fromDatabaseError(error);
  const r = z.object({ outcome: z.string() }).parse(data);
  if (r.outcome === "not_found") throw notFound();
  if (r.outcome === "not_finished") throw new ApiError("EXTRACTION_JOB_NOT_FINISHED");
}


const ResultRowSchema = z.object({
  document_id: z.string(),
  position: z.number(),
  case_number: z.string().nullable(),
  title: z.string().nullable(),
  status: z.enum(["pending", "completed", "failed", "skipped"]),
  values: z.record(z.string(), z.unknown()).nullable(),
  error: z.string().nullable(),
  model: z.string().nullable(),
  attempts: z.number(),
  finished_at: z.string().nullable(),
  total_count: z.number(),
});

export async function resultsPage(db: DbClient, id: string, q: { status?: string; limit: number; offset: number }) {
  const { data, error } = await db.rpc("list_extraction_results", { p_job_id: jobId(id), p_status: q.status, p_limit: q.limit, p_offset: q.offset });
  if (error) throw fromDatabaseError(error);
  const rows = z.array(ResultRowSchema).parse(data ?? []);
  return { rows: rows.map(({ total_count: _t, ...r }) => r as ResultRow), total: rows[0]?.total_count ?? 0 };
}

/** The job's field list: its snapshot, or the base schema's. */
export async function jobFields(db: DbClient, job: ExtractionJob): Promise<SchemaField[]> {
  if (job.schema.key === "base") return baseSchemaFields();
  const { data, error } = await db.rpc("get_extraction_job_fields", { p_job_id: job.job_id });
  if (error) throw fromDatabaseError(error);
  return z.array(schemaFieldSchema()).parse(data ?? []);
}

const FieldCounts = z.object({ completed: z.number(), filled: z.record(z.string(), z.number()) });

/**
 * Each field of a job with what rules mode can do for it and its counts over the completed documents: filled, empty,
 * or not extractable (a rules-mode job's field that needs a model: never looked for, so not "empty").
 */
export async function resultFields(db: DbClient, job: ExtractionJob, fields: SchemaField[]): Promise<ResultField[]> {
  const { data, error } = await db.rpc("extraction_job_field_counts", { p_job_id: job.job_id });
  if (error) throw fromDatabaseError(error);
  const counts = FieldCounts.parse(data);
  const declared = rulesFillability(fields, job.schema.key === "base");
  return fields.map((f, i) => {
    const extractable = job.mode === "model" || declared[i].rules;
    const filled = extractable ? (counts.filled[f.name] ?? 0) : 0;
    return {
      name: f.name,
      type: f.type,
      label: declared[i].label,
      extractable,
      counts: extractable ? { filled, empty: counts.completed - filled, not_extractable: 0 } : { filled: 0, empty: 0, not_extractable: counts.completed },
    };
  });
}

/** GET /api/extractions/{id}/results?page= */
export async function listExtractionResults(db: DbClient, id: string, q: { status?: string; page: number; page_size: number }) {
  const job = await getExtractionJob(db, id);
  const fields = await jobFields(db, job);
  const { rows, total } = await resultsPage(db, id, { status: q.status, limit: q.page_size, offset: (q.page - 1) * q.page_size });
  return {
    job_id: job.job_id,
    mode: job.mode,
    fields: await resultFields(db, job, fields),
    results: rows,
    total,
    page: q.page,
    page_size: q.page_size,
    has_more: q.page * q.page_size < total,
  };
}

/**
 * The admin's backfill of base-schema extraction over every pending judgment, or the newest `limit` of them (service
 * client; the route checked admin).
 */
export async function startBaseBackfill(serviceDb: DbClient, adminId: string, limit?: number): Promise<{ job: ExtractionJob; created: boolean }> {
  const { data, error } = await serviceDb.rpc("create_base_backfill_job", {
    p_user_id: adminId,
    p_mode: languageModel() ? "model" : "rules",
    ...(limit === undefined ? {} : { p_limit: limit }),
  });
  if (error) throw fromDatabaseError(error);
  const r = Outcome.parse(data);
  if (r.outcome === "empty") throw new ApiError("EXTRACTION_NO_DOCUMENTS", "No judgment is pending base-schema extraction.");
  if (r.outcome === "created") await enqueueExtraction(r.job!.job_id);
  return { job: r.job!, created: r.outcome === "created" };
}
