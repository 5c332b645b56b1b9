/**
 * Client calls of the admin panel and the dashboard (/api/admin/*, /api/dashboard/*). The bodies are the types the
 * backend modules build them with (imported as types only).
 */
import type {
  AdminActivity,
  AdminStats,
  AdminUserPage,
  AdminUserState,
  DashboardStats,
  DocumentsStats,
  ImportRun,
  ImportRunDetail,
  ImportRunPage,
  SystemHealth,
} from "@/lib/backend/responses";
import type { AdminUserPatch, ImportUploadSource } from "@/lib/schema/requests/admin";
import { apiFetch, errorFromBody, qs } from "./api";

export type { AdminActivity, AdminStats, AdminUserPage, AdminUserState, DashboardStats, DocumentsStats, SystemHealth };

export const getAdminStats = () => apiFetch<AdminStats>("/api/admin/stats");
export const getAdminActivity = (p: { limit?: number; before?: string | null }) =>
  apiFetch<AdminActivity>(`/api/admin/activity${qs({ limit: p.limit, before: p.before })}`);
export const getSystemHealth = () => apiFetch<SystemHealth>("/api/admin/system/health");
export const getDocumentsStats = () => apiFetch<DocumentsStats>("/api/admin/documents/stats");
export const listAdminUsers = (p: { q?: string; page: number; limit: number }) => apiFetch<AdminUserPage>(`/api/admin/users${qs(p)}`);
export const updateAdminUser = (id: string, patch: AdminUserPatch) =>
  apiFetch<AdminUserState>(`/api/admin/users/${encodeURIComponent(id)}`, { method: "PATCH", json: patch });
export const getDashboardStats = () => apiFetch<DashboardStats>("/api/dashboard/stats");
export const refreshDashboard = () => apiFetch<DashboardStats>("/api/dashboard/refresh", { method: "POST" });

export type { ImportRejection, ImportRun, ImportRunDetail, ImportRunPage } from "@/lib/backend/responses";
export const listImportRuns = (p: { page: number; limit: number }) => apiFetch<ImportRunPage>(`/api/admin/imports${qs(p)}`);
export const getImportRun = (id: string) => apiFetch<ImportRunDetail>(`/api/admin/imports/${encodeURIComponent(id)}`);

/**
 * Upload one file to the importers: the body is the file itself (application/octet-stream, streamed by the browser;
 * the route stores it without holding it in memory). Answers the queued run.
 */
export async function uploadImportFile(file: File, source: ImportUploadSource): Promise<ImportRun> {
  const res = await fetch(`/api/admin/imports${qs({ source, name: file.name })}`, {
    method: "POST",
    headers: { accept: "application/json", "content-type": "application/octet-stream" },
    body: file,
    credentials: "same-origin",
  });
  const text = await res.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = text;
  }
  if (!res.ok) throw errorFromBody(res.status, body);
  return body as ImportRun;
}
