/**
 * How database and auth failures become API errors. The table of fromDatabaseError (was fromPostgrestError), then
 * the real supabase-js clients the app builds (createTokenClient) against a small HTTP server that answers like a
 * broken PostgREST / GoTrue (503 PGRST000, 500, or never), so the error shapes are the library's own.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { authOutage, fromDatabaseError } from "@/lib/errors";
import { resetConfigForTests } from "@/lib/config";
import { boundCookieOptions, cookieSecure, sessionCookieOptions } from "@/lib/supabase/options";
import { createTokenClient } from "@/lib/supabase/server";
import { isUpstreamTimeoutMessage, timedFetch, UpstreamTimeoutError } from "@/lib/supabase/timeout";

const savedEnv = { ...process.env };
afterEach(() => {
  process.env = { ...savedEnv };
  resetConfigForTests();
});

const pair = (e: { status: number; code: string }) => [e.status, e.code];

describe("fromDatabaseError: the one mapping of database failures", () => {
  it.each([
    // Postgres down behind a live PostgREST / gateway (M3): was 500 DATABASE_ERROR.
    [{ code: "PGRST000", message: "Database connection error. Retrying the connection." }, [503, "DATABASE_UNAVAILABLE"]],
    [{ code: "PGRST001", message: "Database client error. Retrying the connection." }, [503, "DATABASE_UNAVAILABLE"]],
    [{ code: "PGRST002", message: "Could not query the database for the schema cache. Retrying." }, [503, "DATABASE_UNAVAILABLE"]],
    [{ code: "PGRST003", message: "Timed out acquiring connection from connection pool." }, [503, "DATABASE_UNAVAILABLE"]],
    [{ code: "08006", message: "connection failure" }, [503, "DATABASE_UNAVAILABLE"]],
    [{ code: "57P01", message: "terminating connection due to administrator command" }, [503, "DATABASE_UNAVAILABLE"]],
    [{ code: "53300", message: "too many connections" }, [503, "DATABASE_UNAVAILABLE"]],
    // No answer at all (supabase-js reports the fetch failure with an empty code).
    [{ code: "", message: "TypeError: fetch failed" }, [503, "DATABASE_UNAVAILABLE"]],
    // Time-outs (D-31): the statement's, and the client's own deadline.
    [{ code: "57014", message: "canceling statement due to statement timeout" }, [504, "UPSTREAM_TIMEOUT"]],
    [{ code: "", message: "UpstreamTimeoutError: upstream timeout: no answer within 1500 ms (UPSTREAM_TIMEOUT_MS)" }, [504, "UPSTREAM_TIMEOUT"]],
    [{ code: "", message: "TimeoutError: The operation was aborted due to timeout" }, [504, "UPSTREAM_TIMEOUT"]],
    // Verdicts on the caller, unchanged.
    [{ code: "42501", message: "permission denied" }, [403, "FORBIDDEN"]],
    [{ code: "PGRST301", message: "JWSError" }, [401, "UNAUTHORIZED"]],
    [{ code: "PGRST303", message: "JWT expired" }, [401, "UNAUTHORIZED"]],
    // Anything else stays a 500 with the caller's code, and no SQL text.
    [{ code: "XX000", message: "internal error in relation foo" }, [500, "DATABASE_ERROR"]],
    [{ code: "", message: "<html>bad gateway</html>" }, [500, "DATABASE_ERROR"]],
  ])("%o → %o", (err, expected) => {
    const mapped = fromDatabaseError(err);
    expect(pair(mapped)).toEqual(expected);
    expect(mapped.message).not.toContain(err.message);
  });

  it("keeps the caller's fallback code for other failures, and a 503 status alone means unavailable", () => {
    expect(pair(fromDatabaseError({ code: "XX000" }, "FILTER_FAILED"))).toEqual([500, "FILTER_FAILED"]);
    expect(pair(fromDatabaseError({ message: "no healthy upstream" }, "FACETS_FAILED", 503))).toEqual([503, "DATABASE_UNAVAILABLE"]);
    expect(pair(fromDatabaseError({ code: "", message: "" }, "DATABASE_ERROR", 0))).toEqual([503, "DATABASE_UNAVAILABLE"]);
  });
});

describe("authOutage: an auth failure that says nothing about the caller", () => {
  it.each([
    [{ status: 0, message: "fetch failed", name: "AuthRetryableFetchError" }, [503, "AUTH_UNAVAILABLE"]],
    [{ status: 500, message: "{}", name: "AuthRetryableFetchError" }, [503, "AUTH_UNAVAILABLE"]],
    [{ status: 503, message: "{}", name: "AuthRetryableFetchError" }, [503, "AUTH_UNAVAILABLE"]],
    [{ status: undefined, message: "Unexpected token <", name: "AuthUnknownError" }, [503, "AUTH_UNAVAILABLE"]],
    [{ status: 0, message: new UpstreamTimeoutError(1500).message, name: "AuthRetryableFetchError" }, [504, "UPSTREAM_TIMEOUT"]],
    [{ status: 0, message: "The operation was aborted due to timeout", name: "AuthRetryableFetchError" }, [504, "UPSTREAM_TIMEOUT"]],
  ])("%o → %o", (err, expected) => {
    const out = authOutage(err);
    expect(out && pair(out)).toEqual(expected);
  });

  it.each([
    { status: 403, message: "invalid JWT: token is expired", name: "AuthApiError" },
    { status: 400, message: "Invalid Refresh Token: Session Expired", name: "AuthApiError" },
    { status: 400, message: "Auth session missing!", name: "AuthSessionMissingError" },
    { status: 400, message: "Invalid JWT signature", name: "AuthInvalidJwtError" },
  ])("a verdict on the token (%o) stays anonymous", (err) => {
    expect(authOutage(err)).toBeNull();
  });
});

describe("session cookie attributes (M2)", () => {
  it("Secure: explicit COOKIE_SECURE wins; otherwise production, except plain http on a loopback APP_URL", () => {
    const on = (c: Partial<Parameters<typeof cookieSecure>[0]>) => cookieSecure({ NODE_ENV: "production", APP_URL: undefined, COOKIE_SECURE: undefined, ...c });
    expect(on({})).toBe(true);
    expect(on({ NODE_ENV: "development" })).toBe(false);
    expect(on({ APP_URL: "https://judgments.example" })).toBe(true);
    expect(on({ APP_URL: "http://judgments.example" })).toBe(true);
    expect(on({ APP_URL: "http://127.0.0.1:3000" })).toBe(false);
    expect(on({ APP_URL: "http://localhost:3000" })).toBe(false);
    expect(on({ APP_URL: "http://127.0.0.1:3000", COOKIE_SECURE: "1" })).toBe(true);
    expect(on({ COOKIE_SECURE: "false" })).toBe(false);
    expect(on({ NODE_ENV: "development", COOKIE_SECURE: "true" })).toBe(true);
  });

  it("HttpOnly, SameSite=Lax and a bounded Max-Age replace @supabase/ssr's 400 days; a deletion stays a deletion", () => {
    process.env.SESSION_MAX_AGE_SECONDS = "3600";
    resetConfigForTests();
    expect(sessionCookieOptions()).toMatchObject({ httpOnly: true, sameSite: "lax", path: "/", maxAge: 3600 });
    const ssrDefault = { path: "/", sameSite: "lax" as const, httpOnly: false, maxAge: 400 * 24 * 3600 };
    expect(boundCookieOptions(ssrDefault)).toMatchObject({ httpOnly: true, sameSite: "lax", maxAge: 3600 });
    expect(boundCookieOptions({ ...ssrDefault, maxAge: 0 }).maxAge).toBe(0);
  });
});

/** A server standing in for a broken Supabase: `mode` says how it answers. Counts the requests it got. */
let mode: "pgrst000" | "hang" | "auth500" | "bad_jwt" = "pgrst000";
let received = 0;
const held: http.ServerResponse[] = [];
const server = http.createServer((req, res) => {
  received++;
  if (mode === "hang") {
    held.push(res);
    return;
  }
  res.setHeader("content-type", "application/json");
  if (mode === "pgrst000") {
    res.statusCode = 503;
    res.end(JSON.stringify({ code: "PGRST000", message: "Database connection error. Retrying the connection.", details: null, hint: null }));
  } else if (mode === "auth500") {
    res.statusCode = 500;
    res.end(JSON.stringify({ code: "unexpected_failure", message: "Unexpected failure" }));
  } else {
    res.statusCode = 403;
    res.setHeader("x-supabase-api-version", "2024-01-01");
    res.end(JSON.stringify({ code: "bad_jwt", message: "invalid JWT: unable to parse or verify signature" }));
  }
});
let baseUrl = "";

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const r of held) r.destroy();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function useFakeSupabase(timeoutMs = 300): void {
  process.env.SUPABASE_URL = baseUrl;
  process.env.SUPABASE_ANON_KEY = "anon-key";
  process.env.UPSTREAM_TIMEOUT_MS = String(timeoutMs);
  resetConfigForTests();
}

