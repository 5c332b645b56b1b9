/**
 * bench/api-v1: the overhead of the reference API's search over the web route it wraps. For each of the
 * 40 bench queries, hybrid (semantic ratio 0.5) through a running app:
 *   web: GET  /api/search/documents?q=…&semantic_ratio=0.5   (signed in, session cookie)
 *   v1:  POST /api/v1/documents/search {query, search_type: "hybrid"}   (X-API-Key of the same user)
 * interleaved query by query on one keep-alive connection each, after an untimed warm-up. Prints JSON: p50/p95 of
 * both, the ratio (target ≤ 1.2), throughput and the bench's memory.
 *
 *   npx tsx bench/api-v1.ts --app-url http://127.0.0.1:3000 [--rounds 5]
 *
 * Start the app with the limits raised: `SEARCH_DOCUMENTS_RATE_LIMIT=1000000 GENERAL_RATE_LIMIT_PER_MINUTE=1000000
 * API_KEY_RATE_LIMIT_PER_HOUR=1000000 npm start`.
 */
import http from "node:http";
import { parseArgs } from "node:util";
import { performance } from "node:perf_hooks";
import { stats } from "./lib/http-timing";
import { SEARCH_BENCH_QUERIES } from "./lib/search-queries";
import { createThrowawayUser, deleteUser } from "./lib/throwaway-user";

const { values } = parseArgs({ options: { "app-url": { type: "string", default: "http://127.0.0.1:3000" }, rounds: { type: "string", default: "5" } } });
const base = new URL(values["app-url"]);
const rounds = Number(values.rounds);

function client() {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const send = (method: string, path: string, headers: Record<string, string>, body?: string) =>
    new Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
      const req = http.request({ host: base.hostname, port: base.port, path, method, agent, headers: { ...headers, ...(body ? { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) } : {}) } }, (res) => {
        const parts: Buffer[] = [];
        res.on("data", (c: Buffer) => parts.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString("utf8"), headers: res.headers }));
        res.on("error", reject);
      });
      req.setTimeout(60_000, () => req.destroy(new Error("time-out")));
      req.on("error", reject);
      req.end(body);
    });
  return {
    async json(method: string, path: string, headers: Record<string, string>, body?: unknown) {
      const r = await send(method, path, headers, body === undefined ? undefined : JSON.stringify(body));
      if (r.status >= 300) throw new Error(`${method} ${path} → ${r.status} ${r.body.slice(0, 300)}`);
      JSON.parse(r.body);
      return r;
    },
    close: () => agent.destroy(),
  };
}

async function main() {
  const user = await createThrowawayUser("bench-api-v1");
  const web = client();
  const v1 = client();
  try {
    const signIn = await web.json("POST", "/api/auth/sign-in", {}, { email: user.email, password: user.password });
    const cookie = ([] as string[]).concat(signIn.headers["set-cookie"] ?? []).map((c) => c.split(";")[0]).join("; ");
    const made = await web.json("POST", "/api/settings/api-keys", { cookie }, { name: "bench" });
    const key = (JSON.parse(made.body) as { key: string }).key;

    const runWeb = (q: string) => web.json("GET", `/api/search/documents?q=${encodeURIComponent(q)}&semantic_ratio=0.5`, { cookie });
    const runV1 = (q: string) => v1.json("POST", "/api/v1/documents/search", { "x-api-key": key }, { query: q, search_type: "hybrid" });

    // Warm-up: two untimed passes of both.
    for (let pass = 0; pass < 2; pass++) for (const bq of SEARCH_BENCH_QUERIES) await Promise.all([runWeb(bq.q), runV1(bq.q)]);

    const samples = { web: [] as number[], v1: [] as number[] };
    const t0 = performance.now();
    for (let r = 0; r < rounds; r++) {
      for (const bq of SEARCH_BENCH_QUERIES) {
        // Alternate which goes first, so neither always meets a cache the other just warmed.
        const order = r % 2 === 0 ? (["web", "v1"] as const) : (["v1", "web"] as const);
        for (const which of order) {
          const s = performance.now();
          await (which === "web" ? runWeb(bq.q) : runV1(bq.q));
          samples[which].push(performance.now() - s);
        }
      }
    }
    const seconds = (performance.now() - t0) / 1000;
    const w = stats(samples.web);
    const a = stats(samples.v1);
    const mem = process.memoryUsage();
    process.stdout.write(
      JSON.stringify(
        {
          url: base.origin,
          queries: SEARCH_BENCH_QUERIES.length,
          rounds,
          web_hybrid: w,
          v1_hybrid: a,
          overhead_ratio: { p50: Number((a.p50_ms / w.p50_ms).toFixed(3)), p95: Number((a.p95_ms / w.p95_ms).toFixed(3)), target: 1.2 },
          throughput_rps: Number(((samples.web.length + samples.v1.length) / seconds).toFixed(1)),
          bench_memory_mb: { rss: Math.round(mem.rss / 2 ** 20), heap_used: Math.round(mem.heapUsed / 2 ** 20) },
        },
        null,
        2,
      ) + "\n",
    );
  } finally {
    web.close();
    v1.close();
    await deleteUser(user.id);
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
