import { createHmac } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { SupabaseClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientAddressOf, normaliseAddress, stampClientAddress, STAMP_HEADER, UNVERIFIED_CLIENT } from "@/lib/api/client-address";
import { rateLimitIdentityOf } from "@/lib/api/identity";
import { resetConfigForTests } from "@/lib/config";
import { generateApiKey, hashApiKey, verifyApiKey } from "@/lib/backend/api-keys";

/**
 * A real HTTP server doing what server/app/app-server.ts does in front of Next: stamp, then resolve the address from
 * the headers as a route handler would. Requests come from chosen loopback addresses (real sockets).
 */
function serve(trustedProxy: boolean, stamp: boolean) {
  const server = http.createServer((req, res) => {
    if (stamp) stampClientAddress(req, trustedProxy);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify(clientAddressOf(headers, trustedProxy)));
  });
  return server;
}

function get(port: number, from: string, headers: Record<string, string> = {}): Promise<{ address: string; source: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, path: "/", localAddress: from, headers }, (res) => {
      let body = "";
      res.on("data", (c) => (body += c));
      res.on("end", () => resolve(JSON.parse(body)));
    });
    req.on("error", reject);
    req.end();
  });
}

const servers: http.Server[] = [];
const ports: Record<string, number> = {};

beforeAll(async () => {
  for (const [name, trusted, stamp] of [
    ["untrusted", false, true],
    ["trusted", true, true],
    ["unstamped", false, false],
  ] as const) {
    const s = serve(trusted, stamp);
    await new Promise<void>((r) => s.listen(0, "127.0.0.1", () => r()));
    servers.push(s);
    ports[name] = (s.address() as AddressInfo).port;
  }
});

afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
});

describe("client address (D-22)", () => {
  it("is the socket address, whatever X-Forwarded-For / X-Real-IP / X-RateLimit-Identity the client sends", async () => {
    const plain = await get(ports.untrusted, "127.0.0.7");
    expect(plain).toEqual({ address: "127.0.0.7", source: "socket" });
    for (const spoof of ["6.6.6.6", "6.6.6.6, 127.0.0.9", "127.0.0.9", "garbage", ""]) {
      const r = await get(ports.untrusted, "127.0.0.7", { "x-forwarded-for": spoof, "x-real-ip": "1.2.3.4", "x-ratelimit-identity": "someone-else" });
      expect(r).toEqual({ address: "127.0.0.7", source: "socket" });
    }
    expect((await get(ports.untrusted, "127.0.0.8")).address).toBe("127.0.0.8");
  });

  it("a forged stamp header does not make a client's X-Forwarded-For believed", async () => {
    const r = await get(ports.untrusted, "127.0.0.7", { [STAMP_HEADER]: "guess", "x-forwarded-for": "6.6.6.6" });
    expect(r.address).toBe("127.0.0.7");
  });

  it("with TRUSTED_PROXY=1 (one hop) the entry the proxy appended is the client, never the client-chosen left-most", async () => {
    // Changed on purpose (security review M5): this used to expect the left-most entry "203.0.113.5", which the client
    // itself writes behind an appending proxy. The one trusted proxy appended "10.0.0.1" (the address it saw).
    expect(await get(ports.trusted, "127.0.0.7", { "x-forwarded-for": "203.0.113.5, 10.0.0.1" })).toEqual({ address: "10.0.0.1", source: "trusted-proxy" });
    // No header: the proxy is the client.
    expect((await get(ports.trusted, "127.0.0.7")).address).toBe("127.0.0.7");
  });

  it("a request that did not pass through the stamping server is never believed (shared 'unverified' bucket)", async () => {
    const a = await get(ports.unstamped, "127.0.0.7", { "x-forwarded-for": "6.6.6.6" });
    const b = await get(ports.unstamped, "127.0.0.8", { "x-forwarded-for": "7.7.7.7" });
    expect(a).toEqual({ address: UNVERIFIED_CLIENT, source: "unverified" });
    expect(b).toEqual(a);
  });

  it("normalises address spellings", () => {
    expect(normaliseAddress("::ffff:127.0.0.1")).toBe("127.0.0.1");
    expect(normaliseAddress("[2001:DB8::1]:443")).toBe("2001:db8::1");
    expect(normaliseAddress("10.1.2.3:5555")).toBe("10.1.2.3");
    expect(normaliseAddress("not-an-ip")).toBeNull();
    expect(normaliseAddress("")).toBeNull();
  });
});

describe("hashed per-user rate-limit identity", () => {
  it("is stable per user, differs between users and does not contain the id", () => {
    const a = rateLimitIdentityOf("5b8f4c1e-0000-4000-8000-000000000001");
    expect(rateLimitIdentityOf("5b8f4c1e-0000-4000-8000-000000000001")).toBe(a);
    expect(rateLimitIdentityOf("5b8f4c1e-0000-4000-8000-000000000002")).not.toBe(a);
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(a).not.toContain("5b8f4c1e");
  });

  it("follows the secret: another RATE_LIMIT_IDENTITY_SECRET gives another identity (the memo is per secret)", () => {
    const before = process.env.RATE_LIMIT_IDENTITY_SECRET;
    const user = "5b8f4c1e-0000-4000-8000-000000000003";
    try {
      process.env.RATE_LIMIT_IDENTITY_SECRET = "first-secret-for-this-test-0123456789";
      resetConfigForTests();
      const a = rateLimitIdentityOf(user);
      process.env.RATE_LIMIT_IDENTITY_SECRET = "second-secret-for-this-test-0123456789";
      resetConfigForTests();
      const b = rateLimitIdentityOf(user);
      expect(b).not.toBe(a);
      expect(b).toBe(createHmac("sha256", "second-secret-for-this-test-0123456789").update(`user:${user}`).digest("hex").slice(0, 32));
    } finally {
      if (before === undefined) delete process.env.RATE_LIMIT_IDENTITY_SECRET;
      else process.env.RATE_LIMIT_IDENTITY_SECRET = before;
      resetConfigForTests();
    }
  });
});

describe("API keys", () => {
  it("are high-entropy, stored as SHA-256 only", () => {
    const { key, prefix, hash } = generateApiKey();
    expect(key).toMatch(/^jsk_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
    expect(key.slice(4, 16)).toBe(prefix);
    expect(hash).toBe(hashApiKey(key));
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(generateApiKey().key).not.toBe(key);
  });

  it("a malformed key is refused without a database call", async () => {
    const noDb = new Proxy({}, { get: () => { throw new Error("database touched"); } }) as unknown as SupabaseClient;
    for (const k of ["", "jsk_", "Bearer abc", `jsk_${"a".repeat(12)}_short`, `jsk_XYZ_${"a".repeat(43)}`]) {
      expect(await verifyApiKey(noDb, k)).toBeNull();
    }
  });
});
