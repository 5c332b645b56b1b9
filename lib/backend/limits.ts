/**
 * The caps the database enforces itself (P-81): an RPC called straight through the gateway with a user's own token
 * meets the same cap as the web route. lib/config.ts stays their one source: each is a config setting, held by the
 * database in `app_limits` under the same name (migration 20261207100000_app_limits.sql seeds the config defaults,
 * tests/db/app-limits.test.ts keeps the two equal), and the server writes its configured values at start
 * (`syncDatabaseLimits`, called by the worker at start). A cap an RPC still takes as an argument can only lower these.
 */
import { config, type Config } from "@/lib/config";
import { fromDatabaseError } from "@/lib/errors";
import type { DbClient } from "@/lib/supabase/db-client";

/** The config settings the database enforces (each a row of app_limits). */
export const DATABASE_LIMITS = [
  "EXTRACTION_MAX_RUNNING_JOBS_PER_USER",
  "EXTRACTION_MAX_DOCUMENTS",
  "SAVED_SEARCHES_MAX_PER_USER",
  "SAVE_FROM_FILTER_MAX_DOCUMENTS",
  "SCHEMA_MAX_FIELDS",
  "SCHEMA_MAX_ENUM_VALUES",
  "TOPIC_SAMPLE_SIZE_MAX",
] as const satisfies readonly (keyof Config)[];

export type DatabaseLimit = (typeof DATABASE_LIMITS)[number];

/** This process's configured values of the database-enforced caps. */
export function databaseLimits(): Record<DatabaseLimit, number> {
  const c = config();
  return Object.fromEntries(DATABASE_LIMITS.map((name) => [name, c[name]])) as Record<DatabaseLimit, number>;
}

/** Write the configured caps to the database (service role); answers how many changed. */
export async function syncDatabaseLimits(serviceDb: DbClient): Promise<number> {
  const { data, error } = await serviceDb.rpc("set_app_limits", { p_limits: databaseLimits() });
  if (error) throw fromDatabaseError(error);
  return data;
}
