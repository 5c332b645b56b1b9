import { Redis } from "@upstash/redis";
import { config } from "@/lib/config";
import { getSearchEngine } from "@/lib/search/engine";
import { createServiceClient, createTokenClient } from "@/lib/supabase/server";
import { timed, type DependencyReport, type HealthChecks, type SearchEngineReport } from "./status";

const notConfigured = (detail: string): DependencyReport => ({ status: "not_configured", detail });

async function database(): Promise<DependencyReport> {
  const c = config();
  if (!c.SUPABASE_URL || !c.SUPABASE_ANON_KEY) return notConfigured("SUPABASE_URL is not set");
  const { data, error } = await createTokenClient().rpc("health_ping");
  if (error || data !== "ok") return { status: "down", detail: error?.message ?? "unexpected answer" };
  return { status: "ok" };
}

async function backendPlatform(): Promise<DependencyReport> {
  const c = config();
  if (!c.SUPABASE_URL || !c.SUPABASE_ANON_KEY) return notConfigured("SUPABASE_URL is not set");
  const res = await fetch(`${c.SUPABASE_URL}/auth/v1/health`, { headers: { apikey: c.SUPABASE_ANON_KEY }, cache: "no-store" });
  return res.ok ? { status: "ok", detail: "auth" } : { status: "down", detail: `auth answered ${res.status}` };
}

async function cache(): Promise<DependencyReport> {
  const c = config();
  if (!c.UPSTASH_REDIS_REST_URL || !c.UPSTASH_REDIS_REST_TOKEN) {
    return notConfigured("no Redis: rate limits use process memory and the guest allowance is unmetered");
  }
  const redis = new Redis({ url: c.UPSTASH_REDIS_REST_URL, token: c.UPSTASH_REDIS_REST_TOKEN, retry: false });
  const pong = await redis.ping();
  return pong === "PONG" ? { status: "ok" } : { status: "down", detail: `ping answered ${String(pong)}` };
}

async function taskQueue(): Promise<DependencyReport> {
  return notConfigured("no external task queue; scheduled jobs (search sync, event partitions) run in-process");
}

async function llmTracing(): Promise<DependencyReport> {
  return notConfigured("no LLM tracing backend configured");
}

interface SyncState {
  last_completed_at: string | null;
  last_error: string | null;
}

async function syncState(): Promise<SyncState> {
  const { data, error } = await createServiceClient().rpc("search_sync_state");
  if (error || !data) return { last_completed_at: null, last_error: null };
  return data as SyncState;
}

async function engineReport(): Promise<DependencyReport> {
  const h = await getSearchEngine().health();
  const detail = `${h.engine}: ${h.documents} documents, ${h.chunks} chunks, embedder ${h.embedder.label}${h.message ? `; ${h.message}` : ""}`;
  return { status: h.status, detail };
}

/** The engine's own report plus the last recorded sync run; an engine that cannot answer is `down`. */
async function searchEngine(): Promise<SearchEngineReport> {
  const [health, sync] = await Promise.all([timed(engineReport), syncState().catch(() => ({ last_completed_at: null, last_error: null }))]);
  return { ...health, sync };
}

export function defaultChecks(): HealthChecks {
  return { cache, database, backend_platform: backendPlatform, task_queue: taskQueue, llm_tracing: llmTracing, search_engine: searchEngine };
}
