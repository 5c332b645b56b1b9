import { config } from "@/lib/config";
import { withinDeadline } from "../deadline";

export type DependencyStatus = "ok" | "degraded" | "down" | "not_configured";

export interface DependencyReport {
  status: DependencyStatus;
  latency_ms?: number;
  detail?: string;
}

export interface SearchEngineReport extends DependencyReport {
  sync: { last_completed_at: string | null; last_error: string | null };
  /** An embedder switch of this process: {state, id, from, done, total, started_at, finished_at, error}. */
  reembed?: { state: string; done: number; total: number; started_at: string; error: string | null } & Record<string, unknown>;
}

/** One pg-boss cron schedule and its newest run (scheduled_jobs_health(); lib/backend/jobs). */
export interface ScheduleReport {
  name: string;
  cron: string;
  timezone: string;
  /** The newest run that started: pg-boss's state (active, completed, failed, retry, …), null before the first. */
  last_state: string | null;
  last_started_at: string | null;
  last_completed_at: string | null;
  /** Its jobs waiting for a worker (fired slots, catch-up runs, retries). */
  waiting: number;
}

/** The task queue entry lists every scheduled job: they all run on pg-boss in the worker process. */
export interface TaskQueueReport extends DependencyReport {
  schedules?: ScheduleReport[];
}

/** app_events partition readiness (M7): from app_events_partition_health(). */
export interface AppEventsPartitions {
  current_month_ready: boolean;
  /** Consecutive months after this one that have a partition (the job keeps 3). */
  months_ahead: number;
  next_month_ready: boolean;
  /** Rows in the DEFAULT partition (the safety net; counted up to 10,000): their month's partition was missing. */
  default_partition_rows: number;
}

/** The database report carries the partition readiness; a missing next-month partition makes it `degraded`. */
export interface DatabaseReport extends DependencyReport {
  app_events?: AppEventsPartitions;
}

export interface HealthStatus {
  status: "healthy" | "degraded";
  /** The release (package.json's version at build time), or "unknown" outside a build (R-VER-005). */
  version: string;
  /** The commit the build was made from, or "unknown" (a checkout without git). */
  commit: string;
  /** When `next build` ran (ISO 8601), or "unknown". */
  built_at: string;
  /** The demo corpus the database holds ("gen-4-s20260101-n12307": generator version, seed, size); null when unknown or never seeded. */
  corpus_version: string | null;
  timestamp: string;
  dependencies: {
    cache: DependencyReport;
    database: DatabaseReport;
    backend_platform: DependencyReport;
    task_queue: TaskQueueReport;
    llm_tracing: DependencyReport;
    search_engine: SearchEngineReport;
  };
}

export type Check<R extends DependencyReport = DependencyReport> = () => Promise<R>;

/**
 * Run one check with a time limit (HEALTH_CHECK_TIMEOUT_MS: the checks run side by side, so the report comes within
 * about that long whatever hangs); a thrown error or a time-out is reported as `down`, never raised.
 */
export async function timed<R extends DependencyReport>(check: Check<R>): Promise<R | DependencyReport> {
  const started = performance.now();
  const ms = config().HEALTH_CHECK_TIMEOUT_MS;
  try {
    const report = await withinDeadline(check(), ms, `no answer within ${ms} ms`);
    return { latency_ms: Math.round(performance.now() - started), ...report };
  } catch (e) {
    return { status: "down", latency_ms: Math.round(performance.now() - started), detail: (e as Error).message };
  }
}

export interface HealthChecks {
  cache: Check;
  database: Check<DatabaseReport>;
  backend_platform: Check;
  task_queue: Check<TaskQueueReport>;
  llm_tracing: Check;
  search_engine: () => Promise<SearchEngineReport>;
  /** The seeded corpus's version id (public.corpus_version_id()); absent or failing reads as null, never an error. */
  corpus_version?: () => Promise<string | null>;
}

/** extraction_queue_health()'s answer: pg-boss's schema, the newest worker heartbeat, the queue's depth. */
export interface QueueHealth {
  pgboss: boolean;
  heartbeat_age_seconds: number | null;
  queued: number;
  running: number;
}

/**
 * The task queue's entry: `degraded` with the reason when no worker has beaten within `staleSeconds`
 * (EXTRACTION_STALE_SECONDS) or pg-boss's schema is missing: jobs are accepted but nothing works them.
 */
