/**
 * bench/citations-layers: where the cited-by request's time goes, one layer at a time, measured interleaved so every
 * layer sees the same machine (issue 39 §4; docs/citations.md "Speed"). Per round, in turn:
 *   - db:        `select public.citing_judgments(…)` straight to Postgres (one round trip, the function's own time);
 *   - gateway:   the RPC the app makes (POST /rest/v1/rpc/citing_judgments, the same arguments and keys);
 *   - app-fixed: a cited-by request the app refuses before any database call (a path id that is no UUID: routing,
 *                limiter, auth, error answer), the app's fixed cost of a route;
 *   - app:       GET /api/documents/{id}/cited-by, the whole request.
 * Prints JSON: p50/p95 per layer, the differences of the p50s (app − gateway, gateway − db), and with --app-pid /
 * --gateway-pid / --db-pid each process's CPU per request of its layer (/proc, 10 ms ticks: use many rounds).
 *
 *   npx tsx bench/citations-layers.ts --app-url http://127.0.0.1:3000 [--rounds 300] [--cited-id UUID]
 *     [--app-pid N] [--gateway-pid N]
 *
 * The gateway URL, keys and database come from .env.local (the stack's own; DATABASE_URL else the embedded cluster on
 * POSTGRES_PORT). Start the app with GENERAL_RATE_LIMIT_PER_MINUTE=1000000, as for bench/citations.ts.
 */
import http from "node:http";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { pct } from "./lib/http-timing";
import { readEnvFile } from "../server/env-file";
import { embeddedPostgresUrl, repoRoot } from "../server/paths";

const { values } = parseArgs({
  options: {
    "app-url": { type: "string", default: "http://127.0.0.1:3000" },
    rounds: { type: "string", default: "300" },
    "cited-id": { type: "string" },
    "app-pid": { type: "string" },
    "gateway-pid": { type: "string" },
  },
});
const env = { ...readEnvFile(path.join(repoRoot, ".env.local")), ...process.env } as Record<string, string | undefined>;
const gatewayUrl = env.SUPABASE_URL ?? "http://127.0.0.1:54321";
const anonKey = env.SUPABASE_ANON_KEY ?? "";
const databaseUrl = env.DATABASE_URL ?? embeddedPostgresUrl();
const appUrl = (values["app-url"] as string).replace(/\/+$/, "");
const rounds = Number(values.rounds) || 300;

function cpuMs(pid: string | undefined): number | null {
  if (!pid || !existsSync(`/proc/${pid}/stat`)) return null;
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").replace(/^.*\) /, "").split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
const loadavg = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).map(Number);

/** One keep-alive connection per target; the answer is read whole and its status checked. */
function client(base: string, headers: Record<string, string> = {}) {
  const u = new URL(base);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  return (method: string, p: string, body?: string, expect = 200) =>
    new Promise<string>((resolve, reject) => {
      const req = http.request(
        { host: u.hostname, port: u.port, path: p, method, agent, headers: { ...headers, ...(body ? { "content-type": "application/json" } : {}) } },
        (res) => {
          const parts: Buffer[] = [];
          res.on("data", (c: Buffer) => parts.push(c));
          res.on("end", () => {
            const text = Buffer.concat(parts).toString("utf8");
            if (res.statusCode !== expect) reject(new Error(`${method} ${p} → ${res.statusCode} ${text.slice(0, 200)}`));
            else resolve(text);
          });
          res.on("error", reject);
        },
      );
      req.on("error", reject);
      req.end(body);
    });
}

async function main(): Promise<void> {
  const app = client(appUrl);
  const gateway = client(gatewayUrl, { apikey: anonKey, authorization: `Bearer ${anonKey}` });
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const id =
      (values["cited-id"] as string | undefined) ??
      (JSON.parse(await app("GET", "/api/search/documents?q=&sort=cited_by&limit=1")) as { hits: { id: string }[] }).hits[0]?.id;
    if (!id) throw new Error("no judgment in the index");
    // What lib/backend/citations.ts sends for a default cited-by page.
    const args = { p_cites: id, p_jurisdiction: null, p_court: null, p_outcome: null, p_from: null, p_to: null, p_sort: "newest", p_limit: 20, p_offset: 0 };
    const layers: Record<string, { run: () => Promise<unknown>; pid?: string }> = {
      db: { run: () => db.query("select public.citing_judgments($1, null, null, null, null, null, 'newest', 20, 0)::text as body", [id]) },
      gateway: { run: () => gateway("POST", "/rest/v1/rpc/citing_judgments", JSON.stringify(args)), pid: values["gateway-pid"] },
      "app-fixed": { run: () => app("GET", "/api/documents/not-a-uuid/cited-by", undefined, 400), pid: values["app-pid"] },
      app: { run: () => app("GET", `/api/documents/${id}/cited-by`), pid: values["app-pid"] },
    };
    const times: Record<string, number[]> = Object.fromEntries(Object.keys(layers).map((k) => [k, []]));
    const cpu: Record<string, number> = Object.fromEntries(Object.keys(layers).map((k) => [k, 0]));
    for (let i = 0; i < 30; i++) for (const l of Object.values(layers)) await l.run(); // warm up
    const load0 = loadavg();
    // Blocks of 10 calls per layer, layers in turn: /proc's 10 ms ticks need a few calls to say anything.
    for (let r = 0; r < rounds; r += 10) {
      for (const [name, l] of Object.entries(layers)) {
        const c0 = cpuMs(l.pid);
        for (let k = 0; k < 10; k++) {
          const t0 = performance.now();
          await l.run();
          times[name].push(performance.now() - t0);
        }
        const c1 = cpuMs(l.pid);
        if (c0 !== null && c1 !== null) cpu[name] += c1 - c0;
      }
    }
    const p50 = (k: string) => pct(times[k], 50, 3);
    const out = {
      bench: "citations-layers",
      cited_id: id,
      load: { start: load0, end: loadavg() },
      p50_ms: Object.fromEntries(Object.keys(layers).map((k) => [k, p50(k)])),
      p95_ms: Object.fromEntries(Object.keys(layers).map((k) => [k, pct(times[k], 95, 3)])),
      shares_ms: {
        gateway_minus_db: Number((p50("gateway") - p50("db")).toFixed(3)),
        app_minus_gateway: Number((p50("app") - p50("gateway")).toFixed(3)),
      },
      cpu_ms_per_request: Object.fromEntries(
        Object.entries(layers)
          .filter(([, l]) => l.pid)
          .map(([k]) => [k, Number((cpu[k] / times[k].length).toFixed(3))]),
      ),
    };
    process.stdout.write(JSON.stringify(out, null, 2) + "\n");
  } finally {
    await db.end();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
