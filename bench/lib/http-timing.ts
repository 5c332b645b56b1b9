/**
 * Timing helpers shared by the search benches: percentiles, a warm-then-timed loop, and one keep-alive HTTP client
 * used for every endpoint measured (so every figure pays the same client costs).
 */
import http from "node:http";
import { performance } from "node:perf_hooks";
import type { BenchQuery } from "./search-queries";

export function pct(xs: number[], p: number, digits = 2): number {
  const s = [...xs].sort((a, b) => a - b);
  return Number(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))].toFixed(digits));
}

export function stats(xs: number[]) {
  return { n: xs.length, p50_ms: pct(xs, 50), p95_ms: pct(xs, 95), max_ms: pct(xs, 100) };
}
export type Stats = ReturnType<typeof stats>;

export async function timeOnce(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

/** One untimed call to warm, then `rounds` timed calls. */
export async function timed(fn: () => Promise<unknown>, rounds: number): Promise<number[]> {
  await fn();
  const out: number[] = [];
  for (let i = 0; i < rounds; i++) out.push(await timeOnce(fn));
  return out;
}

/** The autocomplete prefix of a bench query: the first three letters of its first word. */
export const acPrefix = (bq: BenchQuery) => bq.q.replace(/"/g, "").split(/\s+/)[0].slice(0, 3);

/** `?q=…&filter=…` of a bench query (and `extra` parameters). */
export const queryString = (q: string, filter: string | undefined, extra = "") =>
  `?q=${encodeURIComponent(q)}${filter ? `&filter=${encodeURIComponent(filter)}` : ""}${extra}`;

/** The keyword, hybrid (semantic ratio 0.5) and autocomplete paths of a bench query. */
export const searchPath = (bq: BenchQuery) => `/api/search/documents${queryString(bq.q, bq.filter)}`;
export const hybridPath = (bq: BenchQuery) => `/api/search/documents${queryString(bq.q, bq.filter, "&semantic_ratio=0.5")}`;
export const autocompletePath = (bq: BenchQuery) => `/api/search/autocomplete${queryString(acPrefix(bq), bq.filter)}`;

/** The endpoints every search bench times, by the name its figures are printed under. */
export const ENDPOINTS = { keyword: searchPath, hybrid: hybridPath, autocomplete: autocompletePath } as const;
export type EndpointName = keyof typeof ENDPOINTS;

/**
 * A keep-alive HTTP client (node:http, one connection reused, the body read to the end and parsed), the same for
 * every endpoint measured: what a load tester does, without fetch's per-request overhead in the figures.
 */
export function httpClient(base: string, cookie?: string) {
  const u = new URL(base);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  let lastServerTiming: string | null = null;
  const get = (p: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.get(
        { host: u.hostname, port: u.port, path: p, agent, headers: cookie ? { cookie } : {} },
        (res) => {
          const parts: Buffer[] = [];
          const timing = res.headers["server-timing"];
          lastServerTiming = typeof timing === "string" ? timing : null;
          res.on("data", (c: Buffer) => parts.push(c));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString("utf8") }));
          res.on("error", reject);
        },
      );
      req.on("error", reject);
    });
  return {
    async json(p: string): Promise<Record<string, unknown>> {
      const r = await get(p);
      if (r.status === 429) {
        throw new Error(`${p} → 429: start the app with the search limits raised (see bench/search.ts header)`);
      }
      if (r.status !== 200) throw new Error(`${p} → ${r.status} ${r.body.slice(0, 300)}`);
      return JSON.parse(r.body) as Record<string, unknown>;
    },
    /** The Server-Timing header of the last answer (the app sends one with SERVER_TIMING=1), or null. */
    serverTiming: () => lastServerTiming,
    close: () => agent.destroy(),
  };
}

/** `limit;dur=0.41, auth;dur=0.02` → { limit: 0.41, auth: 0.02 }. */
export function parseServerTiming(header: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const part of header.split(",")) {
    const m = part.trim().match(/^([\w-]+);dur=([\d.]+)/);
    if (m) out[m[1]] = Number(m[2]);
  }
  return out;
}
