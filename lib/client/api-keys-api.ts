/** Client calls for Settings → API keys (/api/settings/api-keys). The bodies are the types lib/backend/api-keys builds. */
import type { UserApiKey, UserApiKeyList } from "@/lib/backend/responses";
import type { CreateApiKeyInput } from "@/lib/schema/requests/api-keys";
import { apiFetch } from "./api";

export type { UserApiKey };

export function listApiKeys(): Promise<UserApiKeyList> {
  return apiFetch<UserApiKeyList>("/api/settings/api-keys");
}

/** The answer carries the key itself: the only time it is ever sent. */
export function createApiKey(input: CreateApiKeyInput): Promise<UserApiKey & { key: string }> {
  return apiFetch<UserApiKey & { key: string }>("/api/settings/api-keys", { method: "POST", json: input });
}

export async function revokeApiKey(id: string): Promise<void> {
  await apiFetch<null>(`/api/settings/api-keys/${encodeURIComponent(id)}`, { method: "DELETE" });
}
