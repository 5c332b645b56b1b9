/**
 * The one database mapper (fromDatabaseError, which now also holds the structured-search and
 * collection SQLSTATEs of the old rpcError), the sign-in mapper (fromAuthError), search-engine codes, and the
 * documents.ts fix: a judgment read that fails answers by what failed (404 / 504 / 503 / 500), no longer 503 for all.
 * The documents part drives the app's real supabase-js client against a small server that answers like PostgREST.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Identity } from "@/lib/api/identity";
import { documentMetadata, documentsBatch } from "@/lib/backend/documents";
import { searchErrorToApi } from "@/lib/backend/search";
import { resetConfigForTests } from "@/lib/config";
import { ApiError, fromAuthError, fromDatabaseError } from "@/lib/errors";
import { SearchEngineError, SemanticUnavailableError } from "@/lib/search/errors";
import { createTokenClient } from "@/lib/supabase/server";

const pair = (e: { status: number; code: string }) => [e.status, e.code];

describe("fromDatabaseError: our SQLSTATEs (was rpcError) and PostgREST's", () => {
  it.each([
    [{ code: "SF001", message: "Unknown filter key \"foo\"", details: "foo" }, [422, "FILTER_INVALID"], { field: "foo" }],
    [{ code: "SF002", message: "Field \"x\" is not aggregable", details: "x" }, [422, "FIELD_NOT_AGGREGABLE"], { field: "x" }],
    [{ code: "SF003", message: "too many fields", details: "fields" }, [422, "VALIDATION_ERROR"], { fields: [{ field: "fields", message: "too many fields" }] }],
    [{ code: "22023", message: "name is too long", details: "name" }, [422, "VALIDATION_ERROR"], { fields: [{ field: "name", message: "name is too long" }] }],
    [{ code: "SC001", message: "collection 123 not found", details: "123" }, [404, "COLLECTION_NOT_FOUND"], {}],
    [{ code: "SC002", message: "documents do not exist", details: "a,b" }, [404, "DOCUMENT_NOT_FOUND"], { document_ids: ["a", "b"] }],
    [{ code: "PGRST116", message: "JSON object requested, multiple (or no) rows returned" }, [404, "NOT_FOUND"], {}],
    [{ code: "P0002", message: "query returned no rows" }, [404, "NOT_FOUND"], {}],
  ])("%o → %o", (err, expected, extra) => {
    const mapped = fromDatabaseError(err);
    expect(pair(mapped)).toEqual(expected);
    expect(mapped.extra).toEqual(extra);
  });

  it("never leaks the text of an unexpected failure, and names it with the caller's fallback", () => {
    const mapped = fromDatabaseError({ code: "XX000", message: "relation public.secret does not exist" }, "AGGREGATE_FAILED");
    expect([mapped.status, mapped.code, mapped.message]).toEqual([500, "AGGREGATE_FAILED", "The aggregate could not be computed."]);
  });
});

describe("fromAuthError: sign-up / sign-in refusals, one status per code", () => {
  it.each([
    [{ status: 400, code: "invalid_credentials", message: "Invalid login credentials", name: "AuthApiError" }, [400, "INVALID_CREDENTIALS"]],
    [{ status: 422, code: "user_already_exists", message: "User already registered", name: "AuthApiError" }, [422, "USER_ALREADY_EXISTS"]],
    [{ status: 422, code: "weak_password", message: "Password should be at least 8 characters.", name: "AuthWeakPasswordError" }, [422, "WEAK_PASSWORD"]],
    // GoTrue answers validation_failed with 400 or 422; ours is 400 either way (one status per code).
    [{ status: 422, code: "validation_failed", message: "Signup requires a valid password", name: "AuthApiError" }, [400, "VALIDATION_FAILED"]],
    [{ status: 400, code: "validation_failed", message: "Unable to validate email address", name: "AuthApiError" }, [400, "VALIDATION_FAILED"]],
    [{ status: 429, code: "over_request_rate_limit", message: "Request rate limit reached", name: "AuthApiError" }, [429, "OVER_REQUEST_RATE_LIMIT"]],
    // Outages say nothing about the caller.
    [{ status: 500, code: "unexpected_failure", message: "Unexpected failure", name: "AuthApiError" }, [503, "AUTH_UNAVAILABLE"]],
    [{ status: 0, message: "fetch failed", name: "AuthRetryableFetchError" }, [503, "AUTH_UNAVAILABLE"]],
    [{ status: 0, message: "UpstreamTimeoutError: upstream timeout: no answer within 300 ms", name: "AuthRetryableFetchError" }, [504, "UPSTREAM_TIMEOUT"]],
  ])("%o → %o", (err, expected) => {
    expect(pair(fromAuthError(err))).toEqual(expected);
  });

  it("answers any other refusal 400 AUTH_REJECTED with Supabase's code, instead of inventing a code per upstream code", () => {
    const e = fromAuthError({ status: 404, code: "session_not_found", message: "Session not found", name: "AuthApiError" });
    expect([e.status, e.code, e.extra]).toEqual([400, "AUTH_REJECTED", { auth_code: "session_not_found" }]);
  });
});

describe("search-engine failures carry a catalogue code, so the status follows it", () => {
  it("an engine that did not answer in time → 504 UPSTREAM_TIMEOUT (was 503), a failed one → 503, no embedder → 502", () => {
    const timeout = searchErrorToApi(new SearchEngineError("Meilisearch did not answer in time", { code: "UPSTREAM_TIMEOUT" }));
    const down = searchErrorToApi(new SearchEngineError("Meilisearch is unreachable"));
    const failed = searchErrorToApi(new SearchEngineError("Meilisearch search failed (x)", { code: "SEARCH_ENGINE_ERROR" }));
    const semantic = searchErrorToApi(new SemanticUnavailableError());
    const got = [timeout, down, failed, semantic].map((e) => (e instanceof ApiError ? pair(e) : e));
    expect(got).toEqual([
      [504, "UPSTREAM_TIMEOUT"],
      [503, "SEARCH_ENGINE_UNAVAILABLE"],
      [503, "SEARCH_ENGINE_ERROR"],
      [502, "SEMANTIC_UNAVAILABLE"],
    ]);
  });
});

/** Answers every RPC as `mode` says; `hang` never answers. */
let mode: "pgrst000" | "hang" | "internal" | "no_row" | "null" = "pgrst000";
const held: http.ServerResponse[] = [];
const server = http.createServer((req, res) => {
  req.resume();
  if (mode === "hang") {
    held.push(res);
    return;
  }
  res.setHeader("content-type", "application/json");
  const answers = {
    pgrst000: [503, { code: "PGRST000", message: "Database connection error. Retrying the connection.", details: null, hint: null }],
    internal: [500, { code: "XX000", message: "internal error in relation judgments", details: null, hint: null }],
    no_row: [406, { code: "PGRST116", message: "JSON object requested, multiple (or no) rows returned", details: "0 rows", hint: null }],
    null: [200, null],
  } as const;
  const [status, body] = answers[mode];
  res.statusCode = status;
  res.end(JSON.stringify(body));
});
const savedEnv = { ...process.env };

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  process.env.SUPABASE_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.env.SUPABASE_ANON_KEY = "anon-key";
  // Generous: the first call of a cold process must not count as a time-out on a busy machine.
  process.env.UPSTREAM_TIMEOUT_MS = "1500";
  resetConfigForTests();
});
afterEach(() => {
  for (const r of held.splice(0)) r.destroy();
});
afterAll(async () => {
  process.env = { ...savedEnv };
  resetConfigForTests();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function identity(): Identity {
  return { role: "user", userId: "00000000-0000-4000-8000-000000000001", email: null, via: "bearer", db: createTokenClient("token") };
}

async function failure(p: Promise<unknown>): Promise<[number, string]> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  if (!(e instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(e)}`);
  return [e.status, e.code];
}

const ID = "0b9f2f4e-6f0c-4a55-9b1e-3c2d1e0f9a8b";

describe("documents.ts: a failed judgment read answers by what failed (was 503 DATABASE_UNAVAILABLE for all)", () => {
  it.each([
    ["pgrst000", [503, "DATABASE_UNAVAILABLE"]],
    ["hang", [504, "UPSTREAM_TIMEOUT"]],
    ["internal", [500, "DATABASE_ERROR"]],
    ["no_row", [404, "DOCUMENT_NOT_FOUND"]],
    ["null", [404, "DOCUMENT_NOT_FOUND"]],
  ] as const)("metadata when the database answers %s → %o", async (m, expected) => {
    mode = m;
    expect(await failure(documentMetadata(ID, identity()))).toEqual(expected);
  });

  it.each([
    ["pgrst000", [503, "DATABASE_UNAVAILABLE"]],
    ["hang", [504, "UPSTREAM_TIMEOUT"]],
    ["internal", [500, "DATABASE_ERROR"]],
  ] as const)("batch when the database answers %s → %o", async (m, expected) => {
    mode = m;
    expect(await failure(documentsBatch({ ids: [ID] }, identity()))).toEqual(expected);
  });
});