export function taskQueueReport(q: QueueHealth, staleSeconds: number): DependencyReport {
  const depth = `${q.queued} queued, ${q.running} running`;
  if (!q.pgboss) return { status: "degraded", detail: `pg-boss schema missing (no worker has started); ${depth}` };
  const age = q.heartbeat_age_seconds;
  if (age === null || age > staleSeconds) {
    return {
      status: "degraded",
      detail: `pg-boss; no live extraction worker (last heartbeat ${age === null ? "never" : `${Math.round(age)} s ago`}, stale after ${staleSeconds} s); ${depth}`,
    };
  }
  return { status: "ok", detail: `pg-boss; worker heartbeat ${Math.round(age)} s ago; ${depth}` };
}

/**
 * The search engine's entry with its last sync: a last run that failed (an unwritable or full index folder, say)
 * makes an engine that still answers `degraded`, since the index no longer follows the database.
 */
export function withSyncState(report: SearchEngineReport): SearchEngineReport {
  if (report.status !== "ok" || !report.sync.last_error) return report;
  const reason = `the last search sync failed: ${report.sync.last_error}`;
  return { ...report, status: "degraded", detail: report.detail ? `${report.detail}; ${reason}` : reason };
}

/**
 * The running build's identity. next.config.ts inlines APP_VERSION, APP_COMMIT and APP_BUILT_AT when `next build`
 * runs; each needs a direct `process.env.X` reference for that. Outside a Next bundle (the worker, scripts) they come
 * from the environment, else "unknown".
 */
export function buildInfo(): { version: string; commit: string; built_at: string } {
  return {
    version: process.env.APP_VERSION || config().APP_VERSION || "unknown",
    commit: process.env.APP_COMMIT || "unknown",
    built_at: process.env.APP_BUILT_AT || "unknown",
  };
}

/** Collect every dependency's state; anything down makes the whole `degraded` (never an error response). */
export async function healthStatus(checks: HealthChecks): Promise<HealthStatus> {
  const ms = config().HEALTH_CHECK_TIMEOUT_MS;
  const corpusVersion = checks.corpus_version
    ? withinDeadline(checks.corpus_version(), ms, "no answer").catch(() => null)
    : Promise.resolve(null);
  const [cache, database, backend_platform, task_queue, llm_tracing, search, corpus_version] = await Promise.all([
    timed(checks.cache),
    timed(checks.database),
    timed(checks.backend_platform),
    timed(checks.task_queue),
    timed(checks.llm_tracing),
    withinDeadline(checks.search_engine(), config().HEALTH_CHECK_TIMEOUT_MS, `no answer within ${config().HEALTH_CHECK_TIMEOUT_MS} ms`)
      .then(withSyncState)
      .catch((e: Error): SearchEngineReport => ({ status: "down", detail: e.message, sync: { last_completed_at: null, last_error: null } })),
    corpusVersion,
  ]);
  const dependencies = { cache, database: database as DatabaseReport, backend_platform, task_queue, llm_tracing, search_engine: search };
  const essentialMissing = database.status === "not_configured";
  const anyDown = Object.values(dependencies).some((d) => d.status === "down" || d.status === "degraded");
  return {
    status: anyDown || essentialMissing ? "degraded" : "healthy",
    ...buildInfo(),
    corpus_version,
    timestamp: new Date().toISOString(),
    dependencies,
  };
}

/** Generic words per status: what anonymous callers and plain users see instead of dependency messages (L5). */
const GENERIC_DETAIL: Record<DependencyStatus, string | undefined> = {
  ok: undefined,
  degraded: "degraded",
  down: "unavailable",
  not_configured: "not configured",
};

function redact<R extends DependencyReport>(r: R): R {
  const { detail: _detail, ...rest } = r;
  const generic = GENERIC_DETAIL[r.status];
  return (generic ? { ...rest, detail: generic } : rest) as R;
}

/**
 * The health report as a caller may see it (L5): dependency error messages and the sync's last error text
 * can carry hosts, SQL or stack fragments, so only signed-in admins get them; everyone else gets the same shape with
 * a generic word per status and `last_error` reduced to "failed" (null stays null). Statuses, latencies, the sync's
 * last completion time and the partition counts are not secrets and stay.
 */
export function healthForCaller(h: HealthStatus, role: "anonymous" | "user" | "admin"): HealthStatus {
  if (role === "admin") return h;
  const d = h.dependencies;
  const engine = redact(d.search_engine);
  return {
    ...h,
    dependencies: {
      cache: redact(d.cache),
      database: redact(d.database),
      backend_platform: redact(d.backend_platform),
      task_queue: redact(d.task_queue),
      llm_tracing: redact(d.llm_tracing),
      search_engine: {
        ...engine,
        sync: { ...d.search_engine.sync, last_error: d.search_engine.sync.last_error ? "failed" : null },
        ...(d.search_engine.reembed ? { reembed: { ...d.search_engine.reembed, error: d.search_engine.reembed.error ? "failed" : null } } : {}),
      },
    },
  };
}
