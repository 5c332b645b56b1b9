/**
 * bench/dashboard: GET /api/dashboard/stats through a running app (target p50 ≤ 5 ms). The route
 * reads the one precomputed row (get_dashboard_stats(): a primary-key read) through the gateway's RPC, so the figure
 * is the web tier plus one RPC, whatever the corpus size. Prints JSON.
 *
 *   GENERAL_RATE_LIMIT_PER_MINUTE=1000000 npm start        # the bench sends more than 100 requests a minute
 *   npm run bench:dashboard -- [--url http://127.0.0.1:3000] [--rounds 1000] [--concurrency 8]
 *
 * Sequential calls on one keep-alive connection give the latency percentiles; then `concurrency` connections in
 * parallel give the throughput. An untimed warm-up pass first (the row is computed on the first read if empty).
 */
import http from "node:http";
import { parseArgs } from "node:util";
import { performance } from "node:perf_hooks";
import { stats } from "./lib/http-timing";

const { values } = parseArgs({
  options: {
    url: { type: "string", default: "http://127.0.0.1:3000" },
    rounds: { type: "string", default: "1000" },
    concurrency: { type: "string", default: "8" },
  },
});
const base = new URL(values.url);
const ROUNDS = Math.max(10, Number(values.rounds) || 1000);
const CONCURRENCY = Math.max(1, Number(values.concurrency) || 8);
const PATH = "/api/dashboard/stats";

function getter(agent: http.Agent) {
  return () =>
    new Promise<number>((resolve, reject) => {
      const req = http.get({ host: base.hostname, port: base.port, path: PATH, agent }, (res) => {
        let bytes = 0;
        res.on("data", (c: Buffer) => (bytes += c.length));
        res.on("end", () => {
          if (res.statusCode === 429) reject(new Error("429: start the app with GENERAL_RATE_LIMIT_PER_MINUTE raised (see the header)"));
          else if (res.statusCode !== 200) reject(new Error(`${PATH} → ${res.statusCode}`));
          else resolve(bytes);
        });
        res.on("error", reject);
      });
      req.on("error", reject);
    });
}

async function main() {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const get = getter(agent);
  let bytes = 0;
  // Warm-up: a cold app (first compile of the route, first JWKS/pool connections) may time out once on a loaded
  // machine; those failures are counted, not fatal.
  let warmupErrors = 0;
  for (let i = 0; i < 50; i++) bytes = await get().catch((e: unknown) => {
    if (++warmupErrors > 10) throw e;
    return bytes;
  });
  const samples: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t0 = performance.now();
    await get();
    samples.push(performance.now() - t0);
  }
  agent.destroy();

  const pool = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const getPar = getter(pool);
  let done = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (done < ROUNDS) {
        done++;
        await getPar();
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  pool.destroy();

  const mem = process.memoryUsage();
  console.log(
    JSON.stringify(
      {
        bench: "dashboard",
        url: `${base.origin}${PATH}`,
        response_bytes: bytes,
        warmup_errors: warmupErrors,
        sequential: stats(samples),
        target_p50_ms: 5,
        throughput: { concurrency: CONCURRENCY, requests: ROUNDS, rps: Math.round(ROUNDS / seconds) },
        bench_process_rss_mb: Math.round(mem.rss / 1024 / 1024),
      },
      null,
      2,
    ),
  );
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
