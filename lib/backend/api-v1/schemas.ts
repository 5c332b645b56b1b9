/**
 * Extraction schemas on the reference API (`/api/v1`): thin wrappers over the web tier's
 * backend (lib/backend/schemas). The list reads the key's user's schemas through api_v1_list_extraction_schemas, which
 * runs as that user under RLS (supabase/migrations/20261127100000_api_v1_schemas.sql), and pages them exactly as
 * GET /api/schemas does (the built-in base schema first). POST /api/v1/schemas/generate calls the web generator
 * (lib/backend/schemas/generate.ts) directly: model mode only, 503 LLM_NOT_CONFIGURED without a model.
 */
import type { DbClient } from "@/lib/supabase/db-client";
import { fromDatabaseError } from "@/lib/errors";
import type { Identity } from "../identity";
import { listSchemasFrom, type SchemaRowSource, type SchemaSummary } from "../schemas/schemas";
import { keyUser } from "./account";
import { paging, type V1Paging } from "./documents";

export type V1SchemaList = { schemas: SchemaSummary[] } & V1Paging;

/** The key's user's rows, read as that user (RLS); 403 API_KEY_USER_REQUIRED for a key issued to no user. */
function keyUserSchemaRows(serviceDb: DbClient, identity: Identity): SchemaRowSource {
  const userId = keyUser(identity);
  return async (limit, offset) => {
    const { data, error } = await serviceDb.rpc("api_v1_list_extraction_schemas", { p_user_id: userId, p_limit: limit, p_offset: offset });
    if (error) throw fromDatabaseError(error);
    return data;
  };
}

/** GET /api/v1/schemas: `{schemas: [{id, name, description, version, created_at}], total}` plus the reference paging. */
export async function listSchemasV1(serviceDb: DbClient, identity: Identity, page: { limit: number; offset: number }): Promise<V1SchemaList> {
  const { schemas, total } = await listSchemasFrom(keyUserSchemaRows(serviceDb, identity), page);
  return { schemas, ...paging(total, page.limit, page.offset) };
}

