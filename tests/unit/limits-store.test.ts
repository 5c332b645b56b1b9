import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { resetConfigForTests } from "@/lib/config";
import { RateLimiter } from "@/lib/backend/rate-limit";
import { createLimitsStore } from "@/lib/backend/rate-limit-store";

/**
 * The limits store's own REST transport (rate-limit-store.ts) against real sockets: a server that stalls, one that
 * drops a kept-alive connection, one that answers an error. Redis itself is exercised through the gateway's bridge in
 * tests/db/guest-store.test.ts.
 */
type Handler = (req: IncomingMessage, res: ServerResponse, body: string, nth: number) => void;

const servers: Server[] = [];

async function serve(handler: Handler): Promise<{ url: string; requests: { path: string; body: string; auth?: string }[]; sockets: Set<Socket> }> {
  const requests: { path: string; body: string; auth?: string }[] = [];
  const sockets = new Set<Socket>();
  const srv = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      requests.push({ path: req.url ?? "", body, auth: req.headers.authorization });
      handler(req, res, body, requests.length);
    });
  });
  srv.on("connection", (s: Socket) => sockets.add(s));
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  servers.push(srv);
  const { port } = srv.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/upstash`, requests, sockets };
}

afterEach(async () => {
  resetConfigForTests();
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise<void>((r) => s.close(() => r()));
  }
});

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify(body));
};

describe("limits store transport", () => {
  it("speaks the Upstash REST protocol: bearer token, JSON command body, /pipeline path, UTF-8 replies", async () => {
    const srv = await serve((req, res, body) => {
      if (req.url?.endsWith("/pipeline")) json(res, 200, (JSON.parse(body) as unknown[]).map(() => ({ result: "OK" })));
      else json(res, 200, { result: "värde" });
    });
    const store = createLimitsStore({ url: srv.url, token: "tok", timeoutMs: 1000 });
    expect(await store.get("k")).toBe("värde");
    const p = store.pipeline();
    p.set("a", "1");
    p.set("b", "2");
    expect(await p.exec()).toEqual(["OK", "OK"]);
    expect(srv.requests).toEqual([
      { path: "/upstash", body: '["get","k"]', auth: "Bearer tok" },
      { path: "/upstash/pipeline", body: '[["set","a","1"],["set","b","2"]]', auth: "Bearer tok" },
    ]);
  });

  it("sends each command at once (no auto-pipelining) over one kept-alive connection", async () => {
    const srv = await serve((_req, res) => json(res, 200, { result: 1 }));
    const store = createLimitsStore({ url: srv.url, token: "tok", timeoutMs: 1000 });
    for (let i = 0; i < 5; i++) await store.incr("n");
    expect(srv.requests.map((r) => r.path)).toEqual(Array(5).fill("/upstash"));
    expect(srv.sockets.size).toBe(1);
  });

  it("throws a Redis error with its message and without the command's text (which may hold a guest id)", async () => {
    const srv = await serve((_req, res) => json(res, 400, { error: "WRONGTYPE Operation against a key holding the wrong kind of value" }));
    const store = createLimitsStore({ url: srv.url, token: "tok", timeoutMs: 1000 });
    const err = await store.incr("guest:v1:secret-session-id").then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(err?.name).toBe("UpstashError");
    expect(err?.message).toBe("WRONGTYPE Operation against a key holding the wrong kind of value");
    expect(err?.message).not.toContain("secret-session-id");
  });

  it("a stalled store throws at the deadline (never resolves), so the limiter's fallback decides: no fail-open", async () => {
    // Accepts the command and never answers.
    const srv = await serve(() => undefined);
    const store = createLimitsStore({ url: srv.url, token: "tok", timeoutMs: 150 });
    await expect(store.incr("n")).rejects.toThrow(/did not answer within 150 ms/);
    const rl = new RateLimiter({
      store: createLimitsStore({ url: srv.url, token: "tok", timeoutMs: 150, retryAfterMs: 60_000 }),
      rules: { search: { limit: 60, windowSeconds: 60 }, ip: { limit: 100, windowSeconds: 60 }, apiKey: { limit: 1000, windowSeconds: 3600 } },
      fallback: { perMinute: 2, perHour: 1000 },
    });
    const verdicts = [];
    for (let i = 0; i < 3; i++) verdicts.push(await rl.check("search", "ip:10.9.9.9"));
    expect(verdicts.map((v) => [v.source, v.success])).toEqual([
      ["fallback", true],
      ["fallback", true],
      ["fallback", false],
    ]);
  });

  it("retries once on a fresh connection when the server dropped the kept-alive one unanswered", async () => {
    // The 2nd request arrives on the connection the 1st one left open; the server drops it without answering (what
    // an idle-timeout close racing a new request looks like), then answers the retry on a new connection.
    const srv = await serve((req, res, _body, nth) => {
      if (nth === 2) req.socket.destroy();
      else json(res, 200, { result: nth });
    });
    const store = createLimitsStore({ url: srv.url, token: "tok", timeoutMs: 1000 });
    expect(await store.incr("n")).toBe(1);
    expect(await store.incr("n")).toBe(3);
    expect(srv.sockets.size).toBe(2);
  });

  it("does not retry a second time: a store that keeps dropping connections is a failure", async () => {
    const srv = await serve((req, res, _body, nth) => {
      if (nth === 1) json(res, 200, { result: 1 });
      else req.socket.destroy();
    });
    const store = createLimitsStore({ url: srv.url, token: "tok", timeoutMs: 1000 });
    await store.incr("n");
    await expect(store.incr("n")).rejects.toThrow();
    expect(srv.requests.length).toBe(3);
  });
});
