import { Ratelimit } from "@upstash/ratelimit";
import type { Redis } from "@upstash/redis";
import { config } from "@/lib/config";
import { logger } from "@/lib/logger";
import { LocalSlidingWindow } from "./rate-limit-local";
import { limitsStore, reportStoreFailure, storeAvailable, storeScript, type StoreScript } from "./rate-limit-store";

/**
 * Rate limits (spec: Limits; D-21): `search` = per client IP on GET /api/search/documents (SEARCH_DOCUMENTS_RATE_LIMIT
 * per minute); `ip` = the general per-IP limit of every other route; `apiKey` = the hourly limit per API key;
 * `authIp` / `authEmail` = sign-in and sign-up attempts per client IP and per hashed e-mail address.
 * Counters live in the limits store (Upstash Redis; process memory when none is configured). When the store fails or
 * times out, a process-local limiter (100/min and 1000/h per subject) decides: never fail open.
 */
export type RuleName = "search" | "ip" | "apiKey" | "authIp" | "authEmail" | QuotaName;
/** Hourly quotas of single operations (QUOTA_* settings); a route names one with `quota` (lib/api/route.ts). */
export type QuotaName =
  | "topicRuns"
  | "discover"
  | "judgeCompare"
  | "reasoningWrites"
  | "dashboardRefresh"
  | "contact"
  | "chatMessages"
  | "precedents"
  | "argumentation"
  | "documentHelpers"
  | "extractionSubmissions";
/**
 * Rules every limiter has; the credential rules (`authIp`, `authEmail`: sign-in and sign-up per client IP and per
 * hashed e-mail, security review L4) are optional so a limiter built for one purpose (a bench, a test) need not name them.
 */
type CoreRuleName = "search" | "ip" | "apiKey";
export type RuleSet = Record<CoreRuleName, RuleSpec> & Partial<Record<Exclude<RuleName, CoreRuleName>, RuleSpec>>;

export interface RuleSpec {
  limit: number;
  windowSeconds: number;
}

export interface RateLimitVerdict {
  success: boolean;
  limit: number;
  remaining: number;
  /** Epoch ms when the window resets. */
  reset: number;
  /** Who decided: the shared store, process memory (no store configured) or the fallback (store down). */
  source: "store" | "memory" | "fallback";
}

export interface RateLimiterOptions {
  store: Redis | null;
  rules: RuleSet;
  fallback: { perMinute: number; perHour: number };
  /** Key prefix in the store. */
  prefix?: string;
  now?: () => number;
}

const WARN_EVERY_MS = 10_000;

/**
 * Several subjects under one rule in one store call (one limiter round trip per request instead of one per
 * subject). The same sliding window as Upstash's `slidingWindow` (this window's count plus the previous window's
 * weighted by its overlap, floored), on the same keys (`<prefix>:<rule>:<subject>:<window index>`), so counters carry
 * over between this and `check`. Subjects are taken in order and the first refusal stops the walk: the subjects before
 * it stay counted, the refused one and those after it are not (as separate calls in that order would do).
 * Answers one number per subject visited: the remaining allowance, or -1 for the refusal.
 */
const SLIDING_WINDOW_MANY = `
local limit = tonumber(ARGV[1])
local now = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
local overlap = 1 - (now % window) / window
local out = {}
for i = 1, #KEYS, 2 do
  local current = tonumber(redis.call("GET", KEYS[i]) or "0")
  local previous = math.floor(overlap * tonumber(redis.call("GET", KEYS[i + 1]) or "0"))
  if previous + current >= limit then
    out[#out + 1] = -1
    return out
  end
  local n = redis.call("INCR", KEYS[i])
  if n == 1 then redis.call("PEXPIRE", KEYS[i], window * 2 + 1000) end
  out[#out + 1] = limit - (n + previous)
end
return out
`;

export class RateLimiter {
  private readonly remote: Partial<Record<RuleName, Ratelimit>> = {};
  /** SLIDING_WINDOW_MANY on the store (storeScript: on a direct store's own connection, else through its client). */
  private readonly manyScript: StoreScript | null;
  private readonly memory: Partial<Record<RuleName, LocalSlidingWindow>>;
  private readonly fallbackMinute: LocalSlidingWindow;
  private readonly fallbackHour: LocalSlidingWindow;
  private lastWarn = 0;

