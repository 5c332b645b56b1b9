/**
 * The PostgREST transport of the server's Supabase clients (lib/supabase/rest-transport.ts): node:http in place of
 * the global fetch for /rest/v1 calls. What supabase-js reads from it must be what it read from fetch: status, status
 * text, headers, body; "fetch failed" with the cause when nothing answers; the signal's reason on an abort.
 */
import http from "node:http";
import { gzipSync } from "node:zlib";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { timedFetch, UpstreamTimeoutError } from "@/lib/supabase/timeout";

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  socket: unknown;
}
const seen: Seen[] = [];
/** The server's fetch for Supabase calls (timedFetch), which sends /rest/v1 calls through the transport. */
const restFetch = timedFetch(60_000);
const held: http.ServerResponse[] = [];
const server = http.createServer((req, res) => {
  let body = "";
  req.on("data", (c: Buffer) => (body += c.toString("utf8")));
  req.on("end", () => {
    seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body, socket: req.socket });
    if (req.url?.startsWith("/rest/v1/rpc/hang")) {
      held.push(res);
      return;
    }
    if (req.url?.startsWith("/rest/v1/rpc/void")) {
      res.writeHead(204).end();
      return;
    }
    if (req.url?.startsWith("/rest/v1/rpc/gzip")) {
      res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" }).end(gzipSync(JSON.stringify({ zipped: true })));
      return;
    }
    if (req.url?.startsWith("/rest/v1/rpc/fail")) {
      res.writeHead(409, "Conflict", { "content-type": "application/json" }).end(JSON.stringify({ code: "23505", message: "duplicate" }));
      return;
    }
    res.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-range": "0-1/*", "x-two": ["a", "b"] });
    res.end(JSON.stringify({ echo: body ? (JSON.parse(body) as unknown) : null, method: req.method }));
  });
});
let base = "";

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const r of held) r.destroy();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe("the PostgREST transport, through timedFetch", () => {
  it("sends the method, headers and body, and answers status, status text, headers and body as fetch would", async () => {
    const res = await restFetch(`${base}/rest/v1/rpc/echo?x=1`, {
      method: "POST",
      headers: { apikey: "k", "Content-Type": "application/json" },
      body: JSON.stringify({ p_a: "ä" }),
    });
    expect(res.ok).toBe(true);
    expect(res.status).toBe(200);
    expect(res.statusText).toBe("OK");
    expect(res.headers.get("content-range")).toBe("0-1/*");
    expect(res.headers.get("x-two")).toBe("a, b");
    expect(await res.json()).toEqual({ echo: { p_a: "ä" }, method: "POST" });
    const last = seen[seen.length - 1];
    expect(last).toMatchObject({ method: "POST", url: "/rest/v1/rpc/echo?x=1", body: '{"p_a":"ä"}' });
    expect(last.headers).toMatchObject({ apikey: "k", "content-type": "application/json", "content-length": String(Buffer.byteLength('{"p_a":"ä"}')) });
    expect(last.headers["accept-encoding"]).toBeUndefined();
  });

  it("keeps its connection alive between calls", async () => {
    await restFetch(`${base}/rest/v1/rpc/echo`);
    const first = seen[seen.length - 1].socket;
    await restFetch(`${base}/rest/v1/rpc/echo`);
    expect(seen[seen.length - 1].socket).toBe(first);
  });

  it("an error status is an answer, not a failure; 204 has no body; a compressed answer is decoded", async () => {
    const failed = await restFetch(`${base}/rest/v1/rpc/fail`, { method: "POST", body: "{}" });
    expect([failed.ok, failed.status, failed.statusText]).toEqual([false, 409, "Conflict"]);
    expect(await failed.json()).toEqual({ code: "23505", message: "duplicate" });
    const empty = await restFetch(`${base}/rest/v1/rpc/void`, { method: "POST", body: "{}" });
    expect(empty.status).toBe(204);
    expect(empty.body).toBeNull();
    const zipped = await restFetch(`${base}/rest/v1/rpc/gzip`);
    expect(zipped.headers.get("content-encoding")).toBeNull();
    expect(await zipped.json()).toEqual({ zipped: true });
  });

  it("nothing listening → TypeError 'fetch failed' with the socket error as its cause, as undici reports it", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const err = await restFetch(`http://127.0.0.1:${port}/rest/v1/rpc/echo`).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TypeError);
    expect((err as Error).message).toBe("fetch failed");
    expect(((err as Error).cause as NodeJS.ErrnoException).code).toBe("ECONNREFUSED");
  });

  it("an abort rejects with the signal's reason and closes the request; the deadline of timedFetch still applies", async () => {
    const caller = new AbortController();
    const pending = restFetch(`${base}/rest/v1/rpc/hang`, { signal: caller.signal });
    await vi.waitFor(() => expect(held.length).toBeGreaterThan(0));
    const res = held[held.length - 1];
    const closed = new Promise<void>((resolve) => res.on("close", () => resolve()));
    caller.abort();
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
    await closed;
    const already = new AbortController();
    already.abort(new Error("gone"));
    await expect(restFetch(`${base}/rest/v1/rpc/echo`, { signal: already.signal })).rejects.toThrow("gone");
    const late = await timedFetch(150)(`${base}/rest/v1/rpc/hang`, { method: "POST", body: "{}" }).catch((e: unknown) => e);
    expect(late).toBeInstanceOf(UpstreamTimeoutError);
    const mine = new AbortController();
    const withDeadline = timedFetch(60_000)(`${base}/rest/v1/rpc/hang`, { signal: mine.signal });
    mine.abort();
    await expect(withDeadline).rejects.toMatchObject({ name: "AbortError" });
  });

  it("hands anything else to the global fetch: another path, a Request, a body that is not text", async () => {
    const spy = vi.spyOn(globalThis, "fetch");
    try {
      await (await restFetch(`${base}/auth/v1/user`)).text();
      await (await restFetch(new Request(`${base}/rest/v1/rpc/echo`))).text();
      await (await restFetch(`${base}/rest/v1/rpc/echo`, { method: "POST", body: new Blob(["{}"]) })).text();
      expect(spy).toHaveBeenCalledTimes(3);
      await (await restFetch(`${base}/rest/v1/rpc/echo`)).text();
      expect(spy).toHaveBeenCalledTimes(3);
    } finally {
      spy.mockRestore();
    }
  });
});
