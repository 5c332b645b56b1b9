/**
 * Client calls of the accounts area: /api/saved-searches, /api/settings/*, /api/unsubscribe and
 * /api/admin/mail. The bodies are the types lib/backend builds them with.
 */
import type { EmbeddingsSettings, MailPage, Profile, SavedSearch, SavedSearchPage, SavedSearchRun, UnsubscribeBody } from "@/lib/backend/responses";
import type { CreateSavedSearch, PatchSavedSearch } from "@/lib/schema/requests/accounts";
import { apiFetch, qs } from "./api";

export type { MailPage, Profile, SavedSearch, SavedSearchPage, SavedSearchRun };

export function listSavedSearches(q: { folder?: string; page?: number; limit?: number } = {}): Promise<SavedSearchPage> {
  return apiFetch<SavedSearchPage>(`/api/saved-searches${qs({ folder: q.folder, page: q.page, limit: q.limit })}`);
}

export function createSavedSearch(body: Partial<CreateSavedSearch> & Pick<CreateSavedSearch, "name" | "kind">): Promise<SavedSearch> {
  return apiFetch<SavedSearch>("/api/saved-searches", { method: "POST", json: body });
}

export function updateSavedSearch(id: string, patch: PatchSavedSearch): Promise<SavedSearch> {
  return apiFetch<SavedSearch>(`/api/saved-searches/${encodeURIComponent(id)}`, { method: "PATCH", json: patch });
}

export async function deleteSavedSearch(id: string): Promise<void> {
  await apiFetch(`/api/saved-searches/${encodeURIComponent(id)}`, { method: "DELETE" });
}

export function runSavedSearch(id: string): Promise<SavedSearchRun> {
  return apiFetch<SavedSearchRun>(`/api/saved-searches/${encodeURIComponent(id)}/run`, { method: "POST", json: {} });
}

/** The page a saved search restores: its page path plus the query string stored when it was saved. */
export function savedSearchHref(s: Pick<SavedSearch, "kind" | "params">): string {
  const url = typeof s.params.url === "string" && s.params.url.startsWith("?") ? s.params.url : "";
  return `${s.kind === "search" ? "/search" : "/search/extractions"}${url}`;
}

export function getProfile(): Promise<Profile> {
  return apiFetch<Profile>("/api/settings/profile");
}

export function updateProfile(patch: { display_name?: string | null; language?: "en" | "pl"; alerts_paused?: boolean }): Promise<Profile> {
  return apiFetch<Profile>("/api/settings/profile", { method: "PATCH", json: patch });
}

export async function changePassword(body: { current_password: string; new_password: string }): Promise<void> {
  await apiFetch("/api/settings/password", { method: "POST", json: body });
}

export async function deleteAccount(confirmation: string): Promise<void> {
  await apiFetch("/api/settings/delete-account", { method: "POST", json: { confirmation } });
}

export function unsubscribe(token: string): Promise<UnsubscribeBody> {
  return apiFetch<UnsubscribeBody>("/api/unsubscribe", { method: "POST", json: { token } });
}

export function listMail(q: { limit?: number; offset?: number } = {}): Promise<MailPage> {
  return apiFetch<MailPage>(`/api/admin/mail${qs({ limit: q.limit, offset: q.offset })}`);
}

export function getEmbeddings(): Promise<EmbeddingsSettings> {
  return apiFetch<EmbeddingsSettings>("/api/settings/embeddings");
}

/** Admin: switch the index's embedder (re-embedding runs in the background; poll getEmbeddings for `reembed`). */
export function switchEmbeddings(id: string): Promise<EmbeddingsSettings> {
  return apiFetch<EmbeddingsSettings>("/api/settings/embeddings", { method: "PUT", json: { id } });
}
