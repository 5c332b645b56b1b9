/**
 * bench/limits: the latency the rate limiter and the guest meter add to one search, through the Upstash REST bridge
 * to a real Redis (what every guest search pays before and after the engine). Target: p50 ≤ 2 ms for both together.
 * Uses UPSTASH_REDIS_REST_URL/TOKEN when set; otherwise starts the local gateway's bridge against REDIS_URL
 * (default redis://127.0.0.1:6379). Prints JSON. Usage: npx tsx bench/limits.ts [--iterations 2000]
 */
import { randomUUID } from "node:crypto";
import { GuestMeter } from "../lib/backend/guest";
import { RateLimiter } from "../lib/backend/rate-limit";
import { createLimitsStore } from "../lib/backend/rate-limit-store";
import { startGateway } from "../supabase/local/gateway";
import { generateLocalKeys } from "../supabase/local/keys";

const iterations = Number(process.argv[process.argv.indexOf("--iterations") + 1] || 2000) || 2000;

function stats(ms: number[]) {
  const s = [...ms].sort((a, b) => a - b);
  const at = (q: number) => Number(s[Math.min(s.length - 1, Math.floor(q * s.length))].toFixed(3));
  return { n: s.length, p50_ms: at(0.5), p95_ms: at(0.95), p99_ms: at(0.99), max_ms: Number(s[s.length - 1].toFixed(3)) };
}

async function main() {
  let url = process.env.UPSTASH_REDIS_REST_URL;
  let token = process.env.UPSTASH_REDIS_REST_TOKEN;
  let close = async () => undefined as void;
  if (!url || !token) {
    const keys = await generateLocalKeys("http://127.0.0.1:0");
    const gw = await startGateway({
      port: 0,
      // The bridge alone is used; the database pool never connects.
      databaseUrl: "postgres://unused@127.0.0.1:1/unused",
      privateJwk: keys.privateJwk,
      anonKey: keys.anonKey,
      serviceRoleKey: keys.serviceRoleKey,
      upstashToken: keys.upstashToken,
      redisUrl: process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
    });
    if (!gw.upstash) throw new Error("no Redis answered: start redis-server or set UPSTASH_REDIS_REST_URL");
    ({ url, token } = gw.upstash);
    close = gw.close;
  }
  const store = createLimitsStore({ url, token, timeoutMs: 2000 });
  const limiter = new RateLimiter({
    store,
    prefix: `bench:${randomUUID().slice(0, 8)}`,
    rules: { search: { limit: 1_000_000, windowSeconds: 60 }, ip: { limit: 1_000_000, windowSeconds: 60 }, apiKey: { limit: 1_000_000, windowSeconds: 3600 } },
    fallback: { perMinute: 100, perHour: 1000 },
  });
  const meter = new GuestMeter(store, { limit: 5, ttlSeconds: 300, nudgeRemaining: 2 });
  const engine = async () => ({ hits: 0 });

  // Warm up connections and script caches.
  for (let i = 0; i < 50; i++) {
    await limiter.check("search", "ip:warmup");
    await meter.meter(null, engine);
  }

  // The floor: one bare command through the same bridge.
  const pingMs: number[] = [];
  for (let i = 0; i < Math.min(500, iterations); i++) {
    const t = performance.now();
    await store.ping();
    pingMs.push(performance.now() - t);
  }

  const limiterMs: number[] = [];
  const meterMs: number[] = [];
  const totalMs: number[] = [];
  let cookie: string | null = null;
  let used = 0;
  let sources = new Set<string>();
  for (let i = 0; i < iterations; i++) {
    const ip = `ip:10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
    const t0 = performance.now();
    const v = await limiter.check("search", ip);
    const t1 = performance.now();
    const out: { session: { id: string } | null } = await meter.meter(cookie, engine);
    const t2 = performance.now();
    sources.add(v.source);
    if (!out.session) throw new Error("the meter ran unmetered: the store is not answering");
    // A visitor searches 5 times, then a new visitor comes (the 1st search mints, the others reuse the cookie).
    used += 1;
    cookie = used % 5 === 0 ? null : out.session.id;
    limiterMs.push(t1 - t0);
    meterMs.push(t2 - t1);
    totalMs.push(t2 - t0);
  }
  const total = stats(totalMs);
  console.log(
    JSON.stringify(
      {
        bench: "limits",
        store: url.replace(/\/\/[^@]*@/, "//"),
        iterations,
        limiter_source: [...sources],
        // Machine load matters on a shared box: compare with the bare round trip below.
        load_average_1m: Number((await import("node:os")).loadavg()[0].toFixed(2)),
        bridge_ping: stats(pingMs),
        rate_limiter: stats(limiterMs),
        guest_meter: stats(meterMs),
        added_per_search: total,
        target_p50_ms: 2,
        meets_target: total.p50_ms <= 2,
      },
      null,
      2,
    ),
  );
  sources = new Set();
  await close();
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
