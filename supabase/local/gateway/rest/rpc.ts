import type { IncomingMessage, ServerResponse } from "node:http";
import type pg from "pg";
import type { ApiKeyIdentity } from "../api-key";
import type { GatewayContext } from "../context";
import { checkout, isPgError } from "../db";
import { BodyTooLargeError, header, isPlainObject, parseJsonBody, readBody, sendEmpty, sendRawJson } from "../http";
import { bearerToken, isApiRole, type VerifiedClaims } from "../tokens";
import { connectionFailure, exposesMessage, PgrstError, statusForSqlState } from "./errors";
import { findFunctions, resolveFunction, type FunctionInfo } from "./functions";

const RPC_BODY_LIMIT = 10 * 1024 * 1024;

/** Query parameters PostgREST reads as modifiers; only the no-op `select=*` is understood here. */
const RESERVED_PARAMS = new Set(["select", "order", "limit", "offset", "columns", "on_conflict", "and", "or", "not"]);

const quoteIdent = (s: string) => `"${s.replace(/"/g, '""')}"`;

interface Caller {
  role: "anon" | "authenticated" | "service_role";
  claims: VerifiedClaims;
}

/**
 * The role a request runs as, PostgREST-style: a bearer JWT (verified, its `role` claim, anon when absent) or, with
 * no bearer, the project key's role. Only the three API roles may be assumed: a token naming another role (say a
 * user row whose role was edited to `postgres`) is refused instead of switching to it.
 */
async function resolveCaller(ctx: GatewayContext, req: IncomingMessage, apiKey: ApiKeyIdentity): Promise<Caller> {
  const token = bearerToken(header(req, "authorization"));
  if (!token) return { role: apiKey.role, claims: apiKey.claims };
  const verified = await ctx.tokens.verify(token);
  if (!verified.ok) {
    const { kind, message } = verified.failure;
    const code = kind === "decode" ? "PGRST301" : "PGRST303";
    throw new PgrstError(401, code, message, null, null, {
      "WWW-Authenticate": `Bearer error="invalid_token", error_description=${JSON.stringify(message)}`,
    });
  }
  const role = verified.claims.role ?? "anon";
  if (!isApiRole(role)) throw new PgrstError(403, "42501", `permission denied to set role "${role}"`);
  return { role, claims: verified.claims };
}

function pickSchema(ctx: GatewayContext, req: IncomingMessage, isRead: boolean): string {
  const requested = header(req, isRead ? "accept-profile" : "content-profile");
  if (!requested) return ctx.exposedSchemas[0];
  if (!ctx.exposedSchemas.includes(requested)) {
    throw new PgrstError(406, "PGRST106", `Invalid schema: ${requested}`, null, `Only the following schemas are exposed: ${ctx.exposedSchemas.join(", ")}`);
  }
  return requested;
}

type Args = { kind: "json"; values: Record<string, unknown> } | { kind: "query"; values: Map<string, string[]> };

async function readArgs(req: IncomingMessage, url: URL, isRead: boolean): Promise<Args> {
  for (const key of url.searchParams.keys()) {
    if (!RESERVED_PARAMS.has(key)) continue;
    if (key === "select" && url.searchParams.get(key) === "*") continue;
    // PGRST127 is PostgREST's code for an unsupported feature; the local gateway refuses RPC modifiers rather than ignoring them.
    throw new PgrstError(400, "PGRST127", "Unsupported by the local gateway", `the query parameter "${key}" is not supported on /rpc by the local gateway`);
  }
  if (isRead) {
    const values = new Map<string, string[]>();
    for (const [k, v] of url.searchParams) {
      if (RESERVED_PARAMS.has(k)) continue;
      values.set(k, [...(values.get(k) ?? []), v]);
    }
    return { kind: "query", values };
  }
  let raw: string;
  try {
    raw = await readBody(req, RPC_BODY_LIMIT);
  } catch (e) {
    if (e instanceof BodyTooLargeError) throw new PgrstError(413, "PGRST102", "Request body too large");
    throw e;
  }
  let parsed: unknown;
  try {
    parsed = parseJsonBody(raw);
  } catch {
    throw new PgrstError(400, "PGRST102", "Empty or invalid json");
  }
  if (parsed === undefined) return { kind: "json", values: {} };
  if (!isPlainObject(parsed)) {
    throw new PgrstError(400, "PGRST102", "Empty or invalid json", "the local gateway takes one JSON object of named arguments");
  }
  return { kind: "json", values: parsed };
}

/**
 * SQL for one call. POST arguments go through json_to_record (as PostgREST does), which turns JSON arrays into
 * Postgres arrays, keeps jsonb as-is and casts the rest with each type's input function; GET arguments are text cast
 * to the declared type. Named notation means parameters with defaults may be left out.
 */
