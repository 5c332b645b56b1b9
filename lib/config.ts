import { z } from "zod";

/**
 * Every setting and limit of the service, read once from the environment and validated. The single source for limits
 * (spec: Limits) — other modules call `config()` rather than reading process.env.
 */
const int = (def: number, min = 0) => z.coerce.number().int().min(min).default(def);
const optionalUrl = z
  .string()
  .trim()
  .transform((v) => (v === "" ? undefined : v))
  .pipe(z.url().optional())
  .optional();

const ConfigSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  APP_VERSION: z.string().default("unknown"),
  APP_URL: optionalUrl,

  SUPABASE_URL: optionalUrl,
  SUPABASE_ANON_KEY: z.string().optional(),
  SUPABASE_SERVICE_ROLE_KEY: z.string().optional(),
  DATABASE_URL: z.string().optional(),

  UPSTASH_REDIS_REST_URL: optionalUrl,
  UPSTASH_REDIS_REST_TOKEN: z.string().optional(),
  /**
   * The limits store (rate limits, guest allowance) on a direct Redis connection (`redis://…`) instead of Upstash's
   * REST API; takes precedence over UPSTASH_REDIS_REST_URL. `npm start` sets it to the Redis its gateway bridges.
   */
  LIMITS_REDIS_URL: optionalUrl,

  MEILI_HOST: optionalUrl,
  MEILI_API_KEY: z.string().optional(),
  MEILI_INDEX: z.string().default("judgments"),
  SEARCH_DATA_DIR: z.string().optional(),

  OPENAI_API_KEY: z.string().optional(),
  OPENAI_BASE_URL: optionalUrl,
  LLM_MODEL: z.string().default("gpt-4o-mini"),
  EMBEDDING_MODEL: z.string().optional(),

  /** Behind one proxy you control: the same as TRUSTED_PROXY_HOPS=1 (D-22; see TRUSTED_PROXY_HOPS and _CIDRS). */
  TRUSTED_PROXY: z
    .string()
    .optional()
    .transform((v) => v === "1" || v === "true"),

  SEARCH_DOCUMENTS_RATE_LIMIT: int(60, 1),
  GENERAL_RATE_LIMIT_PER_MINUTE: int(100, 1),
  API_KEY_RATE_LIMIT_PER_HOUR: int(1000, 1),
  /**
   * Sign-in and sign-up attempts (security review L4: each costs a bcrypt on the auth server): per client IP per
   * minute, and per e-mail address (hashed) per AUTH_RATE_LIMIT_EMAIL_WINDOW_SECONDS, whatever address they come from.
   */
  AUTH_RATE_LIMIT_PER_IP_PER_MINUTE: int(20, 1),
  AUTH_RATE_LIMIT_PER_EMAIL: int(10, 1),
  AUTH_RATE_LIMIT_EMAIL_WINDOW_SECONDS: int(900, 1),
  /**
   * The local Auth server (supabase/local/gateway/auth; docs/local-stack.md). Sign-ups per client address per window,
   * counted at the Auth server itself (Supabase's default: 30 per 5 minutes per IP); the app's own sign-ups all come
   * from the app server's address, so this also caps sign-ups through the app.
   */
  AUTH_SIGNUP_RATE_LIMIT_PER_IP: int(30, 1),
  AUTH_SIGNUP_RATE_LIMIT_WINDOW_SECONDS: int(300, 1),
  /**
   * Whether a local sign-up is confirmed at once (on by default: `npm start` then sign up, no mail to open). Off, a
   * sign-up gets a confirmation mail through SMTP_URL and no session until the link is opened. Either way alert mail
   * goes only to confirmed addresses, and a change of address always waits for its confirmation link.
   */
  AUTH_AUTOCONFIRM: z
    .enum(["0", "1", "false", "true"])
    .default("1")
    .transform((v) => v === "1" || v === "true"),
  /** A password change by token alone (PUT /auth/v1/user) needs a sign-in this recent, or the current password. */
  AUTH_PASSWORD_CHANGE_RECENT_SIGNIN_SECONDS: int(24 * 3600, 0),
  /**
   * Per-hour quotas of costly or abusable operations (one mechanism: `quota` on a route, lib/api/rate-limit.ts):
   * signed-in callers are counted by their hashed user identity, anonymous ones by client address.
   */
  QUOTA_TOPIC_RUNS_PER_HOUR: int(10, 1),
  QUOTA_DISCOVER_PER_HOUR: int(10, 1),
  QUOTA_JUDGE_COMPARE_PER_HOUR: int(30, 1),
  QUOTA_REASONING_WRITES_PER_HOUR: int(30, 1),
  QUOTA_DASHBOARD_REFRESH_PER_HOUR: int(2, 1),
  QUOTA_CONTACT_PER_HOUR: int(5, 1),
  // Per-user hourly quotas of the model-or-retrieval assistants (spec: 30 precedents, 10 argumentation).
  QUOTA_CHAT_MESSAGES_PER_HOUR: int(100, 1),
  QUOTA_PRECEDENTS_PER_HOUR: int(30, 1),
  QUOTA_ARGUMENTATION_PER_HOUR: int(10, 1),
  QUOTA_DOCUMENT_HELPERS_PER_HOUR: int(60, 1),
  // Extraction job submissions per user per minute (429 beyond).
  QUOTA_EXTRACTION_SUBMISSIONS_PER_MINUTE: int(10, 1),
  /** Content area (blog, publications, contact): list sizes; a larger or smaller `limit` is clamped. */
  BLOG_PAGE_SIZE_DEFAULT: int(10, 1),
  BLOG_PAGE_SIZE_MAX: int(50, 1),
  PUBLICATIONS_PAGE_SIZE_DEFAULT: int(20, 1),
  PUBLICATIONS_PAGE_SIZE_MAX: int(50, 1),
  CONTENT_ADMIN_PAGE_SIZE_DEFAULT: int(20, 1),
  CONTENT_ADMIN_PAGE_SIZE_MAX: int(100, 1),
  /**
   * Body cap of blog post writes: a 100,000-character Markdown body with the other fields, at up to two UTF-8 bytes a
   * character (Polish letters are two); 256 KiB is also the most the security suite allows any route.
   */
  CONTENT_BODY_MAX_BYTES: int(256 * 1024, 1),
  // Topic modelling (analysis-topics): the largest sample a run may model (the issue's 2,000), and how many
  // judgments each topic lists.
  TOPIC_SAMPLE_SIZE_MAX: int(2000, 20),
  TOPIC_SAMPLE_DOCUMENTS: int(5, 1),
  // --- analysis-lines (judge fingerprint, reasoning lines) ---
  /** Newest judgments of a judge whose full text is scored for reasoning style (bounds a profile's time and memory). */
  JUDGE_STYLE_MAX_TEXTS: int(300, 1),
  /**
   * Below these a judge's style scores are "not enough text" (null, with the reason), never a number: a rate from a
   * handful of judgments or phrases is noise (a judge with 1 judgment and 2 phrases would otherwise score extreme).
   */
  JUDGE_STYLE_MIN_JUDGMENTS: int(3, 1),
  JUDGE_STYLE_MIN_PHRASES: int(20, 1),
  /** The fewest counted judgments of a court level (the judge's own left out) that make a baseline to measure against. */
  JUDGE_BASELINE_MIN_JUDGMENTS: int(30, 2),
  /**
   * How long one profile may spend counting and storing the judgments of its court level that have no stored phrase
   * counts yet, before measuring against what is counted (the answer says how many are pending; the next profile and
   * the worker's job count the rest). Kept well inside REQUEST_DEADLINE_READ_MS; 0 turns it off.
   */
  JUDGE_BASELINE_FILL_MS: int(3000, 0),
  /** Cosine similarity at or above which two judgments of a candidate line are joined by an edge (0-100, percent). */
  REASONING_EDGE_THRESHOLD_PCT: int(80, 0),
  /** Drift: a member whose similarity to its line's centroid is below mean − this many standard deviations (×10). */
  REASONING_DRIFT_SD_X10: int(15, 0),
  /**
   * How long one app process serves the dashboard row from memory before reading it again (target: p50 ≤ 5 ms
   * through the app). The row changes once a day or on an admin refresh (which clears this process's copy); 0 turns it off.
   */
  DASHBOARD_STATS_CACHE_MS: int(5000, 0),
  FALLBACK_RATE_LIMIT_PER_MINUTE: int(100, 1),
  FALLBACK_RATE_LIMIT_PER_HOUR: int(1000, 1),
  GUEST_SEARCH_LIMIT: int(5, 1),
  GUEST_NUDGE_REMAINING: int(2, 0),
  GUEST_SESSION_TTL_SECONDS: int(24 * 3600, 60),
  /** Where the guest 429 sends a visitor to create an account (D-15: `upgrade_url`). */
  GUEST_UPGRADE_URL: z.string().default("/sign-up?reason=guest-limit"),
  /** A limits-store call (rate limiter or guest meter) slower than this counts as the store being down. */
  LIMITS_STORE_TIMEOUT_MS: int(500, 1),
  /**
   * Namespace of the rate-limit keys in the store, so several deployments (or a dev server and a test run) can share
   * one Redis without sharing counters.
   */
  LIMITS_KEY_PREFIX: z.string().regex(/^[A-Za-z0-9:_-]{1,64}$/).default("rl"),
  /** After the limits store failed, it is left alone this long (local fallback / unmetered) before being tried again. */
  LIMITS_STORE_RETRY_MS: int(5_000, 0),
  /**
   * Who serves the build's hashed scripts and stylesheets (`/_next/static/`) in production: "memory" (default, for a
   * deployment without a proxy: the app compresses each file once and keeps it, server/app/static-assets.ts) or "next"
   * (Next's own handler; behind the proxy of deploy/, which serves the files precompressed at build time, P-75).
   */
  STATIC_ASSETS: z.enum(["memory", "next"]).default("memory"),
  /**
   * Add a `Server-Timing` header (limit, auth, handler durations) to every API answer: where a request's time goes,
   * visible in the browser's devtools and to bench/search. Off by default (it tells callers how long checks took).
   */
  SERVER_TIMING: z
    .enum(["0", "1", "false", "true"])
    .default("0")
    .transform((v) => v === "1" || v === "true"),
  /** How long a verified API key is remembered in process before it is looked up again (revocation delay). */
  API_KEY_CACHE_SECONDS: int(30, 0),
  /** Secret mixed into the hashed per-user rate-limit identity; defaults to the service role key when unset. */
  RATE_LIMIT_IDENTITY_SECRET: z.string().optional(),
  SAVE_FROM_FILTER_MAX_DOCUMENTS: int(5000, 1),
  /** Most members a cited cohort stores (its member id list is kept to show what changed since). */
  COHORT_CITE_MAX_DOCUMENTS: int(20000, 1),
  /** Bootstrap resamples behind the interval of a median difference in cohort compare (seeded: deterministic). */
  COHORT_COMPARE_BOOTSTRAP_RESAMPLES: int(1000, 100),
  BULK_ADD_CHUNK_SIZE: int(1000, 1),
  MAX_BATCH_DOCUMENT_IDS: int(100, 1),
  PAGE_SIZE_DEFAULT: int(20, 1),
  PAGE_SIZE_MAX: int(100, 1),
  SEARCH_TOTAL_CAP: int(1000, 1),
  /**
   * Embedded engine: documents whose text is read to check a quoted phrase's word positions, per phrase (the keyword
   * index stores no positions; docs/search.md "Query language"). A phrase whose words co-occur in more documents is
   * matched by co-occurrence, with a query warning.
   */
  SEARCH_PHRASE_VERIFY_MAX: int(2000, 1),
  AUTOCOMPLETE_CROP_TOKENS: int(24, 1),
  EVENTS_MAX_BATCH: int(20, 1),
  EVENTS_MAX_PROPERTIES_BYTES: int(8 * 1024, 1),
  EVENTS_MESSAGE_MAX_CHARS: int(200, 1),
  SEARCH_HISTORY_LIMIT_DEFAULT: int(20, 1),
  SEARCH_HISTORY_LIMIT_MAX: int(100, 1),
  /** Longest query text kept in search_analytics (longer text is truncated, never rejected: recording is best-effort). */
  SEARCH_ANALYTICS_QUERY_MAX_CHARS: int(1000, 1),
  /** Search analytics rows wait in process at most this long before one batched write (lib/backend/search-analytics.ts). */
  SEARCH_ANALYTICS_FLUSH_MS: int(1000, 1),
  /** …or until this many are waiting. */
  SEARCH_ANALYTICS_BATCH_MAX: int(100, 1),
  FACET_VALUES_LIMIT: int(20, 1),
  FACET_CACHE_SECONDS: int(60, 0),
  UPSTREAM_TIMEOUT_MS: int(30_000, 1),
  SEARCH_SYNC_INTERVAL_HOURS: int(6, 1),
  // Filter cost is bounded (security review H1).
  /** Values in one IN / any-of list, in the `filter` expression and in the structured `filters` object alike. */
  FILTER_MAX_LIST_VALUES: int(100, 1),
  /** IN / any-of values in one request, summed over the `filter` expression and the `filters` object together. */
  FILTER_MAX_TOTAL_VALUES: int(500, 1),
  /**
   * Conditions (comparisons, ranges, lists, EXISTS/IS tests) in one `filter` expression. The structured `filters`
   * object is bounded by its keys (one condition each). 64 leaves room for any filter a person writes; hundreds of
   * OR-ed comparisons are an attack on the in-process evaluator, not a query.
   */
  FILTER_MAX_CONDITIONS: int(64, 1),

  // Search-analytics retries and queue bound (L8).
  /** A batch whose record_searches write fails is requeued; each row is tried at most this many times. */
  SEARCH_ANALYTICS_MAX_ATTEMPTS: int(5, 1),
  /** At most this many rows wait in process; past it the oldest are dropped with a warning. */
  SEARCH_ANALYTICS_QUEUE_CAP: int(10_000, 1),
  /** On SIGTERM/SIGINT the app server waits at most this long for the last analytics flush. */
  SHUTDOWN_FLUSH_TIMEOUT_MS: int(5_000, 1),
  // Session cookie attributes (M2). See lib/supabase/options.ts.
  /** Lifetime of the session cookies in the browser (@supabase/ssr would set 400 days); the gateway's session time-box matches. */
  SESSION_MAX_AGE_SECONDS: int(7 * 24 * 3600, 60),
  /**
   * `Secure` on the session cookies. Unset: on in production, except when APP_URL is plain http on a loopback host
   * (`npm start` on http://127.0.0.1:3000, where Safari and Firefox would drop a Secure cookie).
   */
  COOKIE_SECURE: z.enum(["0", "1", "false", "true"]).optional(),
  // (the request pipeline, lib/api/route.ts and lib/api/client-address.ts).
  /** Hard cap on every JSON request body unless the route names a larger one (security review H2). */
  REQUEST_BODY_MAX_BYTES: int(64 * 1024, 1),
  /** Cap on sign-in / sign-up bodies: an e-mail and a password fit in far less. */
  CREDENTIALS_BODY_MAX_BYTES: int(1024, 1),
  /** Cap on POST /api/events (20 events x 8 KB of properties plus envelopes). */
  EVENTS_BODY_MAX_BYTES: int(256 * 1024, 1),
  /**
   * After a body passed its cap, up to this much more is read and thrown away (never held) so the client can read
   * its 413; a body still arriving beyond that is cut off (the connection is reset).
   */
  REQUEST_BODY_DRAIN_BYTES: int(1024 * 1024, 0),
  /**
   * Number of proxies in front of the app that append to X-Forwarded-For (security review M5). The client is the
   * entry this many places left of the right-most (the socket peer). TRUSTED_PROXY=1 means 1.
   */
  TRUSTED_PROXY_HOPS: int(0, 0),
  /**
   * Comma-separated CIDRs of trusted proxies (IPv4 and IPv6). When set, the client is the right-most X-Forwarded-For
   * entry outside these ranges; it takes precedence over TRUSTED_PROXY_HOPS.
   */
  TRUSTED_PROXY_CIDRS: z.string().optional(),

  // Admin area (roles, bans, panel, dashboard statistics; docs/admin.md).
  /**
   * How long an app process trusts its copy of the banned set and the admin set (auth_access_snapshot()). A ban or a
   * revoked role made through this process applies at once (the copy is dropped); one made elsewhere within this long.
   */
  ADMIN_ACCESS_CACHE_TTL_MS: int(10_000, 0),
  /** Largest page of GET /api/admin/users and of GET /api/admin/activity. */
  ADMIN_USERS_PAGE_MAX: int(100, 1),
  ADMIN_ACTIVITY_PAGE_MAX: int(200, 1),
  /**
   * Largest file an admin may upload on /admin/imports (413 BODY_TOO_LARGE past it). The file is streamed to disk,
   * never held in memory, so this bounds disk use and the worker's run, not the app's memory.
   */
  IMPORT_UPLOAD_MAX_BYTES: int(256 * 1024 * 1024, 1),
  /**
   * Where uploaded files wait for the worker's import (deleted once run). Unset: `imports` beside the search index
   * folder (SEARCH_DATA_DIR's parent), the folder the app and the worker already share.
   */
  IMPORT_UPLOAD_DIR: z.string().optional(),
  /**
   * An import batch (one transaction, lib/import/run.ts) is written once it holds this many characters of judgment
   * text and HTML (full_text + full_html), even before `--batch` records: a batch of 200 Find Case Law judgments held
   * ~11 M characters, and two batches live at once (one written while the next is read), so the importer's memory
   * grew with the documents' size rather than staying bounded.
   */
  IMPORT_BATCH_MAX_CHARS: int(4_000_000, 1),
  /** How long a ban set from the panel lasts (GoTrue ban_duration; about a century = until lifted). */
  ADMIN_BAN_DURATION: z.string().regex(/^\d+h$/).default("876000h"),
  // Accounts (helper "accounts"): saved searches, mail, alerts.
  /** Saved searches per user (409 SAVED_SEARCH_LIMIT past it). */
  SAVED_SEARCHES_MAX_PER_USER: int(200, 1),
  /** nodemailer transport URL (smtp:// or smtps://user:pass@host:port); the local stack sets its own catcher. */
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default("Judgment Search <alerts@localhost>"),
  /** Where the contact form's notification goes (none: messages are only stored for /admin/messages). */
  CONTACT_NOTIFY_EMAIL: z.string().email().optional(),
  /** Time-outs of every SMTP connection: connect, greeting, and socket inactivity. */
  SMTP_TIMEOUT_MS: int(10_000, 100),
  /** Tries per digest mail (the first one included); the wait doubles from SMTP_RETRY_BASE_MS. */
  SMTP_MAX_ATTEMPTS: int(3, 1),
  SMTP_RETRY_BASE_MS: int(1_000, 0),
  /** Judgments listed per saved search in one digest (the total is given as well). */
  ALERT_DIGEST_MAX_ITEMS: int(20, 1),
  /** Users a digest run serves at once (database connections and SMTP sessions it holds). */
  ALERT_DIGEST_CONCURRENCY: int(4, 1),
  /** Secret for the unsubscribe links' HMAC; unset: derived from SUPABASE_SERVICE_ROLE_KEY. */
  ALERT_TOKEN_SECRET: z.string().min(16).optional(),
  // The reference API for servers and the users' API keys (api-v1 area).
  /** At most this many active (unrevoked, unexpired) API keys per user. */
  API_KEYS_MAX_ACTIVE_PER_USER: int(10, 1),
  /** last_used_at of a key is written at most once per this many seconds per key and process. */
  API_KEY_TOUCH_INTERVAL_SECONDS: int(60, 1),
  /** /api/v1/statistics lists a query among popular_queries only when at least this many searches used it. */
  API_V1_POPULAR_QUERY_MIN_COUNT: int(5, 2),
  /** The window of /api/v1/statistics' search_activity, in days. */
  API_V1_STATISTICS_DAYS: int(30, 1),
  /** The window of /api/v1/trends, in months. */
  API_V1_TRENDS_MONTHS: int(24, 1),
  // Schemas with versions, extraction jobs, the rules extractor.
  /** Fields in one extraction schema. */
  SCHEMA_MAX_FIELDS: int(100, 1),
  /** Values of one enum / enum[] field. */
  SCHEMA_MAX_ENUM_VALUES: int(200, 1),
  /** Input budget of the model extractor per judgment (≈ 4 characters a token); longer texts keep the sections that matter. */
  EXTRACTION_MAX_INPUT_TOKENS: int(12_000, 500),
  /** Documents one extraction worker process works on at once. */
  EXTRACTION_WORKER_CONCURRENCY: int(2, 1),
  /** Extraction jobs one user may have running at once. */
  EXTRACTION_MAX_RUNNING_JOBS_PER_USER: int(3, 1),
  /** Documents one extraction job may name (document_ids or a collection's members). */
  EXTRACTION_MAX_DOCUMENTS: int(5_000, 1),
  /** Seconds between an extraction worker's heartbeats. */
  EXTRACTION_HEARTBEAT_SECONDS: int(5, 1),
  /** A running job whose worker has not beaten for this long is taken over by another worker. */
  EXTRACTION_STALE_SECONDS: int(30, 2),
  // Every model call's time budget and retries on 429/5xx (the ai SDK backs off between tries).
  /** Time budget of one model call, in ms. */
  LLM_TIMEOUT_MS: int(30_000, 100),
  /** Retries of a model call answered 429 or 5xx (0 = one try only). */
  LLM_MAX_RETRIES: int(2, 0),
  // The approximate document-vector index (lib/search/lancedb/ann.ts, P-51).
  /** From this many document vectors on, hybrid search probes an IVF partition instead of scanning every vector. */
  SEARCH_ANN_MIN_DOCUMENTS: int(20_000, 1),
  /**
   * Share of the IVF lists (about √N of them) a hybrid query probes, in percent, up to the demo corpus's 111 lists;
   * beyond, the probes grow like √lists (lib/search/lancedb/ann.ts probeCount). More: higher recall and slower.
   */
  SEARCH_ANN_PROBE_PERCENT: int(25, 1),
  // How much of a judgment a model reads, and the precedent finder's retrieval.
  /** Characters of one judgment sent to a model (summaries, key points, argumentation); the opening and reasons are kept. */
  ASSISTANT_MODEL_TEXT_MAX_CHARS: int(24_000, 1000),
  /** Candidates the precedent finder retrieves per result asked when a model re-scores them (capped at 100). */
  PRECEDENTS_CANDIDATE_FACTOR: int(3, 1),
  /** Vector share of the precedent finder's hybrid retrieval (0 keyword … 1 vector). */
  PRECEDENTS_SEMANTIC_RATIO: z.coerce.number().min(0).max(1).default(0.6),
  // Limits of the chat with retrieval.
  /** Characters of a passage kept as a chat source's excerpt (a chunk is ~400 tokens). */
  CHAT_EXCERPT_MAX_CHARS: int(4_000, 200),
  /** Sentences of an extractive (no-model) answer. */
  CHAT_EXTRACTIVE_MAX_SENTENCES: int(6, 1),
  /** Earlier messages of a thread a follow-up carries (the model's context; the extractive query's extra words). */
  CHAT_HISTORY_MAX_MESSAGES: int(6, 0),
  // The launcher's supervision, request budgets, health time limits.
  /** The pg-boss queue the extraction worker process works (a test or a second deployment names its own). */
  EXTRACTION_WORKER_QUEUE: z.string().min(1).default("extraction-job"),
  /**
   * The scheduled jobs the worker process works (P-80, lib/backend/jobs): "all", "none" (an extraction-only
   * worker: it neither registers the schedules nor fires their cron), or a comma list of job names (a test works only
   * the harmless ones; every worker that schedules registers the whole plan).
   */
  SCHEDULED_JOBS: z.string().min(1).default("all"),
  /** A scheduled job active this long is presumed lost with its worker: pg-boss fails it and a live worker retries it. */
  SCHEDULED_JOB_EXPIRE_SECONDS: int(1_800, 1),
  /** The wait before a failed (or expired) scheduled run is tried again, unless the job sets its own (the digests: 1 h). */
  SCHEDULED_JOB_RETRY_SECONDS: int(60, 0),
  /** How often the worker's pg-boss supervisor expires lost jobs and archives finished ones (pg-boss's default). */
  PGBOSS_MAINTENANCE_SECONDS: int(120, 1),
  /** The launcher restarts a crashed child after this long, doubling per crash in a row (server/supervise.ts)… */
  SUPERVISE_RESTART_INITIAL_MS: int(1_000, 1),
  /** …up to this long between tries… */
  SUPERVISE_RESTART_MAX_MS: int(30_000, 1),
  /** …and a child that ran this long before it died counts as healthy: the next wait starts again at the initial one. */
  SUPERVISE_STABLE_MS: int(60_000, 1),
  /**
   * One budget per API request (docs/faults.md, "Deadlines are budgets"): every outbound call a read makes (gateway,
   * database, search engine, Redis, model) draws from this many ms in total, so two slow calls cannot add up to twice
   * the wait; past it the request answers 504 UPSTREAM_TIMEOUT. UPSTREAM_TIMEOUT_MS still caps each single call.
   */
  REQUEST_DEADLINE_READ_MS: int(10_000, 1),
  /** The same budget for writes (POST, PUT, PATCH, DELETE): longer, as a write may wait on a lock or a model. */
  REQUEST_DEADLINE_WRITE_MS: int(30_000, 1),
  /** The budget of a request whose body is a streamed upload (withRoute rawBody: /admin/imports), sent at the client's pace. */
  UPLOAD_DEADLINE_MS: int(15 * 60_000, 1),
  /** The read of who is banned and who is admin (lib/backend/admin/access.ts): past it the last copy is used. */
  ACCESS_SNAPSHOT_TIMEOUT_MS: int(2_000, 1),
  /** Each dependency check of /api/health/status: past it the dependency is reported `down` (the checks run side by side). */
  HEALTH_CHECK_TIMEOUT_MS: int(3_000, 1),
});

export type Config = z.infer<typeof ConfigSchema>;

let cached: Config | null = null;

export function config(): Config {
  if (!cached) {
    const parsed = ConfigSchema.safeParse(process.env);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
      throw new Error(`Invalid configuration: ${issues}`);
    }
    cached = parsed.data;
  }
  return cached;
}

/** Tests change the environment between cases; they call this to re-read it. */
export function resetConfigForTests(): void {
  cached = null;
}
