/**
 * bench/app-overhead: the keyword search through a running app against the same backend call served over a bare
 * node:http server (zod parse, search, JSON.stringify — bench/search's "HTTP" figure), measured alternately in
 * blocks so both see the same machine. The bare server reads the app's own index (SEARCH_DATA_DIR, default
 * .data/search), so no database or index build of its own is needed. Prints JSON: p50 per block and overall, the ratio
 * app/HTTP, and the app's Server-Timing phases.
 *
 *   npx tsx bench/app-overhead.ts --app-url http://127.0.0.1:3000 [--blocks 4] [--rounds 3]
 *
 * The app must run with the search limits raised (see bench/search-through-app.ts), SERVER_TIMING=1 for the phases.
 */
import http from "node:http";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import type { Identity } from "../lib/api/identity";
import { httpClient, parseServerTiming, pct, searchPath, timed } from "./lib/http-timing";
import { SEARCH_BENCH_QUERIES } from "./lib/search-queries";
import { createThrowawayUser, deleteUser } from "./lib/throwaway-user";
import { readEnvFile } from "../server/env-file";
import { repoRoot } from "../server/paths";

const { values } = parseArgs({
  options: {
    "app-url": { type: "string", default: "http://127.0.0.1:3000" },
    blocks: { type: "string", default: "4" },
    rounds: { type: "string", default: "3" },
    /** The app server's process id: its CPU time per request is reported too (robust on a busy machine). */
    "app-pid": { type: "string" },
  },
});
process.env.SEARCH_DATA_DIR ??= path.join(repoRoot, ".data", "search");
// The stack's keys (the throwaway user is made through its admin API); nothing else is contacted by the bare server.
const fileEnv = readEnvFile(path.join(repoRoot, ".env.local"));
for (const k of ["SUPABASE_URL", "SUPABASE_ANON_KEY", "SUPABASE_SERVICE_ROLE_KEY"]) process.env[k] ??= fileEnv[k];

/** User + system CPU time of a process so far, in ms (/proc/<pid>/stat, clock ticks of 10 ms). */
function cpuMs(pid: string | undefined): number | null {
  if (!pid || !existsSync(`/proc/${pid}/stat`)) return null;
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").replace(/^.*\) /, "").split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const load = () => (existsSync("/proc/loadavg") ? readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).map(Number) : null);

async function serveKeyword(): Promise<{ url: string; close: () => Promise<void> }> {
  const backend = await import("../lib/backend/search");
  const signedIn = { role: "user", userId: "00000000-0000-4000-8000-000000000000", email: null, via: "cookie", db: null } as unknown as Identity;
  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      try {
        const body: unknown = await backend.mapSearchErrors(() =>
          backend.searchDocuments(backend.SearchDocumentsQuery.parse(Object.fromEntries(url.searchParams.entries())), signedIn),
        );
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
      } catch (e) {
        res.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ error: String(e) }));
      }
    })();
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const port = (server.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(() => r())) };
}

async function main(): Promise<void> {
  const appUrl = (values["app-url"] as string).replace(/\/+$/, "");
  const rounds = Number(values.rounds);
  const user = await createThrowawayUser("bench-overhead");
  const bare = await serveKeyword();
  try {
    const r = await fetch(`${appUrl}/api/auth/sign-in`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: user.email, password: user.password }),
    });
    if (r.status !== 200) throw new Error(`sign-in answered ${r.status}`);
    const cookie = r.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    const app = httpClient(appUrl, cookie);
    const direct = httpClient(bare.url);
    // Warm both (JIT, caches, the app's route module) before any figure.
    const t0 = Date.now();
    while (Date.now() - t0 < 8000) for (const bq of SEARCH_BENCH_QUERIES) { await app.json(searchPath(bq)); await direct.json(searchPath(bq)); }
    const all = { http: [] as number[], app: [] as number[] };
    const phases: Record<string, number[]> = {};
    let appCpu = 0;
    let appCalls = 0; // timed() makes one untimed call first: count every call the CPU time covers.
    const blocks: Array<{ load: number[] | null; http_p50_ms: number; app_p50_ms: number; ratio: number }> = [];
    for (let b = 0; b < Number(values.blocks); b++) {
      const h: number[] = [];
      const a: number[] = [];
      for (const bq of SEARCH_BENCH_QUERIES) {
        const c0 = cpuMs(values["app-pid"]);
        h.push(...(await timed(() => direct.json(searchPath(bq)), rounds)));
        a.push(
          ...(await timed(async () => {
            await app.json(searchPath(bq));
            appCalls++;
            const header = app.serverTiming();
            if (header) for (const [k, ms] of Object.entries(parseServerTiming(header))) (phases[k] ??= []).push(ms);
          }, rounds)),
        );
        const c1 = cpuMs(values["app-pid"]);
        if (c0 !== null && c1 !== null) appCpu += c1 - c0;
      }
      all.http.push(...h);
      all.app.push(...a);
      blocks.push({ load: load(), http_p50_ms: pct(h, 50), app_p50_ms: pct(a, 50), ratio: Number((pct(a, 50) / pct(h, 50)).toFixed(2)) });
    }
    app.close();
    direct.close();
    const out = {
      blocks,
      http: { n: all.http.length, p50_ms: pct(all.http, 50), p95_ms: pct(all.http, 95) },
      app: { n: all.app.length, p50_ms: pct(all.app, 50), p95_ms: pct(all.app, 95) },
      ratio_p50: Number((pct(all.app, 50) / pct(all.http, 50)).toFixed(2)),
      // The app's CPU while the app blocks ran (the HTTP blocks between them leave it idle), per app request.
      app_cpu_ms_per_request: values["app-pid"] ? Number((appCpu / appCalls).toFixed(3)) : null,
      app_server_timing_p50_ms: Object.fromEntries(Object.entries(phases).map(([k, xs]) => [k, pct(xs, 50)])),
    };
    process.stdout.write(JSON.stringify(out, null, 2) + "\n");
  } finally {
    await bare.close();
    await deleteUser(user.id);
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