  constructor(private readonly opts: RateLimiterOptions) {
    const now = opts.now ?? Date.now;
    const rules: Partial<Record<RuleName, RuleSpec>> = opts.rules;
    const names = (Object.keys(rules) as RuleName[]).filter((n) => rules[n] !== undefined);
    const spec = (n: RuleName) => rules[n] as RuleSpec;
    this.memory = Object.fromEntries(names.map((n) => [n, new LocalSlidingWindow(spec(n).limit, spec(n).windowSeconds * 1000, now)]));
    this.fallbackMinute = new LocalSlidingWindow(opts.fallback.perMinute, 60_000, now);
    this.fallbackHour = new LocalSlidingWindow(opts.fallback.perHour, 3_600_000, now);
    this.manyScript = opts.store ? storeScript(opts.store, SLIDING_WINDOW_MANY) : null;
    if (opts.store) {
      for (const n of names) {
        this.remote[n] = new Ratelimit({
          redis: opts.store,
          limiter: Ratelimit.slidingWindow(spec(n).limit, `${spec(n).windowSeconds} s`),
          prefix: `${opts.prefix ?? "rl"}:${n}`,
          // 0 disables the library's own time-out, which would answer `success: true` (fail open). The store client
          // aborts slow commands itself (rate-limit-store.ts) and the failure lands in the fallback below.
          timeout: 0,
          analytics: false,
        });
      }
    }
  }

  /** Count one request of `subject` (an IP or an API key id) against `rule`. */
  async check(rule: RuleName, subject: string): Promise<RateLimitVerdict> {
    const memory = this.memory[rule];
    if (!memory) throw new Error(`rate-limit rule ${rule} is not configured`);
    const remote = this.remote[rule];
    if (!remote || !this.opts.store) return { ...memory.take(`${rule}:${subject}`), source: "memory" };
    if (!storeAvailable(this.opts.store)) return this.fallback(subject);
    try {
      const r = await remote.limit(subject);
      // Only a real answer counts; any other reason (timeout, ...) means the store did not decide.
      if (r.reason === undefined || r.reason === "cacheBlock") {
        return { success: r.success, limit: r.limit, remaining: Math.max(0, r.remaining), reset: r.reset, source: "store" };
      }
      this.warn(new Error(`limits store answered with reason ${r.reason}`));
    } catch (e) {
      this.warn(e);
    }
    reportStoreFailure(this.opts.store);
    return this.fallback(subject);
  }

  /**
   * Count one request against `rule` for each of `subjects`, in one store call. Answers the verdicts of the subjects
   * visited, in order; when one refuses it is the last (see SLIDING_WINDOW_MANY).
   */
  async checkAll(rule: RuleName, subjects: string[]): Promise<RateLimitVerdict[]> {
    const memory = this.memory[rule];
    if (!memory) throw new Error(`rate-limit rule ${rule} is not configured`);
    const visit = (decide: (subject: string) => RateLimitVerdict): RateLimitVerdict[] => {
      const out: RateLimitVerdict[] = [];
      for (const subject of subjects) {
        const v = decide(subject);
        out.push(v);
        if (!v.success) break;
      }
      return out;
    };
    const store = this.opts.store;
    if (!store || !this.manyScript) return visit((s) => ({ ...memory.take(`${rule}:${s}`), source: "memory" }));
    if (!storeAvailable(store)) return visit((s) => this.fallback(s));
    const { limit, windowMs } = memory;
    const now = (this.opts.now ?? Date.now)();
    const index = Math.floor(now / windowMs);
    const prefix = `${this.opts.prefix ?? "rl"}:${rule}`;
    const keys = subjects.flatMap((s) => [`${prefix}:${s}:${index}`, `${prefix}:${s}:${index - 1}`]);
    try {
      const answer = await this.manyScript(keys, [String(limit), String(now), String(windowMs)]);
      if (Array.isArray(answer) && answer.length > 0 && answer.length <= subjects.length && answer.every((n) => typeof n === "number")) {
        const reset = (index + 1) * windowMs;
        return answer.map((n: number) => ({ success: n >= 0, limit, remaining: Math.max(0, n), reset, source: "store" as const }));
      }
      this.warn(new Error("limits store answered the window script with an unexpected shape"));
    } catch (e) {
      this.warn(e);
    }
    reportStoreFailure(store);
    return visit((s) => this.fallback(s));
  }

