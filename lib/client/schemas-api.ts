/**
 * Client calls for extraction schemas (web routes /api/schemas/**). The bodies are the types lib/backend/schemas
 * builds them with.
 */
import type { ExtractionSchema, SchemaComparison, SchemaPage, SchemaSummary, SchemaVersionList } from "@/lib/backend/responses";
import type { SchemaField } from "@/lib/schema/requests/schemas";
import { apiFetch, qs } from "./api";

export type { ExtractionSchema, SchemaComparison, SchemaSummary, SchemaVersionList, SchemaField };

export async function listSchemas(): Promise<SchemaSummary[]> {
  const out: SchemaSummary[] = [];
  for (let offset = 0; ; offset += 100) {
    const body = await apiFetch<SchemaPage>(`/api/schemas${qs({ limit: 100, offset })}`);
    out.push(...body.schemas);
    if (body.schemas.length === 0 || out.length >= body.total) return out;
  }
}

const path = (id: string) => `/api/schemas/${encodeURIComponent(id)}`;

export const getSchema = (id: string) => apiFetch<ExtractionSchema>(path(id));

export const createSchema = (body: { name: string; description: string | null; fields: SchemaField[] }) =>
  apiFetch<ExtractionSchema>("/api/schemas", { method: "POST", json: body });

export const updateSchema = (id: string, body: { name: string; description: string | null; fields: SchemaField[] }) =>
  apiFetch<ExtractionSchema>(path(id), { method: "PATCH", json: body });

export async function deleteSchema(id: string): Promise<void> {
  await apiFetch(path(id), { method: "DELETE" });
}

export const listVersions = (id: string) => apiFetch<SchemaVersionList>(`${path(id)}/versions`);

export const compareVersions = (id: string, a: number, b: number) => apiFetch<SchemaComparison>(`${path(id)}/versions/compare${qs({ a, b })}`);

export const rollbackSchema = (id: string, n: number) => apiFetch<ExtractionSchema>(`${path(id)}/versions/${n}/rollback`, { method: "POST", json: {} });
