import { createHash, randomUUID } from "node:crypto";
import type { Redis } from "@upstash/redis";
import { config } from "@/lib/config";
import { logger } from "@/lib/logger";
import { isUuid } from "@/lib/schema/uuid";
import { limitsStore, reportStoreFailure, storeAvailable } from "./rate-limit-store";

/**
 * Guest search allowance (spec: States and transitions, guest search allowance; D-11, D-12).
 *
 * A guest session is a UUID in the `guest_session_id` cookie and a counter in the limits store (Redis, key with a
 * fixed 24 h TTL set at minting and never refreshed: D-12). Each search *reserves* one unit atomically before the
 * engine is queried and gives it back if the engine fails, so:
 *   - a spent allowance is refused before the engine is queried (429 GUEST_LIMIT_REACHED);
 *   - a failed search charges nothing;
 *   - concurrent searches cannot overspend (check-then-charge after the search would let two racing requests both
 *     pass at 1 left).
 * Remaining (D-11) is the value after this search's charge: 4 … 0; the first search counts.
 * Only distinct searches count: the same query and filters paged or reloaded within one session are charged once
 * (`guestSearchKey`; docs/web-tier.md, "Guest allowance").
 * Without a store (unset or failing) guest search runs unmetered and a warning is logged (spec: Limits).
 */

export const GUEST_COOKIE = "guest_session_id";
/**
 * Store key of a session: `<LIMITS_KEY_PREFIX>:guest:v1:<uuid>`, under the same prefix as the rate-limit counters, so
 * deployments and test runs sharing one Redis never share guest sessions (L11).
 */
export function guestKey(prefix: string, id: string): string {
  return `${prefix}:guest:v1:${id}`;
}

/** Store key of the set of distinct searches a session has been charged for (see `MeterOptions.searchKey`). */
export function guestSeenKey(prefix: string, id: string): string {
  return `${guestKey(prefix, id)}:seen`;
}

/** Parameters that only page through one search: changing them is not a new search. */
const PAGING_PARAMS = new Set(["offset", "limit", "page"]);

/**
 * The identity of one distinct search: its parameters without the paging ones, in a fixed order, hashed. The same
 * query and filters paged (offset / limit) or reloaded give the same key and are charged once per guest session;
 * any other change (query text, filters, mode, sort) is a new search. Absent and empty parameters are the same.
 */
