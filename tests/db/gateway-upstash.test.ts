import { spawn, type ChildProcess } from "node:child_process";
import { createHash, randomUUID } from "node:crypto";
import { createServer } from "node:net";
import { Ratelimit } from "@upstash/ratelimit";
import { Redis } from "@upstash/redis";
import IORedis from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGateway } from "../../supabase/local/gateway";
import { generateLocalKeys } from "../../supabase/local/keys";
import { stackEnv } from "../helpers/stack";

const env = stackEnv();
// Every key this file writes starts with the prefix, so the shared Redis is cleaned without touching anyone else's.
const prefix = `test-gw-${randomUUID()}`;
const direct = new IORedis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379", { lazyConnect: true });

function upstash(opts: { base64?: boolean } = {}): Redis {
  if (!env.upstashUrl || !env.upstashToken) {
    throw new Error("the test stack found no Redis at REDIS_URL (default 127.0.0.1:6379); these tests need one");
  }
  return new Redis({
    url: env.upstashUrl,
    token: env.upstashToken,
    responseEncoding: opts.base64 === false ? false : "base64",
    retry: false,
    enableTelemetry: false,
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

afterAll(async () => {
  await direct.connect().catch(() => undefined);
  const keys = await direct.keys(`${prefix}*`);
  if (keys.length) await direct.del(...keys);
  direct.disconnect();
});

describe("gateway /upstash bridge with the real @upstash/redis client", () => {
  it("set/get round-trips text (base64 response encoding, the client's default)", async () => {
    const r = upstash();
    expect(await r.set(`${prefix}:a`, "zażółć gęślą jaźń")).toBe("OK");
    expect(await r.get(`${prefix}:a`)).toBe("zażółć gęślą jaźń");
    expect(await r.get(`${prefix}:missing`)).toBeNull();
    await r.set(`${prefix}:json`, { n: 1, tags: ["x"] });
    expect(await r.get(`${prefix}:json`)).toEqual({ n: 1, tags: ["x"] });
    expect(await r.incrby(`${prefix}:n`, 5)).toBe(5);
    expect(await r.type(`${prefix}:a`)).toBe("string");
  });

  it("works without base64 encoding too", async () => {
    const r = upstash({ base64: false });
    await r.hset(`${prefix}:h`, { f1: "v1", f2: "2" });
    expect(await r.hgetall(`${prefix}:h`)).toEqual({ f1: "v1", f2: 2 });
    expect(await r.exists(`${prefix}:h`, `${prefix}:nope`)).toBe(1);
  });

  it("runs pipelines and multi-exec transactions", async () => {
    const r = upstash();
    const p = r.pipeline();
    p.set(`${prefix}:p1`, "one");
    p.incr(`${prefix}:p2`);
    p.get(`${prefix}:p1`);
    expect(await p.exec()).toEqual(["OK", 1, "one"]);
    const tx = r.multi();
    tx.incr(`${prefix}:t`);
    tx.incr(`${prefix}:t`);
    tx.expire(`${prefix}:t`, 60);
    expect(await tx.exec()).toEqual([1, 2, 1]);
  });

  it("reports Redis errors as Upstash does: thrown for a command, per entry in a pipeline", async () => {
    const r = upstash();
    await r.set(`${prefix}:str`, "text");
    await expect(r.incr(`${prefix}:str`)).rejects.toThrow(/not an integer/);
    const p = r.pipeline();
    p.incr(`${prefix}:str`);
    p.get(`${prefix}:str`);
    const out = await p.exec({ keepErrors: true });
    expect(out[0].error).toMatch(/not an integer/);
    expect(out[1].result).toBe("text");
  });

  it("refuses a wrong token with 401 and commands that would break the shared connection", async () => {
    const wrong = new Redis({ url: env.upstashUrl as string, token: "not-the-token", retry: false, enableTelemetry: false });
    await expect(wrong.get(`${prefix}:a`)).rejects.toThrow();
    const res = await fetch(env.upstashUrl as string, {
      method: "POST",
      headers: { authorization: "Bearer not-the-token" },
      body: JSON.stringify(["PING"]),
    });
    expect(res.status).toBe(401);
    const select = await fetch(env.upstashUrl as string, {
      method: "POST",
      headers: { authorization: `Bearer ${env.upstashToken}` },
      body: JSON.stringify(["SELECT", "1"]),
    });
    expect(select.status).toBe(400);
    expect(((await select.json()) as { error: string }).error).toMatch(/not supported/);
  });

  it("runs @upstash/ratelimit's sliding window (its #!lua shebang scripts are stripped for Redis 7.0)", async () => {
    const limiter = new Ratelimit({
      redis: upstash(),
      limiter: Ratelimit.slidingWindow(3, "60 s"),
      prefix: `${prefix}:rl`,
      analytics: false,
    });
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await limiter.limit("caller-1"));
    expect(results.map((r) => r.success)).toEqual([true, true, true, false]);
    expect(results[0].limit).toBe(3);
    expect(results[2].remaining).toBe(0);
    // A second caller has its own window; EVALSHA of the original script sha now hits the stored mapping.
    const other = await limiter.limit("caller-2");
    expect(other.success).toBe(true);
    expect(other.remaining).toBe(2);
    const remaining = await limiter.getRemaining("caller-1");
    expect(remaining.remaining).toBe(0);
  });

  it("aborts a multi-exec whose command Redis refuses while queueing (400, nothing applied)", async () => {
    const res = await fetch(`${env.upstashUrl}/multi-exec`, {
      method: "POST",
      headers: { authorization: `Bearer ${env.upstashToken}` },
      body: JSON.stringify([["SET", `${prefix}:m`, "1"], ["SET", `${prefix}:m`]]),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(/EXECABORT|wrong number/i);
    expect(await upstash().get(`${prefix}:m`)).toBeNull();
  });

  it("maps EVALSHA of a SCRIPT LOADed shebang script to the stripped one", async () => {
    const r = upstash();
    const script = "#!lua flags=allow-key-locking\nreturn redis.call('INCR', KEYS[1])";
    const sha = await r.scriptLoad(script);
    expect(sha).toBe(createHash("sha1").update(script).digest("hex"));
    expect(await r.scriptExists(sha)).toEqual([1]);
    expect(await r.evalsha(sha, [`${prefix}:s`], [])).toBe(1);
    expect(await r.eval(script, [`${prefix}:s`], [])).toBe(2);
  });
});

describe("gateway /upstash against a private Redis", () => {
  let redis: ChildProcess | undefined;
  let port = 0;

  beforeAll(async () => {
    port = await freePort();
    redis = spawn(process.env.REDIS_SERVER_BIN ?? "redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
      stdio: "ignore",
    });
    const probe = new IORedis(port, "127.0.0.1", { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    probe.on("error", () => undefined); // connection refused while the server starts
    for (let i = 0; ; i++) {
      try {
        await probe.connect();
        await probe.ping();
        break;
      } catch (e) {
        if (i > 50) throw e;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    probe.disconnect();
  });
  afterAll(() => {
    if (redis?.pid && redis.exitCode === null) process.kill(redis.pid, "SIGTERM");
  });

  it("reloads a mapped script after Redis forgot it (SCRIPT FLUSH → NOSCRIPT); answers 503 once Redis is gone", async () => {
    const keys = await generateLocalKeys("http://127.0.0.1");
    const gw = await startGateway({
      port: 0,
      databaseUrl: env.databaseUrl,
      privateJwk: keys.privateJwk,
      anonKey: keys.anonKey,
      serviceRoleKey: keys.serviceRoleKey,
      upstashToken: keys.upstashToken,
      redisUrl: `redis://127.0.0.1:${port}`,
    });
    try {
      const r = new Redis({ url: gw.upstash!.url, token: gw.upstash!.token, retry: false, enableTelemetry: false });
      const script = "#!lua flags=allow-key-locking\nreturn redis.call('INCR', KEYS[1])";
      const sha = await r.scriptLoad(script);
      expect(await r.evalsha(sha, ["k"], [])).toBe(1);
      expect(await r.scriptFlush()).toBe("OK");
      expect(await r.evalsha(sha, ["k"], [])).toBe(2);

      // Redis going away after start is a 503, not a command error.
      const exited = new Promise((resolve) => redis!.once("exit", resolve));
      process.kill(redis!.pid!, "SIGTERM");
      await exited;
      const res = await fetch(gw.upstash!.url, {
        method: "POST",
        headers: { authorization: `Bearer ${gw.upstash!.token}` },
        body: JSON.stringify(["GET", "k"]),
      });
      expect(res.status).toBe(503);
    } finally {
      await gw.close();
    }
  });
});

describe("gateway /upstash without Redis", () => {
  it("returns upstash null and answers 503 when no Redis answers at start", async () => {
    const keys = await generateLocalKeys("http://127.0.0.1");
    const gw = await startGateway({
      port: 0,
      databaseUrl: env.databaseUrl,
      privateJwk: keys.privateJwk,
      anonKey: keys.anonKey,
      serviceRoleKey: keys.serviceRoleKey,
      upstashToken: keys.upstashToken,
      redisUrl: "redis://127.0.0.1:1",
    });
    try {
      expect(gw.upstash).toBeNull();
      const res = await fetch(`${gw.url}/upstash`, {
        method: "POST",
        headers: { authorization: `Bearer ${keys.upstashToken}` },
        body: JSON.stringify(["PING"]),
      });
      expect(res.status).toBe(503);
    } finally {
      await gw.close();
    }
  });
});