function buildCall(fn: FunctionInfo, args: Args, wholeBody: boolean): { sql: string; values: unknown[] } {
  const target = `${quoteIdent(fn.schema)}.${quoteIdent(fn.name)}`;
  const values: unknown[] = [];
  let from = "";
  let call: string;
  if (wholeBody) {
    values.push(JSON.stringify(args.kind === "json" ? args.values : {}));
    call = `${target}($1::${fn.params[0].type})`;
  } else if (args.kind === "json") {
    const given = fn.params.filter((p) => Object.prototype.hasOwnProperty.call(args.values, p.name));
    if (given.length) {
      values.push(JSON.stringify(args.values));
      from = `json_to_record($1::json) as _a(${given.map((p) => `${quoteIdent(p.name)} ${p.type}`).join(", ")})`;
    }
    call = `${target}(${given.map((p) => `${p.variadic ? "variadic " : ""}${quoteIdent(p.name)} => _a.${quoteIdent(p.name)}`).join(", ")})`;
  } else {
    const given = fn.params.filter((p) => args.values.has(p.name));
    const parts = given.map((p) => {
      const vals = args.values.get(p.name) ?? [];
      if (p.variadic || vals.length > 1) {
        values.push(vals);
        return `${p.variadic ? "variadic " : ""}${quoteIdent(p.name)} => $${values.length}::text[]::${p.type}`;
      }
      values.push(vals[0]);
      return `${quoteIdent(p.name)} => $${values.length}::${p.type}`;
    });
    call = `${target}(${parts.join(", ")})`;
  }
  const fromClause = (tail: string) => (from ? `from ${from}, lateral ${tail}` : `from ${tail}`);
  if (fn.returnsVoid) return { sql: `select ${call} ${from ? `from ${from}` : ""}`, values };
  if (fn.returnsSet) {
    return {
      sql: `select coalesce(json_agg(_r), '[]')::text as body, count(*)::int as n ${fromClause(`${call} as _r`)}`,
      values,
    };
  }
  if (fn.returnsComposite) {
    return { sql: `select (json_agg(_r) -> 0)::text as body, 1 as n ${fromClause(`${call} as _r`)}`, values };
  }
  return { sql: `select to_json(${call})::text as body, 1 as n ${from ? `from ${from}` : ""}`, values };
}

/** Headers for `request.headers`, as PostgREST exposes them to SQL (lower-case names, single values). */
function requestHeaders(req: IncomingMessage): string {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(", ") : v;
  return JSON.stringify(out);
}

function preferences(req: IncomingMessage): Set<string> {
  const raw = req.headers["prefer"];
  const list = (Array.isArray(raw) ? raw.join(",") : raw ?? "").split(",");
  return new Set(list.map((s) => s.trim()).filter(Boolean));
}

/**
 * POST/GET/HEAD /rest/v1/rpc/{fn}: one transaction per call that assumes the caller's role and publishes the JWT
 * claims where auth.uid()/auth.jwt() read them, then answers with the function's JSON.
 */
export async function handleRpc(
  ctx: GatewayContext,
  req: IncomingMessage,
  res: ServerResponse,
  fnName: string,
  url: URL,
  apiKey: ApiKeyIdentity,
): Promise<void> {
  const method = req.method ?? "GET";
  if (method !== "GET" && method !== "HEAD" && method !== "POST") {
    throw new PgrstError(405, "PGRST101", `Cannot use the ${method} method on RPC`);
  }
  const isRead = method !== "POST";
  const caller = await resolveCaller(ctx, req, apiKey);
  const schema = pickSchema(ctx, req, isRead);
  const args = await readArgs(req, url, isRead);
  const keys = new Set(args.kind === "json" ? Object.keys(args.values) : [...args.values.keys()]);
  const prefs = preferences(req);
  // One connection for the lookup and the call: a second pool checkout per call bought nothing.
  const { client, release } = await connect(ctx);
  let fn: FunctionInfo;
  let result: { body: string | null; n: number };
  try {
    const resolved = resolveFunction(await findFunctions(client, schema, fnName), schema, fnName, keys, !isRead);
    fn = resolved.fn;
    if (isRead && fn.volatility === "v") {
      // PostgREST runs GET calls read-only, so a writing VOLATILE function fails there with 25006 → 405. The local
      // gateway refuses every VOLATILE function on GET up front, so the mistake shows whether or not this call writes.
      throw new PgrstError(405, "25006", `cannot execute VOLATILE function ${schema}.${fnName} in a read-only transaction`, null, "Call it with POST");
    }
    const { sql, values } = buildCall(fn, args, resolved.wholeBody);
    result = await runInRoleTransaction(ctx, client, req, caller, isRead, prefs.has("tx=rollback"), sql, values, url);
  } finally {
    release();
  }

  if (fn.returnsVoid) return sendEmpty(res, 204);
  let body = result.body ?? "null";
  const headers: Record<string, string> = {};
  if (fn.returnsSet) {
    const n = result.n;
    headers["Content-Range"] = `${n ? `0-${n - 1}` : "*"}/${prefs.has("count=exact") ? n : "*"}`;
    if ((header(req, "accept") ?? "").includes("application/vnd.pgrst.object+json")) {
      if (n !== 1) {
        throw new PgrstError(406, "PGRST116", "Cannot coerce the result to a single JSON object", `The result contains ${n} rows`);
      }
      body = JSON.stringify((JSON.parse(body) as unknown[])[0]);
    }
  }
  if (method === "HEAD") return sendEmpty(res, 200, { "Content-Type": "application/json; charset=utf-8", ...headers });
  sendRawJson(res, 200, body, headers);
}

