import { config } from "@/lib/config";

export type DependencyStatus = "ok" | "degraded" | "down" | "not_configured";

export interface DependencyReport {
  status: DependencyStatus;
  latency_ms?: number;
  detail?: string;
}

export interface SearchEngineReport extends DependencyReport {
  sync: { last_completed_at: string | null; last_error: string | null };
}

export interface HealthStatus {
  status: "healthy" | "degraded";
  version: string;
  timestamp: string;
  dependencies: {
    cache: DependencyReport;
    database: DependencyReport;
    backend_platform: DependencyReport;
    task_queue: DependencyReport;
    llm_tracing: DependencyReport;
    search_engine: SearchEngineReport;
  };
}

export type Check = () => Promise<DependencyReport>;

const CHECK_TIMEOUT_MS = 3000;

/** Run one check with a time limit; a thrown error or a time-out is reported as `down`, never raised. */
export async function timed(check: Check): Promise<DependencyReport> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    const report = await Promise.race([
      check(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
      }),
    ]);
    return { latency_ms: Math.round(performance.now() - started), ...report };
  } catch (e) {
    return { status: "down", latency_ms: Math.round(performance.now() - started), detail: (e as Error).message };
  } finally {
    clearTimeout(timer);
  }
}

export interface HealthChecks {
  cache: Check;
  database: Check;
  backend_platform: Check;
  task_queue: Check;
  llm_tracing: Check;
  search_engine: () => Promise<SearchEngineReport>;
}

/** Collect every dependency's state; anything down makes the whole `degraded` (never an error response). */
export async function healthStatus(checks: HealthChecks): Promise<HealthStatus> {
  const [cache, database, backend_platform, task_queue, llm_tracing, search] = await Promise.all([
    timed(checks.cache),
    timed(checks.database),
    timed(checks.backend_platform),
    timed(checks.task_queue),
    timed(checks.llm_tracing),
    checks.search_engine().catch(
      (e: Error): SearchEngineReport => ({ status: "down", detail: e.message, sync: { last_completed_at: null, last_error: null } }),
    ),
  ]);
  const dependencies = { cache, database, backend_platform, task_queue, llm_tracing, search_engine: search };
  const essentialMissing = database.status === "not_configured";
  const anyDown = Object.values(dependencies).some((d) => d.status === "down" || d.status === "degraded");
  return {
    status: anyDown || essentialMissing ? "degraded" : "healthy",
    // next.config.ts inlines APP_VERSION (package.json's version unless set) at build time; a direct reference is needed for that.
    version: process.env.APP_VERSION || config().APP_VERSION || "unknown",
    timestamp: new Date().toISOString(),
    dependencies,
  };
}
