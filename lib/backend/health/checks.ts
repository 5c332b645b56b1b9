import { z } from "zod";
import type { DbClient } from "@/lib/supabase/db-client";
import { config } from "@/lib/config";
import { llmTracingEnabled } from "@/lib/llm/call";
import { getSearchEngine } from "@/lib/search/engine";
import { createServiceClient, createTokenClient } from "@/lib/supabase/server";
import { reembedStatus } from "@/lib/backend/settings/reembed";
import { limitsStore } from "@/lib/backend/rate-limit-store";
import { withinDeadline } from "../deadline";
import {
  taskQueueReport,
  timed,
  type AppEventsPartitions,
  type DatabaseReport,
  type DependencyReport,
  type HealthChecks,
  type QueueHealth,
  type ScheduleReport,
  type SearchEngineReport,
  type TaskQueueReport,
} from "./status";

const notConfigured = (detail: string): DependencyReport => ({ status: "not_configured", detail });

/** app_events_partition_health answers jsonb: parsed, not cast. */
const AppEventsPartitionsRow: z.ZodType<AppEventsPartitions> = z.object({
  current_month_ready: z.boolean(),
  months_ahead: z.number(),
  next_month_ready: z.boolean(),
  default_partition_rows: z.number(),
});

/**
 * app_events partition readiness through the service role (M7). Degraded when next month's partition is
 * missing: events still land in the DEFAULT partition, but the job that keeps months ahead is not running.
 */
export async function appEventsPartitionsReport(serviceDb: DbClient): Promise<DatabaseReport> {
  const { data, error } = await serviceDb.rpc("app_events_partition_health");
  const parsed = AppEventsPartitionsRow.safeParse(data);
  if (error || !parsed.success) {
    return { status: "degraded", detail: `app_events partitions unknown: ${error?.message ?? (data ? "unexpected answer" : "no answer")}` };
  }
  const p = parsed.data;
  if (!p.current_month_ready || !p.next_month_ready) {
    return {
      status: "degraded",
      detail: `app_events: ${p.current_month_ready ? "next month's" : "this month's"} partition is missing (events go to the default partition)`,
      app_events: p,
    };
  }
  return { status: "ok", app_events: p };
}

async function database(): Promise<DatabaseReport> {
  const c = config();
  if (!c.SUPABASE_URL || !c.SUPABASE_ANON_KEY) return notConfigured("SUPABASE_URL is not set");
  const { data, error } = await createTokenClient().rpc("health_ping");
  if (error || data !== "ok") return { status: "down", detail: error?.message ?? "unexpected answer" };
  if (!c.SUPABASE_SERVICE_ROLE_KEY) return { status: "ok" };
  return appEventsPartitionsReport(createServiceClient());
}

async function backendPlatform(): Promise<DependencyReport> {
  const c = config();
  if (!c.SUPABASE_URL || !c.SUPABASE_ANON_KEY) return notConfigured("SUPABASE_URL is not set");
  const res = await fetch(`${c.SUPABASE_URL}/auth/v1/health`, { headers: { apikey: c.SUPABASE_ANON_KEY }, cache: "no-store" });
  return res.ok ? { status: "ok", detail: "auth" } : { status: "down", detail: `auth answered ${res.status}` };
}

/**
 * The limits store the app really uses (a direct Redis connection with LIMITS_REDIS_URL, as `npm start` runs it, else
 * Upstash over REST), through its own transport and deadline: a lost Redis is `down` with the reason, and the whole
 * report `degraded`.
 */
async function cache(): Promise<DependencyReport> {
  const store = limitsStore();
  if (!store) return notConfigured("no Redis: rate limits use process memory and the guest allowance is unmetered");
  try {
    const pong = await store.ping();
    return pong === "PONG" ? { status: "ok" } : { status: "down", detail: `ping answered ${String(pong)}` };
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    return { status: "down", detail: `Redis unreachable (${why}): rate limits use process memory and guest searches are unmetered` };
  }
}

/** extraction_queue_health answers jsonb: parsed, not cast. */
const QueueHealthRow: z.ZodType<QueueHealth> = z.object({
  pgboss: z.boolean(),
  heartbeat_age_seconds: z.number().nullable(),
  queued: z.number(),
  running: z.number(),
});