describe("the app's supabase-js clients against a broken server", () => {
  it("an RPC answered 503 PGRST000 → 503 DATABASE_UNAVAILABLE (was 500 DATABASE_ERROR)", async () => {
    useFakeSupabase();
    mode = "pgrst000";
    const { error } = await createTokenClient().rpc("list_collections");
    expect(pair(fromDatabaseError(error))).toEqual([503, "DATABASE_UNAVAILABLE"]);
  });

  it("an RPC to a server that never answers ends at UPSTREAM_TIMEOUT_MS → 504, and a GET call is not retried", async () => {
    useFakeSupabase(300);
    mode = "hang";
    const post = await createTokenClient().rpc("list_collections");
    expect(pair(fromDatabaseError(post.error))).toEqual([504, "UPSTREAM_TIMEOUT"]);
    received = 0;
    // postgrest-js retries GET calls on network errors (3 more tries with 1-4 s back-off); a time-out is not retried.
    const get = await createTokenClient().rpc("list_collections", {}, { get: true });
    expect(pair(fromDatabaseError(get.error))).toEqual([504, "UPSTREAM_TIMEOUT"]);
    expect(received).toBe(1);
  });

  it("auth: a 500 → 503 AUTH_UNAVAILABLE, no answer in time → 504, a bad token → a verdict (anonymous)", async () => {
    useFakeSupabase(300);
    mode = "auth500";
    const down = await createTokenClient().auth.getUser("some.jwt.token");
    expect(down.error && pair(authOutage(down.error)!)).toEqual([503, "AUTH_UNAVAILABLE"]);
    mode = "hang";
    const hung = await createTokenClient().auth.getUser("some.jwt.token");
    expect(hung.error && pair(authOutage(hung.error)!)).toEqual([504, "UPSTREAM_TIMEOUT"]);
    mode = "bad_jwt";
    const bad = await createTokenClient().auth.getUser("some.jwt.token");
    expect(bad.error?.status).toBe(403);
    expect(authOutage(bad.error!)).toBeNull();
  });

  it("timedFetch keeps a caller's own abort signal working, and reports its own deadline as UpstreamTimeoutError", async () => {
    mode = "hang";
    const caller = new AbortController();
    const pending = timedFetch(60_000)(baseUrl, { signal: caller.signal });
    caller.abort();
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
    const late = await timedFetch(200)(baseUrl).catch((e: unknown) => e);
    expect(late).toBeInstanceOf(UpstreamTimeoutError);
    expect(isUpstreamTimeoutMessage((late as Error).message)).toBe(true);
  });
});
