import { randomUUID } from "node:crypto";
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
 * Without a store (unset or failing) guest search runs unmetered and a warning is logged (spec: Limits).
 */

export const GUEST_COOKIE = "guest_session_id";
/**
 * Store key of a session: `<LIMITS_KEY_PREFIX>:guest:v1:<uuid>`, under the same prefix as the rate-limit counters, so
 * deployments and test runs sharing one Redis never share guest sessions (issue 12, L11).
 */
export function guestKey(prefix: string, id: string): string {
  return `${prefix}:guest:v1:${id}`;
}

// Returns {used after this charge, ttl seconds}; {-1, 0} = no such session (expired or never minted); {-2, ttl} = spent.
const RESERVE = `
if ARGV[3] == '1' then
  redis.call('SET', KEYS[1], 0, 'EX', tonumber(ARGV[2]), 'NX')
end
local used = redis.call('GET', KEYS[1])
if not used then return {-1, 0} end
local ttl = redis.call('TTL', KEYS[1])
if tonumber(used) >= tonumber(ARGV[1]) then return {-2, ttl} end
return {redis.call('INCR', KEYS[1]), ttl}
`;

// Give one unit back after a failed search; never below zero, never recreating an expired session.
const REFUND = `
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

  constructor(
    private readonly store: Redis | null,
    private readonly settings: GuestSettings = settingsFromConfig(),
  ) {
    this.reserveScript = store?.createScript<[number, number]>(RESERVE);
    this.refundScript = store?.createScript<number>(REFUND);
    const prefix = settings.keyPrefix ?? config().LIMITS_KEY_PREFIX;
    this.key = (id) => guestKey(prefix, id);
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
      await this.refund(reserved.session.id);
      throw e;
    }
    return { result, session: reserved.session };
  }

  /** POST /api/guest/convert: end the guest session; returns how many sessions were deleted (0 or 1). */
  async remove(cookie: string | null): Promise<number> {
    if (!this.store || !isGuestSessionId(cookie)) return 0;
    return this.store.del(this.key(cookie.toLowerCase()));
  }

  private async reserve(cookie: string | null, opts: MeterOptions): Promise<{ session: GuestSession; spent: boolean } | null> {
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
      let answer: [number, number] = [-1, 0];
      if (id) answer = await this.reserveScript.exec([this.key(id)], [String(s.limit), String(s.ttlSeconds), "0"]);
      if (answer[0] === -1) {
        // No cookie, a malformed one, or a session that expired (D-12) or never existed: mint a new one.
        if (opts.mintAs === null || (opts.mintAs !== undefined && !isGuestSessionId(opts.mintAs))) throw new GuestSessionUnavailableError();
        id = opts.mintAs === undefined ? randomUUID() : opts.mintAs.toLowerCase();
        minted = true;
        answer = await this.reserveScript.exec([this.key(id)], [String(s.limit), String(s.ttlSeconds), "1"]);
      }
      const [used, ttl] = answer;
      if (used === -2) {
        return { spent: true, session: { id: id as string, limit: s.limit, remaining: 0, minted, ttlSeconds: ttl, nudge: false } };
      }
      if (used < 0) throw new Error(`unexpected reserve answer ${used}`);
      const remaining = Math.max(0, s.limit - used);
      return {
        spent: false,
        session: { id: id as string, limit: s.limit, remaining, minted, ttlSeconds: ttl > 0 ? ttl : s.ttlSeconds, nudge: remaining === s.nudgeRemaining },
      };
    } catch (e) {
      if (e instanceof GuestSessionUnavailableError) throw e;
      reportStoreFailure(this.store);
      logger.warn({ err: e instanceof Error ? e.message : String(e) }, "guest search unmetered: limits store unavailable");
      return null;
    }
  }

  private async refund(id: string): Promise<void> {
    try {
      await this.refundScript?.exec([this.key(id)], []);
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
