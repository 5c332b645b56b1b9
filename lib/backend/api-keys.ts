import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { DbClient } from "@/lib/supabase/db-client";
import { LRUCache } from "lru-cache";
import { config } from "@/lib/config";
import { ApiError, fromDatabaseError } from "@/lib/errors";
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
  /**
   * Owner, when the key was issued to a user. On the web tier a key never makes its holder that user (the bearer
   * token does, spec: Authentication 2); the reference API `/api/v1` acts as this user (D-18, docs/api.md).
   */
  userId: string | null;
  /** ISO timestamp after which the key is refused, or null. */
  expiresAt: string | null;
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

const expired = (k: VerifiedApiKey) => k.expiresAt !== null && Date.parse(k.expiresAt) <= Date.now();

/** Check a presented key; null when it is malformed, unknown, revoked or wrong. */
export async function verifyApiKey(serviceDb: DbClient, presented: string): Promise<VerifiedApiKey | null> {
  const m = KEY_PATTERN.exec(presented);
  if (!m) return null;
  const hash = hashApiKey(presented);
  const ttlMs = config().API_KEY_CACHE_SECONDS * 1000;
  const hit = known.get(hash);
  // A remembered key can expire while cached: checked on every use, not only on lookup.
  if (hit) return expired(hit) ? null : hit;
  if (unknown.get(hash)) return null;

  const { data, error } = await serviceDb.rpc("api_key_lookup", { p_prefix: m[1] });
  if (error) {
    logger.error({ code: error.code, message: error.message }, "api key lookup failed");
    throw fromDatabaseError(error);
  }
  const row = data[0];
  const key = row && sameHash(row.key_hash, hash) ? { id: row.id, name: row.name, userId: row.user_id, expiresAt: row.expires_at } : null;
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

/**
 * Record that a key was used: at most once per API_KEY_TOUCH_INTERVAL_SECONDS per key and process (the SQL also
 * skips the write within a minute), so a busy client costs one cheap update a minute, never one per request.
 * Best effort: a failed write is logged and never fails the request.
 */
const touched = new LRUCache<string, true>({ max: 10_000 });
export async function touchApiKey(serviceDb: DbClient, id: string): Promise<void> {
  if (touched.get(id)) return;
  touched.set(id, true, { ttl: config().API_KEY_TOUCH_INTERVAL_SECONDS * 1000 });
  const { error } = await serviceDb.rpc("api_key_touch", { p_id: id });
  if (error) logger.warn({ code: error.code, message: error.message }, "api key touch failed");
}

/** A user's key as settings lists it: never the key or its hash, only the first 8 characters of the key. */
export interface UserApiKey {
  id: string;
  name: string;
  /** The first 8 characters of the key (`jsk_` and 4 of its id), enough to tell keys apart. */
  prefix: string;
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
}

/** The first 8 characters of a key whose stored id part is `idHex`. */
const shownPrefix = (idHex: string) => `jsk_${idHex}`.slice(0, 8);

/** GET /api/settings/api-keys. */
export interface UserApiKeyList {
  keys: UserApiKey[];
  max_active: number;
}

export async function listUserApiKeys(serviceDb: DbClient, userId: string): Promise<UserApiKeyList> {
  const { data, error } = await serviceDb.rpc("api_key_list_for_user", { p_user_id: userId });
  if (error) throw fromDatabaseError(error);
  return {
    keys: data.map((r) => ({ id: r.id, name: r.name, prefix: shownPrefix(r.prefix), created_at: r.created_at, last_used_at: r.last_used_at, expires_at: r.expires_at })),
    max_active: config().API_KEYS_MAX_ACTIVE_PER_USER,
  };
}

/** Issue a key to a user (at most API_KEYS_MAX_ACTIVE_PER_USER active: 409 API_KEY_LIMIT). The key is in the answer once. */
export async function createUserApiKey(
  serviceDb: DbClient,
  userId: string,
  opts: { name: string; expiresAt: string | null },
): Promise<UserApiKey & { key: string }> {
  const { key, prefix, hash } = generateApiKey();
  const { data, error } = await serviceDb.rpc("api_key_create_for_user", {
    p_user_id: userId,
    p_name: opts.name,
    p_prefix: prefix,
    p_key_hash: hash,
    p_expires_at: opts.expiresAt,
    p_max_active: config().API_KEYS_MAX_ACTIVE_PER_USER,
  });
  if (error?.code === "SK001") throw new ApiError("API_KEY_LIMIT", `You already have ${config().API_KEYS_MAX_ACTIVE_PER_USER} active API keys; revoke one first.`);
  if (error) throw fromDatabaseError(error);
  return { id: data, name: opts.name, prefix: shownPrefix(prefix), created_at: new Date().toISOString(), last_used_at: null, expires_at: opts.expiresAt, key };
}

/** Revoke one of the user's keys; another user's id or an already revoked key is 404 API_KEY_NOT_FOUND. */
export async function revokeUserApiKey(serviceDb: DbClient, userId: string, id: string): Promise<void> {
  const { data, error } = await serviceDb.rpc("api_key_revoke_for_user", { p_user_id: userId, p_id: id });
  if (error) throw fromDatabaseError(error);
  if (data !== true) throw new ApiError("API_KEY_NOT_FOUND");
  // Revocation takes effect at once in this process (other processes within API_KEY_CACHE_SECONDS).
  forgetVerifiedApiKeys();
}

/**
 * Drop this process's remembered keys, known and unknown: after a revocation, and after a ban or an unban (a banned
 * owner's keys are refused while the ban lasts and work again once it is lifted, P-82).
 */
export function forgetVerifiedApiKeys(): void {
  known.clear();
  unknown.clear();
}
