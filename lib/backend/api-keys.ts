import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { DbClient } from "@/lib/supabase/db-client";
import { LRUCache } from "lru-cache";
import { config } from "@/lib/config";
import { fromDatabaseError } from "@/lib/errors";
import { logger } from "@/lib/logger";

/**
 * Server API keys (`X-API-Key`, spec: Authentication 1). A key is `jsk_<12 hex id>_<43 base64url secret>`: the id is
 * stored in clear to find the row, the whole key only as its SHA-256 (a plain hash suffices for 256-bit random
 * secrets: there is nothing to brute-force), and the hashes are compared in constant time. The key itself is shown
 * once, at creation.
 */
const KEY_PATTERN = /^jsk_([0-9a-f]{12})_[A-Za-z0-9_-]{43}$/;

export interface VerifiedApiKey {
  id: string;
  name: string;
  /** Owner, when the key was issued to a user; a key never makes its holder that user (the bearer token does). */
  userId: string | null;
}

export function hashApiKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

export function generateApiKey(): { key: string; prefix: string; hash: string } {
  const prefix = randomBytes(6).toString("hex");
  const key = `jsk_${prefix}_${randomBytes(32).toString("base64url")}`;
  return { key, prefix, hash: hashApiKey(key) };
}

function sameHash(aHex: string, bHex: string): boolean {
  const a = Buffer.from(aHex, "hex");
  const b = Buffer.from(bHex, "hex");
  return a.length === 32 && b.length === 32 && timingSafeEqual(a, b);
}

/**
 * Verified keys by hash, so a busy server client does not cost a database call per request. Known and unknown keys
 * are remembered apart, each in an LRU whose entries expire after API_KEY_CACHE_SECONDS (lru-cache's ttl): a flood of
 * random well-formed keys churns only the negative cache and can no longer evict the valid ones (security review L12).
 */
const CACHE_MAX = 1000;
const known = new LRUCache<string, VerifiedApiKey>({ max: CACHE_MAX });
const unknown = new LRUCache<string, true>({ max: CACHE_MAX });

/** Check a presented key; null when it is malformed, unknown, revoked or wrong. */
export async function verifyApiKey(serviceDb: DbClient, presented: string): Promise<VerifiedApiKey | null> {
  const m = KEY_PATTERN.exec(presented);
  if (!m) return null;
  const hash = hashApiKey(presented);
  const ttlMs = config().API_KEY_CACHE_SECONDS * 1000;
  const hit = known.get(hash);
  if (hit) return hit;
  if (unknown.get(hash)) return null;

  const { data, error } = await serviceDb.rpc("api_key_lookup", { p_prefix: m[1] });
  if (error) {
    logger.error({ code: error.code, message: error.message }, "api key lookup failed");
    throw fromDatabaseError(error);
  }
  const row = data[0];
  const key = row && sameHash(row.key_hash, hash) ? { id: row.id, name: row.name, userId: row.user_id } : null;
  if (ttlMs > 0) {
    if (key) known.set(hash, key, { ttl: ttlMs });
    else unknown.set(hash, true, { ttl: ttlMs });
  }
  return key;
}

/** Issue a key (service role). Returns the key in clear: the only time it exists outside the caller's hands. */
export async function createApiKey(serviceDb: DbClient, opts: { name: string; userId?: string | null }): Promise<{ id: string; key: string }> {
  const { key, prefix, hash } = generateApiKey();
  const { data, error } = await serviceDb.rpc("api_key_create", { p_name: opts.name, p_prefix: prefix, p_key_hash: hash, p_user_id: opts.userId ?? null });
  if (error) throw fromDatabaseError(error);
  return { id: data, key };
}

export async function revokeApiKey(serviceDb: DbClient, id: string): Promise<boolean> {
  const { data, error } = await serviceDb.rpc("api_key_revoke", { p_id: id });
  if (error) throw fromDatabaseError(error);
  known.clear();
  unknown.clear();
  return data === true;
}
