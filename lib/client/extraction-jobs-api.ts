/** Browser calls of the extraction job routes. */
import { apiFetch, qs } from "./api";
import type { ExtractionJob, ExtractionJobPage, ResultField, ResultRow } from "@/lib/backend/extraction-jobs/types";

export type { ExtractionJob, ExtractionJobPage, ResultField, ResultRow };

export interface ResultsPage {
  job_id: string;
  mode: ExtractionJob["mode"];
  fields: ResultField[];
  results: ResultRow[];
  total: number;
  page: number;
  page_size: number;
  has_more: boolean;
}

export const listJobs = (q: { status?: string; page?: number } = {}) => apiFetch<ExtractionJobPage>(`/api/extractions${qs(q)}`);
export const getJob = (id: string) => apiFetch<ExtractionJob>(`/api/extractions/${encodeURIComponent(id)}`);
export const getResults = (id: string, q: { page?: number; page_size?: number; status?: string } = {}) =>
  apiFetch<ResultsPage>(`/api/extractions/${encodeURIComponent(id)}/results${qs(q)}`);
export const cancelJob = (id: string) => apiFetch<ExtractionJob>(`/api/extractions/${encodeURIComponent(id)}/cancel`, { method: "POST", json: {} });
export const retryJob = (id: string) => apiFetch<ExtractionJob>(`/api/extractions/${encodeURIComponent(id)}/retry`, { method: "POST", json: {} });
export const deleteJob = (id: string) => apiFetch<null>(`/api/extractions/${encodeURIComponent(id)}`, { method: "DELETE" });
export const createJob = (body: { schema_id: string; collection_id?: string; document_ids?: string[]; idempotency_key?: string; allow_unextractable?: boolean }) =>
  apiFetch<ExtractionJob>("/api/extractions", { method: "POST", json: body });
export const exportHref = (id: string, format: "csv" | "xlsx" | "jsonl") => `/api/extractions/${encodeURIComponent(id)}/export?format=${format}`;
export const isActive = (j: Pick<ExtractionJob, "status">) => j.status === "queued" || j.status === "running";