  /** Both process-local windows must admit the request; the tighter one is reported. */
  private fallback(subject: string): RateLimitVerdict {
    const hour = this.fallbackHour.take(subject);
    if (!hour.success) return { ...hour, source: "fallback" };
    const minute = this.fallbackMinute.take(subject);
    const tighter = minute.remaining <= hour.remaining ? minute : hour;
    return { ...tighter, success: minute.success, source: "fallback" };
  }

  private warn(e: unknown): void {
    const now = Date.now();
    if (now - this.lastWarn < WARN_EVERY_MS) return;
    this.lastWarn = now;
    logger.warn({ err: e instanceof Error ? e.message : String(e) }, "limits store unavailable: process-local fallback rate limiter in use");
  }
}

export function quotaRules(): Record<QuotaName, RuleSpec> {
  const c = config();
  const hourly = (limit: number): RuleSpec => ({ limit, windowSeconds: 3600 });
  return {
    topicRuns: hourly(c.QUOTA_TOPIC_RUNS_PER_HOUR),
    discover: hourly(c.QUOTA_DISCOVER_PER_HOUR),
    judgeCompare: hourly(c.QUOTA_JUDGE_COMPARE_PER_HOUR),
    reasoningWrites: hourly(c.QUOTA_REASONING_WRITES_PER_HOUR),
    dashboardRefresh: hourly(c.QUOTA_DASHBOARD_REFRESH_PER_HOUR),
    contact: hourly(c.QUOTA_CONTACT_PER_HOUR),
    chatMessages: hourly(c.QUOTA_CHAT_MESSAGES_PER_HOUR),
    precedents: hourly(c.QUOTA_PRECEDENTS_PER_HOUR),
    argumentation: hourly(c.QUOTA_ARGUMENTATION_PER_HOUR),
    documentHelpers: hourly(c.QUOTA_DOCUMENT_HELPERS_PER_HOUR),
    extractionSubmissions: { limit: c.QUOTA_EXTRACTION_SUBMISSIONS_PER_MINUTE, windowSeconds: 60 },
  };
}

export function rulesFromConfig(): Required<RuleSet> {
  const c = config();
  return {
    search: { limit: c.SEARCH_DOCUMENTS_RATE_LIMIT, windowSeconds: 60 },
    ip: { limit: c.GENERAL_RATE_LIMIT_PER_MINUTE, windowSeconds: 60 },
    apiKey: { limit: c.API_KEY_RATE_LIMIT_PER_HOUR, windowSeconds: 3600 },
    authIp: { limit: c.AUTH_RATE_LIMIT_PER_IP_PER_MINUTE, windowSeconds: 60 },
    authEmail: { limit: c.AUTH_RATE_LIMIT_PER_EMAIL, windowSeconds: c.AUTH_RATE_LIMIT_EMAIL_WINDOW_SECONDS },
    ...quotaRules(),
  };
}

let singleton: { store: Redis | null; limiter: RateLimiter } | null = null;

/** The process's limiter over the configured store (rebuilt if the store configuration changes, e.g. in tests). */
export function rateLimiter(): RateLimiter {
  const store = limitsStore();
  if (!singleton || singleton.store !== store) {
    const c = config();
    singleton = {
      store,
      limiter: new RateLimiter({
        store,
        rules: rulesFromConfig(),
        fallback: { perMinute: c.FALLBACK_RATE_LIMIT_PER_MINUTE, perHour: c.FALLBACK_RATE_LIMIT_PER_HOUR },
        prefix: c.LIMITS_KEY_PREFIX,
      }),
    };
  }
  return singleton.limiter;
}
