/** The extraction job API's answer shapes (shared by the server and the pages). */
/** `completed_empty`: every document ran, and not one value was filled (the job's `reason` says why). */
export type JobStatus = "queued" | "running" | "completed" | "completed_empty" | "completed_with_errors" | "failed" | "cancelled";

export interface ExtractionJob {
  job_id: string;
  status: JobStatus;
  mode: "rules" | "model";
  schema: { id: string | null; key: string; name: string; version: number | null };
  progress: { total: number; done: number; failed: number; skipped: number };
  cancel_requested: boolean;
  /** A base-schema job started by an admin: its results are also written into the shared judgments rows. */
  writes_judgments: boolean;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  error: string | null;
  /** Why the job finished as it did (set for completed_empty). */
  reason: string | null;
}

export interface ExtractionJobPage {
  jobs: ExtractionJob[];
  total: number;
  page: number;
  page_size: number;
  has_more: boolean;
}

export interface ResultRow {
  document_id: string;
  position: number;
  case_number: string | null;
  title: string | null;
  status: "pending" | "completed" | "failed" | "skipped";
  values: Record<string, unknown> | null;
  error: string | null;
  model: string | null;
  attempts: number;
  finished_at: string | null;
}

/**
 * One field of a job's results: whether rules mode can fill it, and over the completed documents how many hold a
 * value (`filled`), how many do not (`empty`), and how many were not extractable (every completed document, for a
 * field that needs a model in a rules-mode job).
 */
export interface ResultField {
  name: string;
  type: string;
  label: string;
  extractable: boolean;
  counts: { filled: number; empty: number; not_extractable: number };
}