/** scheduled_jobs_health answers jsonb: parsed, not cast. */
const ScheduleRows = z.object({
  pgboss: z.boolean(),
  schedules: z.array(
    z.object({
      name: z.string(),
      cron: z.string(),
      timezone: z.string(),
      last_state: z.string().nullable(),
      last_started_at: z.string().nullable(),
      last_completed_at: z.string().nullable(),
      waiting: z.number(),
    }),
  ),
});

/** Every pg-boss cron schedule with its newest run (P-80); unknown (the call failed) is left out, not fatal. */
async function schedules(): Promise<ScheduleReport[] | undefined> {
  const { data, error } = await createServiceClient().rpc("scheduled_jobs_health");
  if (error || !data) return undefined;
  return ScheduleRows.parse(data).schedules;
}

/**
 * The task queue: pg-boss's schema in our database and the newest worker heartbeat. No schema yet
 * (no worker ever started) or no live worker is `degraded`: jobs are accepted but wait. It lists the scheduled jobs
 * too: every background job is a pg-boss cron schedule worked by the same worker process.
 */
async function taskQueue(): Promise<TaskQueueReport> {
  const c = config();
  if (!c.SUPABASE_URL || !c.SUPABASE_SERVICE_ROLE_KEY) return notConfigured("SUPABASE_URL or the service role key is not set");
  const [{ data, error }, scheduled] = await Promise.all([createServiceClient().rpc("extraction_queue_health"), schedules().catch(() => undefined)]);
  if (error || !data) return { status: "down", detail: `extraction queue unknown: ${error?.message ?? "no answer"}` };
  const report = taskQueueReport(QueueHealthRow.parse(data), c.EXTRACTION_STALE_SECONDS);
  return scheduled ? { ...report, schedules: scheduled } : report;
}

async function llmTracing(): Promise<DependencyReport> {
  // The llm module decides (lib/llm/call.ts): model calls carry telemetry exactly when this is true.
  // "ok" only when a tracer provider is registered, not merely because OTEL_EXPORTER_OTLP_ENDPOINT is set.
  if (llmTracingEnabled()) return { status: "ok", detail: "model calls are traced (an OpenTelemetry tracer provider is registered)" };
  return notConfigured(
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT
      ? "OTEL_EXPORTER_OTLP_ENDPOINT is set but no OpenTelemetry tracer provider is registered (instrumentation.ts did not run)"
      : "no LLM tracing backend configured",
  );
}

/** search_sync_state answers jsonb: parsed, not cast. */
const SyncState = z.object({ last_completed_at: z.string().nullable(), last_error: z.string().nullable() });
type SyncState = z.infer<typeof SyncState>;

async function syncState(): Promise<SyncState> {
  const { data, error } = await createServiceClient().rpc("search_sync_state");
  if (error || !data) return { last_completed_at: null, last_error: null };
  return SyncState.parse(data);
}

async function engineReport(): Promise<DependencyReport> {
  const h = await getSearchEngine().health();
  const detail = `${h.engine}: ${h.documents} documents, ${h.chunks} chunks, embedder ${h.embedder.label}${h.message ? `; ${h.message}` : ""}`;
  return { status: h.status, detail };
}

/** The engine's own report plus the last recorded sync run; an engine that cannot answer is `down`. */
async function searchEngine(): Promise<SearchEngineReport> {
  const ms = config().HEALTH_CHECK_TIMEOUT_MS;
  const unknown = { last_completed_at: null, last_error: null };
  const [health, sync] = await Promise.all([timed(engineReport), withinDeadline(syncState(), ms, "no answer").catch(() => unknown)]);
  const reembed = reembedStatus();
  return reembed ? { ...health, sync, reembed: { ...reembed } } : { ...health, sync };
}

/** The seeded demo corpus's version id; null before the first seed or without a database. */
async function corpusVersion(): Promise<string | null> {
  const c = config();
  if (!c.SUPABASE_URL || !c.SUPABASE_ANON_KEY) return null;
  const { data, error } = await createTokenClient().rpc("corpus_version_id");
  return error || typeof data !== "string" ? null : data;
}

export function defaultChecks(): HealthChecks {
  return {
    cache, database, backend_platform: backendPlatform, task_queue: taskQueue, llm_tracing: llmTracing, search_engine: searchEngine,
    corpus_version: corpusVersion,
  };
}
