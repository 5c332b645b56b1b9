/**
 * The third reading of bench/search's Postgres comparison: both services under concurrent load, as
 * users meet them. For each service in turn, `clients` keep-alive connections (8) send the 40 bench queries (each
 * client starting at a different query and cycling) back to back for `seconds` (30); printed: requests completed,
 * throughput (requests/s), p50/p95/max latency and errors. The warm-block and alternating readings stay as they were
 * (bench/search.ts); this one shows what queueing does to each under the same offered load. Both services run behind
 * the same node:http server in the bench process (the Postgres baseline's SQL runs in the Postgres server process).
 */
import { performance } from "node:perf_hooks";
import { httpClient, searchPath, stats, type Stats } from "./lib/http-timing";
import type { BenchQuery } from "./lib/search-queries";

export interface ConcurrentReading {
  requests: number;
  errors: number;
  throughput_rps: number;
  latency: Stats;
}

async function loadOne(baseUrl: string, paths: string[], clients: number, seconds: number): Promise<ConcurrentReading> {
  const latencies: number[] = [];
  let errors = 0;
  const deadline = performance.now() + seconds * 1000;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      const client = httpClient(baseUrl);
      try {
        for (let i = c; performance.now() < deadline; i++) {
          const t = performance.now();
          try {
            await client.json(paths[i % paths.length]);
            latencies.push(performance.now() - t);
          } catch {
            errors++;
          }
        }
      } finally {
        client.close();
      }
    }),
  );
  const elapsed = (performance.now() - t0) / 1000;
  return { requests: latencies.length, errors, throughput_rps: Number((latencies.length / elapsed).toFixed(1)), latency: stats(latencies) };
}

/** Ours, then the baseline, each under `clients` concurrent clients for `seconds`, after a short untimed warm-up. */
export async function concurrentComparison(
  baseUrl: string,
  queries: readonly BenchQuery[],
  opts: { clients?: number; seconds?: number } = {},
): Promise<Record<string, unknown>> {
  const clients = opts.clients ?? 8;
  const seconds = opts.seconds ?? 30;
  const ours = queries.map(searchPath);
  const base = ours.map((p) => p.replace("/api/", "/baseline/"));
  await loadOne(baseUrl, ours, clients, 2);
  await loadOne(baseUrl, base, clients, 2);
  const oursReading = await loadOne(baseUrl, ours, clients, seconds);
  const baseReading = await loadOne(baseUrl, base, clients, seconds);
  return {
    clients,
    seconds_each: seconds,
    ours: oursReading,
    postgres_fts_baseline: baseReading,
    throughput_ratio: Number((oursReading.throughput_rps / Math.max(0.1, baseReading.throughput_rps)).toFixed(1)),
    p95_ratio: Number((baseReading.latency.p95_ms / Math.max(0.01, oursReading.latency.p95_ms)).toFixed(1)),
  };
}
