/**
 * Client calls for the judge fingerprint (/api/judge-fingerprint/*) and reasoning lines (/api/reasoning-lines/*). The
 * bodies are the types lib/backend/analysis builds them with.
 */
import type {
  DiscoverResult,
  DriftAnalysis,
  JudgeComparison,
  JudgeProfile,
  JudgeSearchResult,
  LineDag,
  LineEvent,
  LinePage,
  LineSearchHit,
  LineTimeline,
  OutcomeAnalysis,
  ReasoningLine,
} from "@/lib/backend/responses";
import type { CreateLineRequest } from "@/lib/schema/requests/analysis-lines";
import type { DiscoverRequest } from "@/lib/schema/requests/discover";
import { apiFetch, qs } from "./api";

export type { CandidateLine, JudgeComparison, JudgeProfile, LineTimeline, ReasoningLine } from "@/lib/backend/responses";

export const searchJudges = (q: string, limit = 20) => apiFetch<JudgeSearchResult>(`/api/judge-fingerprint/search${qs({ q, limit })}`);
export const judgeProfile = (name: string) => apiFetch<JudgeProfile>(`/api/judge-fingerprint/profile/${encodeURIComponent(name)}`);
export const compareJudges = (names: string[]) => apiFetch<JudgeComparison>(`/api/judge-fingerprint/compare${qs({ judges: names.join(",") })}`);

/** includeDeleted: deleted and merged lines too (the API honours it for admins only). */
export const listLines = (page = 1, limit = 50, includeDeleted = false) =>
  apiFetch<LinePage>(`/api/reasoning-lines${qs({ page, limit, ...(includeDeleted ? { include_deleted: "true" } : {}) })}`);
export const searchLines = (q: string) => apiFetch<{ query: string; lines: LineSearchHit[] }>("/api/reasoning-lines/search", { method: "POST", json: { q } });
export const linesDag = () => apiFetch<LineDag>("/api/reasoning-lines/dag");
export const lineTimeline = (id: string, includeDeleted = false) =>
  apiFetch<LineTimeline>(`/api/reasoning-lines/${encodeURIComponent(id)}/timeline${includeDeleted ? "?include_deleted=true" : ""}`);
export const discoverLines = (req: Partial<DiscoverRequest>) => apiFetch<DiscoverResult>("/api/reasoning-lines/discover", { method: "POST", json: req });
export const createLine = (req: Omit<CreateLineRequest, "keywords"> & { keywords?: string[] }) =>
  apiFetch<ReasoningLine>("/api/reasoning-lines/create", { method: "POST", json: req });
export const deleteLine = (id: string) => apiFetch<{ id: string; status: string }>(`/api/reasoning-lines/${encodeURIComponent(id)}`, { method: "DELETE" });
export const detectEvents = () => apiFetch<{ lines: number; events: LineEvent[] }>("/api/reasoning-lines/detect-events", { method: "POST", json: {} });
export const driftAnalysis = (id: string) => apiFetch<DriftAnalysis>(`/api/reasoning-lines/${encodeURIComponent(id)}/drift-analysis`, { method: "POST", json: {} });
export const analyzeOutcomes = (id: string) => apiFetch<OutcomeAnalysis>(`/api/reasoning-lines/${encodeURIComponent(id)}/analyze-outcomes`, { method: "POST", json: {} });
