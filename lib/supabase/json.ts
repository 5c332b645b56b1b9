import type { Json } from "./database.types";

/** A JSON object (not an array, not null), as jsonb results of RPC functions usually are. */
export type JsonObject = { [key: string]: Json | undefined };

/** Narrows a jsonb result to an object without a cast: the generated types know only that it is some JSON. */
export function isJsonObject(value: Json | undefined): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A validated request value as a jsonb argument. supabase-js sends arguments through JSON.stringify, so the database
 * receives exactly this value's JSON; the request schemas type free-form parts (filters, event properties) as
 * `Record<string, unknown>`, which the type checker cannot prove to be JSON. The one cast for jsonb arguments.
 */
export function jsonArg(value: object): Json {
  return value as Json;
}
