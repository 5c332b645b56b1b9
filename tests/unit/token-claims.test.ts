import http from "node:http";
import type { AddressInfo } from "node:net";
import { createChunks, stringToBase64URL } from "@supabase/ssr";
import fc from "fast-check";
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessionAccessToken, sessionCookieName, verifiedSessionClaims, verifyAccessToken } from "@/lib/api/token-claims";

let server: http.Server;
let url: string;
let key: CryptoKey;
let jwksRequests = 0;

beforeAll(async () => {
  const pair = await generateKeyPair("ES256");
  key = pair.privateKey;
  const jwk = { ...(await exportJWK(pair.publicKey)), kid: "k1", alg: "ES256", use: "sig" };
  server = http.createServer((req, res) => {
    if (req.url !== "/auth/v1/.well-known/jwks.json") return void res.writeHead(404).end();
    jwksRequests++;
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((r) => server.close(() => r())));

const sign = (claims: Record<string, unknown>, opts: { kid?: string; exp?: string | number } = {}) =>
  new SignJWT(claims)
    .setProtectedHeader({ alg: "ES256", kid: opts.kid ?? "k1" })
    .setIssuedAt()
    .setExpirationTime(opts.exp ?? "1h")
    .sign(key);

describe("verifyAccessToken (cached JWKS)", () => {
  it("returns the claims of a valid token and fetches the key set once", async () => {
    const before = jwksRequests;
    const token = await sign({ sub: "u1", role: "authenticated", email: "a@example.org" });
    for (let i = 0; i < 3; i++) expect(await verifyAccessToken(token, url)).toMatchObject({ sub: "u1", role: "authenticated" });
    expect(jwksRequests - before).toBeLessThanOrEqual(1);
  });

  it("remembers a verified token for at most a minute and never past its expiry", async () => {
    const now = Date.now();
    const token = await sign({ sub: "u2", role: "authenticated" }, { exp: Math.floor(now / 1000) + 30 });
    expect(await verifyAccessToken(token, url, now)).toMatchObject({ sub: "u2" });
    expect(await verifyAccessToken(token, url, now + 20_000)).toMatchObject({ sub: "u2" });
    // Past its exp the cache entry is gone and jose refuses the token.
    expect(await verifyAccessToken(token, url, now + 31_000)).toBeNull();
    const long = await sign({ sub: "u3", role: "authenticated" }, { exp: "1h" });
    expect(await verifyAccessToken(long, url, now)).toMatchObject({ sub: "u3" });
    // A minute later, cached or verified again (the cache's 60 s ttl runs on the real clock), it is still valid.
    expect(await verifyAccessToken(long, url, now + 61_000)).toMatchObject({ sub: "u3" });
  });

  it("cannot decide (null) for expired, tampered, unknown-key and symmetric tokens", async () => {
    expect(await verifyAccessToken(await sign({ sub: "u1" }, { exp: Math.floor(Date.now() / 1000) - 10 }), url)).toBeNull();
    const good = await sign({ sub: "u1", role: "authenticated" });
    const [h, , s] = good.split(".");
    const forged = `${h}.${Buffer.from(JSON.stringify({ sub: "admin", role: "authenticated" })).toString("base64url")}.${s}`;
    expect(await verifyAccessToken(forged, url)).toBeNull();
    expect(await verifyAccessToken(await sign({ sub: "u1" }, { kid: "other" }), url)).toBeNull();
    const hs = await new SignJWT({ sub: "u1" }).setProtectedHeader({ alg: "HS256" }).sign(new TextEncoder().encode("x".repeat(32)));
    expect(await verifyAccessToken(hs, url)).toBeNull();
    expect(await verifyAccessToken("not.a.token", url)).toBeNull();
  });
});

describe("sessionAccessToken (the @supabase/ssr cookie)", () => {
  const cookieHeader = (session: object, chunkSize?: number) =>
    createChunks(sessionCookieName(url), `base64-${stringToBase64URL(JSON.stringify(session))}`, chunkSize)
      .map((c) => `${c.name}=${c.value}`)
      .concat(["other=1"])
      .join("; ");

  it("reads the access token from a single or chunked cookie", async () => {
    const session = { access_token: "tok", refresh_token: "r", expires_at: Math.floor(Date.now() / 1000) + 3600 };
    expect(await sessionAccessToken(cookieHeader(session), url)).toBe("tok");
    const chunked = cookieHeader({ ...session, padding: "p".repeat(500) }, 100);
    expect(chunked).toContain(`${sessionCookieName(url)}.1=`);
    expect(await sessionAccessToken(chunked, url)).toBe("tok");
  });

  it("reads any session @supabase/ssr wrote, whatever text its user fields hold (UTF-8 through base64url)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: "grapheme", maxLength: 200 }), fc.string({ maxLength: 40 }), async (name, token) => {
        const session = { access_token: token || "t", user: { user_metadata: { name } }, expires_at: Math.floor(Date.now() / 1000) + 3600 };
        expect(await sessionAccessToken(cookieHeader(session), url)).toBe(token || "t");
      }),
      { numRuns: 300 },
    );
  });

  it("defers (null) a session due for refresh, and a missing or unreadable cookie", async () => {
    const soon = { access_token: "tok", refresh_token: "r", expires_at: Math.floor(Date.now() / 1000) + 30 };
    expect(await sessionAccessToken(cookieHeader(soon), url)).toBeNull();
    expect(await sessionAccessToken(null, url)).toBeNull();
    expect(await sessionAccessToken("other=1", url)).toBeNull();
    expect(await sessionAccessToken(`${sessionCookieName(url)}=base64-%%%`, url)).toBeNull();
  });
});

describe("verifiedSessionClaims (the pages' and the middleware's fast path)", () => {
  const cookieOf = (session: object) =>
    createChunks(sessionCookieName(url), `base64-${stringToBase64URL(JSON.stringify(session))}`)
      .map((c) => `${c.name}=${c.value}`)
      .join("; ");
  const hourAhead = () => Math.floor(Date.now() / 1000) + 3600;

  it("gives the claims of a session whose token verifies and is not due for refresh", async () => {
    const token = await sign({ sub: "page-user", role: "authenticated" });
    expect(await verifiedSessionClaims(cookieOf({ access_token: token, expires_at: hourAhead() }), url)).toMatchObject({ sub: "page-user" });
  });

  it("leaves everything else to supabase-js (null): no cookie, a session due for refresh, a token that does not verify", async () => {
    const token = await sign({ sub: "page-user", role: "authenticated" });
    expect(await verifiedSessionClaims(null, url)).toBeNull();
    expect(await verifiedSessionClaims(cookieOf({ access_token: token, expires_at: Math.floor(Date.now() / 1000) + 30 }), url)).toBeNull();
    const [h, p] = token.split(".");
    expect(await verifiedSessionClaims(cookieOf({ access_token: `${h}.${p}.AAAA`, expires_at: hourAhead() }), url)).toBeNull();
  });
});
