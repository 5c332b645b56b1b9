/**
 * The 40 bench queries (keyword, hybrid 0.5, autocomplete) through a running app, signed in as a throwaway user
 * (deleted at the end). Used by bench/search (--app-url) and by bench/search-through-app (no index build). The app
 * must be started with the search limits raised: `SEARCH_DOCUMENTS_RATE_LIMIT=1000000
 * GENERAL_RATE_LIMIT_PER_MINUTE=1000000 npm start`.
 *
 * Warm-up: the queries first run untimed for WARMUP_MS (at least one whole pass). In bench/search the app has sat
 * idle through the build and the other phases, and the first pass after them was 1.3-1.8× slower than the next
 * ones (autocomplete p95 9.1, 7.1, 5.5, 5.1 ms in four passes in a row, the same with the bench's own heap collected
 * first), which is the machine and the app waking up, not the app warm.
 */
import { performance } from "node:perf_hooks";
import { ENDPOINTS, httpClient, parseServerTiming, pct, stats, timed, type EndpointName, type Stats } from "./http-timing";
import { SEARCH_BENCH_QUERIES } from "./search-queries";
import { createThrowawayUser, deleteUser } from "./throwaway-user";

export interface AppLatency {
  url: string;
  signed_in: true;
  /** The untimed warm-up before the figures. */
  warmup: { ms: number; passes: number };
  keyword: Stats;
  hybrid: Stats;
  autocomplete: Stats;
  /**
   * Where a keyword search's time goes inside the route wrapper (p50 of each Server-Timing phase: limit, auth,
   * handler), when the app runs with SERVER_TIMING=1; the rest of the client's figure is Next's router and HTTP.
   */
  keyword_server_timing_p50_ms: Record<string, number> | null;
}

/** Sign a throwaway user in through the running app; returns the Cookie header and the user (to delete). */
export async function appSession(appUrl: string): Promise<{ cookie: string; userId: string }> {
  const user = await createThrowawayUser("bench-search");
  const r = await fetch(`${appUrl}/api/auth/sign-in`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: user.email, password: user.password }),
  });
  if (r.status !== 200) {
    await deleteUser(user.id);
    throw new Error(`sign-in answered ${r.status}: ${(await r.text()).slice(0, 300)}`);
  }
  const cookie = r.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  return { cookie, userId: user.id };
}

const WARMUP_MS = 10_000;

export async function measureThroughApp(appUrl: string, rounds: number): Promise<AppLatency> {
  const url = appUrl.replace(/\/+$/, "");
  const session = await appSession(url);
  const app = httpClient(url, session.cookie);
  try {
    const t0 = performance.now();
    let warmupPasses = 0;
    const names = Object.keys(ENDPOINTS) as EndpointName[];
    do {
      for (const bq of SEARCH_BENCH_QUERIES) for (const name of names) await app.json(ENDPOINTS[name](bq));
      warmupPasses++;
    } while (performance.now() - t0 < WARMUP_MS);
    const warmup = { ms: Math.round(performance.now() - t0), passes: warmupPasses };
    const samples: Record<EndpointName, number[]> = { keyword: [], hybrid: [], autocomplete: [] };
    const phases: Record<string, number[]> = {};
    for (const bq of SEARCH_BENCH_QUERIES) {
      for (const name of names) {
        const keyword = name === "keyword";
        samples[name].push(
          ...(await timed(async () => {
            await app.json(ENDPOINTS[name](bq));
            const header = keyword ? app.serverTiming() : null;
            if (header) for (const [phase, ms] of Object.entries(parseServerTiming(header))) (phases[phase] ??= []).push(ms);
          }, rounds)),
        );
      }
    }
    return {
      url,
      signed_in: true,
      warmup,
      keyword: stats(samples.keyword),
      hybrid: stats(samples.hybrid),
      autocomplete: stats(samples.autocomplete),
      keyword_server_timing_p50_ms: Object.keys(phases).length ? Object.fromEntries(Object.entries(phases).map(([k, xs]) => [k, pct(xs, 50)])) : null,
    };
  } finally {
    app.close();
    await deleteUser(session.userId);
  }
}
