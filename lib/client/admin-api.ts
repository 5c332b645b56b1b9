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
  SystemHealth,
} from "@/lib/backend/responses";
import type { AdminUserPatch } from "@/lib/schema/requests/admin";
import { apiFetch, qs } from "./api";

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