/** A pooled connection, or PostgREST's 503 when none can be had. */
async function connect(ctx: GatewayContext): Promise<{ client: pg.PoolClient; release: () => void }> {
  try {
    return await checkout(ctx.pool);
  } catch (e) {
    ctx.log(`rpc: no database connection: ${(e as Error).message}`);
    throw connectionFailure(e) ?? new PgrstError(503, "PGRST000", "Database connection error. Retrying the connection.");
  }
}

async function runInRoleTransaction(
  ctx: GatewayContext,
  client: pg.PoolClient,
  req: IncomingMessage,
  caller: Caller,
  readOnly: boolean,
  rollback: boolean,
  sql: string,
  values: unknown[],
  url: URL,
): Promise<{ body: string | null; n: number }> {
  try {
    // One round trip instead of four: the gateway's connections pipeline (index.ts), so the four statements go out
    // together and the server runs them one after another, as if each had been awaited: the role and claims are set
    // before the call is even parsed, and the values stay bound parameters. When one fails, the transaction is
    // aborted, the ones after it fail with 25P02 (never running) and the closing commit rolls back; the first error
    // is the one answered.
    // A pipelining client writes each statement as it is queued; corked, the four leave in one write (one system
    // call and one wake-up of the backend instead of four: the writes were ~40 % of the gateway's CPU per call).
    const stream = (client as unknown as pg.Client).connection.stream;
    stream.cork();
    let statements: Promise<unknown>[];
    try {
      statements = [
        client.query(readOnly ? "begin read only" : "begin"),
        client.query({ name: "gateway_rpc_settings", text: SETTINGS_SQL, values: [caller.role, JSON.stringify(caller.claims), req.method ?? "GET", url.pathname, requestHeaders(req)] }),
        client.query<{ body: string | null; n: number }>(sql, values),
        client.query(rollback ? "rollback" : "commit"),
      ];
    } finally {
      stream.uncork();
    }
    const done = await Promise.allSettled(statements);
    const failed = done.find((d): d is PromiseRejectedResult => d.status === "rejected");
    if (failed) throw failed.reason;
    const call = done[2] as PromiseFulfilledResult<pg.QueryResult<{ body: string | null; n: number }>>;
    return call.value.rows[0] ?? { body: null, n: 0 };
  } catch (e) {
    // Left in a transaction only when the pipeline did not reach its end (the connection broke, a client-side error).
    if (client.getTransactionStatus() !== "I") await client.query("rollback").catch(() => undefined);
    throw toPgrstError(ctx, e, caller.role !== "anon");
  }
}

/** The settings of one call, transaction-local (a named statement: parsed once per connection). */
const SETTINGS_SQL = `select set_config('role', $1, true), set_config('request.jwt.claims', $2, true),
       set_config('request.method', $3, true), set_config('request.path', $4, true),
       set_config('request.headers', $5, true)`;

function toPgrstError(ctx: GatewayContext, e: unknown, authenticated: boolean): PgrstError {
  if (e instanceof PgrstError) return e;
  if (!isPgError(e)) {
    ctx.log(`rpc failed: ${(e as Error).message}`);
    return new PgrstError(503, "PGRST001", "Database client error. Retrying the connection.");
  }
  const status = statusForSqlState(e.code, e.message, authenticated);
  if (!exposesMessage(e.code, status)) {
    ctx.log(`rpc failed with ${e.code}: ${e.message}`);
    return new PgrstError(status, e.code, "Internal database error (details in the gateway log)");
  }
  const headers: Record<string, string> = status === 401 ? { "WWW-Authenticate": "Bearer" } : {};
  return new PgrstError(status, e.code, e.message, e.detail ?? null, e.hint ?? null, headers);
}