export function guestSearchKey(params: Record<string, unknown>): string {
  const kept = Object.entries(params)
    .filter(([k, v]) => !PAGING_PARAMS.has(k) && v !== undefined && v !== null && v !== "")
    .map(([k, v]) => [k, typeof v === "string" ? v.trim() : v] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return createHash("sha256").update(JSON.stringify(kept)).digest("hex").slice(0, 32);
}

// Returns {used after this charge, ttl seconds, repeat}; {-1, 0, 0} = no such session (expired or never minted);
// {-2, ttl, 0} = spent; repeat = 1 when ARGV[4] (the search's key) was already charged in this session: nothing is
// charged again. KEYS[2] is the session's set of charged search keys, ending with the session (same TTL).
const RESERVE = `
if ARGV[3] == '1' then
  redis.call('SET', KEYS[1], 0, 'EX', tonumber(ARGV[2]), 'NX')
end
local used = redis.call('GET', KEYS[1])
if not used then return {-1, 0, 0} end
local ttl = redis.call('TTL', KEYS[1])
if ARGV[4] ~= '' and redis.call('SISMEMBER', KEYS[2], ARGV[4]) == 1 then return {tonumber(used), ttl, 1} end
if tonumber(used) >= tonumber(ARGV[1]) then return {-2, ttl, 0} end
local n = redis.call('INCR', KEYS[1])
if ARGV[4] ~= '' then
  redis.call('SADD', KEYS[2], ARGV[4])
  if ttl > 0 then redis.call('EXPIRE', KEYS[2], ttl) end
end
return {n, ttl, 0}
`;

// Give one unit back after a failed search (and forget its key); never below zero, never recreating an expired session.
const REFUND = `
if ARGV[1] ~= '' then redis.call('SREM', KEYS[2], ARGV[1]) end
local used = redis.call('GET', KEYS[1])
if not used then return -1 end
if tonumber(used) <= 0 then return 0 end
return redis.call('DECR', KEYS[1])
`;

export interface GuestSettings {
  limit: number;
  ttlSeconds: number;
  nudgeRemaining: number;
  /** Store key prefix; LIMITS_KEY_PREFIX when absent. */
  keyPrefix?: string;
}

export interface GuestSession {
  id: string;
  limit: number;
  /** Searches left after this one (D-11). */
  remaining: number;
  /** Minted by this request: the cookie must be set. */
  minted: boolean;
  /** Seconds until the session ends (fixed at minting, D-12). */
  ttlSeconds: number;
  /** Remaining just reached the nudge threshold: the visitor should be shown the upgrade nudge. */
  nudge: boolean;
}

export class GuestLimitReachedError extends Error {
  constructor(readonly session: GuestSession) {
    super("Guest search allowance spent");
    this.name = "GuestLimitReachedError";
  }
}

/**
 * How a metered search may mint a new session. The API mints a random id and sets the cookie on its answer; a
 * server-rendered page cannot set cookies, so it mints only under the id the middleware already put in the visitor's
 * cookie (`{ mintAs: id }`), or not at all (`{ mintAs: null }`: the page then leaves the search to the client).
 */
export interface MeterOptions {
  mintAs?: string | null;
  /**
   * The search's `guestSearchKey`: a search whose key this session was already charged for (the same search paged or
   * reloaded) is not charged again, even when the allowance is spent. Without a key every call is charged.
   */
  searchKey?: string;
}

/** Thrown (before the search runs, nothing charged) when a session would have to be minted but minting is off. */
export class GuestSessionUnavailableError extends Error {
  constructor() {
    super("A new guest session would be needed");
    this.name = "GuestSessionUnavailableError";
  }
}

export interface MeterOutcome<T> {
  result: T;
  /** Null when unmetered (signed-in caller, API-key caller, or no usable store). */
  session: GuestSession | null;
}

export function settingsFromConfig(): GuestSettings {
  const c = config();
  return {
    limit: c.GUEST_SEARCH_LIMIT,
    ttlSeconds: c.GUEST_SESSION_TTL_SECONDS,
    nudgeRemaining: c.GUEST_NUDGE_REMAINING,
    keyPrefix: c.LIMITS_KEY_PREFIX,
  };
}

export function isGuestSessionId(v: string | null | undefined): v is string {
  return isUuid(v);
}

export class GuestMeter {
  private readonly reserveScript;
  private readonly refundScript;
  private readonly key: (id: string) => string;
  private readonly seenKey: (id: string) => string;

  constructor(
    private readonly store: Redis | null,
    private readonly settings: GuestSettings = settingsFromConfig(),
  ) {
    this.reserveScript = store?.createScript<[number, number, number]>(RESERVE);
    this.refundScript = store?.createScript<number>(REFUND);
    const prefix = settings.keyPrefix ?? config().LIMITS_KEY_PREFIX;
    this.key = (id) => guestKey(prefix, id);
    this.seenKey = (id) => guestSeenKey(prefix, id);
  }

  /**
   * Meter one guest search. `cookie` is the visitor's guest_session_id (or null); `run` queries the engine.
   * Throws GuestLimitReachedError (before calling `run`) when the allowance is spent; rethrows `run`'s error after
   * refunding the reservation.
   */
  async meter<T>(cookie: string | null, run: () => Promise<T>, opts: MeterOptions = {}): Promise<MeterOutcome<T>> {
    const reserved = await this.reserve(cookie, opts);
    if (!reserved) return { result: await run(), session: null };
    if (reserved.spent) throw new GuestLimitReachedError(reserved.session);
    let result: T;
    try {
      result = await run();
    } catch (e) {
      if (!reserved.repeat) await this.refund(reserved.session.id, opts.searchKey ?? "");
      throw e;
    }
    return { result, session: reserved.session };
  }

  /** POST /api/guest/convert: end the guest session; returns how many sessions were deleted (0 or 1). */
  async remove(cookie: string | null): Promise<number> {
    if (!this.store || !isGuestSessionId(cookie)) return 0;
    const id = cookie.toLowerCase();
    const [deleted] = await Promise.all([this.store.del(this.key(id)), this.store.del(this.seenKey(id))]);
    return deleted;
  }

  private async reserve(cookie: string | null, opts: MeterOptions): Promise<{ session: GuestSession; spent: boolean; repeat: boolean } | null> {
    if (!this.store || !this.reserveScript) {
      logger.warn("guest search unmetered: no limits store configured (UPSTASH_REDIS_REST_URL unset)");
      return null;
    }
    if (!storeAvailable(this.store)) {
      logger.warn("guest search unmetered: limits store unavailable (recent failure)");
      return null;
    }
    const s = this.settings;
    try {
      let id = isGuestSessionId(cookie) ? cookie.toLowerCase() : null;
      let minted = false;
      const searchKey = opts.searchKey ?? "";
      const keys = (sid: string) => [this.key(sid), this.seenKey(sid)];
      let answer: [number, number, number] = [-1, 0, 0];
      if (id) answer = await this.reserveScript.exec(keys(id), [String(s.limit), String(s.ttlSeconds), "0", searchKey]);
      if (answer[0] === -1) {
        // No cookie, a malformed one, or a session that expired (D-12) or never existed: mint a new one.
        if (opts.mintAs === null || (opts.mintAs !== undefined && !isGuestSessionId(opts.mintAs))) throw new GuestSessionUnavailableError();
        id = opts.mintAs === undefined ? randomUUID() : opts.mintAs.toLowerCase();
        minted = true;
        answer = await this.reserveScript.exec(keys(id), [String(s.limit), String(s.ttlSeconds), "1", searchKey]);
      }
      const [used, ttl, repeatFlag] = answer;
      const repeat = repeatFlag === 1;
      if (used === -2) {
        return { spent: true, repeat: false, session: { id: id as string, limit: s.limit, remaining: 0, minted, ttlSeconds: ttl, nudge: false } };
      }
      if (used < 0) throw new Error(`unexpected reserve answer ${used}`);
      const remaining = Math.max(0, s.limit - used);
      return {
        spent: false,
        repeat,
        // A repeat was nudged (if at all) when it was first charged.
        session: { id: id as string, limit: s.limit, remaining, minted, ttlSeconds: ttl > 0 ? ttl : s.ttlSeconds, nudge: !repeat && remaining === s.nudgeRemaining },
      };
    } catch (e) {
      if (e instanceof GuestSessionUnavailableError) throw e;
      reportStoreFailure(this.store);
      logger.warn({ err: e instanceof Error ? e.message : String(e) }, "guest search unmetered: limits store unavailable");
      return null;
    }
  }

  private async refund(id: string, searchKey: string): Promise<void> {
    try {
      await this.refundScript?.exec([this.key(id), this.seenKey(id)], [searchKey]);
    } catch (e) {
      logger.warn({ err: e instanceof Error ? e.message : String(e) }, "guest search refund failed: limits store unavailable");
    }
  }
}

let singleton: { store: Redis | null; meter: GuestMeter } | null = null;

/** The process's guest meter over the configured limits store. */
export function guestMeter(): GuestMeter {
  const store = limitsStore();
  if (!singleton || singleton.store !== store) singleton = { store, meter: new GuestMeter(store) };
  return singleton.meter;
}
