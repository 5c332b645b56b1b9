import type { NextRequest } from "next/server";
import { z } from "zod";
import { routeAuthLevel, type RouteAuthLevel } from "@/lib/auth/public-routes";
import { config } from "@/lib/config";
import { jsonDepthExceeds, MAX_JSON_DEPTH } from "@/lib/json-depth";
import { logger } from "@/lib/logger";
import { guardedByBudget, withRequestBudget } from "@/lib/request-budget";
import { createServiceClient } from "@/lib/supabase/server";
import type { QuotaName, RateLimitVerdict } from "@/lib/backend/rate-limit";
import { ApiError, forbidden, unauthorized } from "@/lib/errors";
import { filterFieldError, filterIssueParams } from "@/lib/schema/filter-issues";
import { errorResponse } from "./errors";
import { locallyVerifiedClaims, rateLimitIdOfClaims, resolveApiKeyIdentity, resolveIdentity, type Identity } from "./identity";
import { clientAddress, limitByAddressAndUser, limitByApiKey, limitByUser, limitQuota, rateLimitHeaders, tightest, type RateLimitPolicy } from "./rate-limit";

export { ApiError } from "@/lib/errors";
// The rendering lives in ./errors; re-exported for callers that know it from here.
export { errorResponse, referenceErrorName } from "./errors";

export type AuthLevel = RouteAuthLevel;

export interface RouteOptions<B extends z.ZodType | undefined, Q extends z.ZodType | undefined> {
  /** Who may call: every handler authenticates itself; the middleware is only a UX gate. */
  auth: AuthLevel;
  body?: B;
  query?: Q;
  /** Which rate limit applies (D-21); default "general" (100/min per IP, 1000/h per API key). */
  rateLimit?: RateLimitPolicy;
  /** An hourly quota this operation also counts against (after authentication; see limitQuota). */
  quota?: QuotaName;
  /**
   * Checks (and may normalise) the path's segments before any quota is counted, throwing the route's own error (e.g.
   * a non-UUID line id is a 404): a request for a path that cannot exist costs no quota, like a refused body.
   */
  params?: (raw: Record<string, string>) => Record<string, string>;
  /** "required": the caller must present a valid X-API-Key (the /api/v1 reference API); otherwise a key is optional. */
  apiKey?: "required" | "optional";
  /**
   * The body cap (413 BODY_TOO_LARGE past it, security review H2): a byte count, or a named cap from config —
   * "default" (REQUEST_BODY_MAX_BYTES, used when omitted: no route reads an uncapped body), "credentials"
   * (CREDENTIALS_BODY_MAX_BYTES, sign-in and sign-up), "events" (EVENTS_BODY_MAX_BYTES), "content" (CONTENT_BODY_MAX_BYTES,
   * blog post writes: a body of up to 100,000 characters).
   */
  maxBodyBytes?: BodyCap;
  /**
   * The handler streams the body itself (a file upload: /api/admin/imports), under a cap of its own. Such a write may
   * also be `application/octet-stream`, which, like JSON, a cross-site page cannot send without a CORS preflight that
   * is never granted (the CSRF defence holds); the Origin and Sec-Fetch-Site checks apply as to every write.
   */
  rawBody?: true;
}

export type BodyCap = number | "default" | "credentials" | "events" | "content";

function capBytes(cap: BodyCap | undefined): number {
  if (typeof cap === "number") return cap;
  const c = config();
  if (cap === "credentials") return c.CREDENTIALS_BODY_MAX_BYTES;
  if (cap === "events") return c.EVENTS_BODY_MAX_BYTES;
  if (cap === "content") return c.CONTENT_BODY_MAX_BYTES;
  return c.REQUEST_BODY_MAX_BYTES;
}

type Infer<T> = T extends z.ZodType ? z.infer<T> : undefined;

export interface RouteContext<B, Q> {
  req: NextRequest;
  identity: Identity;
  body: B;
  query: Q;
  params: Record<string, string>;
  /** The caller's address as every limiter sees it (D-22), or "unverified". */
  clientAddress: string;
  /** Client acting as the caller (RLS applies). */
  db: Identity["db"];
  /** Service-role client: bypasses RLS, so guard ownership yourself. */
  serviceDb: () => ReturnType<typeof createServiceClient>;
}

type Handler<B, Q> = (ctx: RouteContext<B, Q>) => Promise<unknown> | unknown;

const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * What a client needs to word an issue itself, in its language and with the field's label (lib/i18n/validation.ts):
 * the path as an array (array indices as numbers), zod's issue code and the parameters of that code.
 */
function issueDetail(i: z.core.$ZodIssue): Record<string, unknown> {
  const out: Record<string, unknown> = { path: i.path.filter((p) => typeof p !== "symbol"), code: i.code };
  for (const k of ["origin", "minimum", "maximum", "inclusive", "exact", "format", "pattern", "expected", "values", "keys", "params"] as const) {
    const value = (i as unknown as Record<string, unknown>)[k];
    if (value === undefined) continue;
    out[k] = typeof value === "bigint" ? Number(value) : value;
  }
  return out;
}

/**
 * Validation failures → 422 VALIDATION_ERROR listing each offending field (D-14, D-15). A filter object's issues
 * (lib/schema/filters.ts filtersField) carry their own code and answer once every other field is well-formed, as the
 * filter routes always have: COLLECTION_IDS_NOT_ALLOWED, INVALID_COLLECTION_ID, or 422 FILTER_INVALID naming the
 * filter key (D-06).
 */
export function validationError(error: z.ZodError, where: "body" | "query"): ApiError {
  const inFilter = (i: z.core.$ZodIssue) => {
    const code = filterIssueParams(i)?.code;
    return code !== undefined && code !== "VALIDATION_ERROR";
  };
  const plain = error.issues.filter((i) => !inFilter(i));
  const filterIssue = error.issues.find(inFilter);
  if (!plain.length && filterIssue) return filterFieldError(filterIssue);
  const fields = plain.map((i) => ({ field: i.path.join(".") || where, message: i.message, ...issueDetail(i) }));
  const first = fields[0];
  return new ApiError("VALIDATION_ERROR", first ? `Invalid ${where}: ${first.field}: ${first.message}` : `Invalid ${where}.`, { fields });
}

const bodyTooLarge = (maxBytes: number) => new ApiError("BODY_TOO_LARGE", `The request body is larger than ${maxBytes} bytes.`);

/**
 * Read a request body stream as UTF-8, holding at most `maxBytes` (plus the chunk that crossed the line), whether or
 * not the client sent a Content-Length (chunked bodies included): never buffers the whole body first (security review
 * H2). Past the cap nothing more is kept; up to `drainBytes` more is read and discarded so the client, still sending,
 * can read its 413 (a server that stops reading resets the connection and the client sees no answer). A body still
 * arriving beyond that is abandoned (reset). Either way: 413 BODY_TOO_LARGE.
 */
export async function readBodyText(stream: ReadableStream<Uint8Array> | null, maxBytes: number, drainBytes = 0): Promise<string> {
  if (!stream) return "";
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    let step: ReadableStreamReadResult<Uint8Array>;
    try {
      step = await reader.read();
    } catch {
      // The client went away mid-body (a page closing while its beacon is in flight): nothing to do, nothing to log.
      if (total > maxBytes) throw bodyTooLarge(maxBytes);
      throw new ApiError("REQUEST_ABORTED", "The request body could not be read.");
    }
    if (step.done) break;
    total += step.value.byteLength;
    if (total <= maxBytes) chunks.push(step.value);
    else if (total > maxBytes + drainBytes) {
      reader.cancel().catch(() => undefined);
      throw bodyTooLarge(maxBytes);
    }
  }
  if (total > maxBytes) throw bodyTooLarge(maxBytes);
  return Buffer.concat(chunks).toString("utf8");
}

/** The JSON body under its cap; deeper than MAX_JSON_DEPTH is refused before parsing (security review L1). */
async function readJson(req: NextRequest, maxBytes: number): Promise<unknown> {
  const declared = req.headers.get("content-length");
  if (declared !== null && Number(declared) > maxBytes) throw bodyTooLarge(maxBytes);
  const text = await readBodyText(req.body, maxBytes, config().REQUEST_BODY_DRAIN_BYTES);
  if (text.trim() === "") return {};
  if (jsonDepthExceeds(text)) throw new ApiError("JSON_TOO_DEEP", `The request body nests deeper than ${MAX_JSON_DEPTH} levels.`);
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError("INVALID_JSON", "The request body is not valid JSON.");
  }
}

/** What a write request's origin headers say (CSRF defence, security review M1). */
export type WriteVerdict = "ok" | "cross-site" | "not-json";

/** `application/json`, parameters (charset) allowed. */
export function isJsonContentType(value: string | null): boolean {
  return value !== null && value.split(";")[0].trim().toLowerCase() === "application/json";
}

/**
 * The origins a browser page of this app sends. With APP_URL: exactly its origin (scheme, host and port). Without it:
 * any origin whose host[:port] is the Host (or X-Forwarded-Host) the request came in on — the test app on
 * 127.0.0.1:<port>, a dev server, a proxy that keeps or forwards Host. A cross-site page cannot forge Host or add
 * X-Forwarded-Host (a custom header needs a CORS preflight we never grant), so either form is sound against CSRF; set
 * APP_URL in production so the scheme is checked too.
 */
export function isOwnOrigin(origin: string, headers: Headers, appUrl: string | undefined): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // "null" (sandboxed frames, privacy redirects) and garbage are never ours.
  }
  if (appUrl) return url.origin === new URL(appUrl).origin;
  const hosts = [headers.get("host"), headers.get("x-forwarded-host")?.split(",")[0]]
    .filter((h): h is string => !!h)
    .map((h) => h.trim().toLowerCase());
  return hosts.includes(url.host.toLowerCase());
}

/**
 * The CSRF check of a write (every method but GET/HEAD/OPTIONS): refused as cross-site when `Sec-Fetch-Site:
 * cross-site` or an `Origin` that is not ours is present — whatever the content type; otherwise it must be JSON or
 * carry no body at all.
 * Requiring `application/json` makes a cross-origin write need a CORS preflight (never granted), so a form or
 * no-cors fetch from another site cannot reach a handler even from a browser that sends neither header.
 * A server-to-server caller presenting X-API-Key and no session cookie is not CSRF-able (a browser cannot add that
 * header cross-site without a preflight), so its Origin/Sec-Fetch-Site are not judged; it still sends JSON.
 */
export function writeVerdict(headers: Headers, appUrl: string | undefined, binary = false): WriteVerdict {
  const serverCaller = headers.has("x-api-key") && !/(?:^|;\s*)sb-[^=]*-auth-token/.test(headers.get("cookie") ?? "");
  if (!serverCaller) {
    if (headers.get("sec-fetch-site")?.toLowerCase() === "cross-site") return "cross-site";
    const origin = headers.get("origin");
    if (origin !== null && !isOwnOrigin(origin, headers, appUrl)) return "cross-site";
  }
  const type = headers.get("content-type");
  return isJsonContentType(type) || (binary && isOctetStream(type)) || isBodiless(headers) ? "ok" : "not-json";
}

const isOctetStream = (value: string | null) => value !== null && value.split(";")[0].trim().toLowerCase() === "application/octet-stream";

/**
 * A request that carries no body and names no media type (`curl -X DELETE`, `fetch(url, { method: "DELETE" })`): no
 * HTTP client sends a Content-Type without a body, so demanding one refused ordinary deletes. It stays closed to CSRF:
 * the Origin / Sec-Fetch-Site checks above come first, and a cross-origin DELETE, PUT or PATCH needs a preflight that is
 * never granted.
 */
function isBodiless(headers: Headers): boolean {
  if (headers.has("content-type") || headers.has("transfer-encoding")) return false;
  const length = headers.get("content-length");
  return length === null || length.trim() === "0";
}

function checkWrite(req: NextRequest, binary: boolean): void {
  const verdict = writeVerdict(req.headers, config().APP_URL, binary);
  if (verdict === "cross-site") throw new ApiError("CSRF_REJECTED", "Cross-site requests may not change anything here.");
  if (verdict === "not-json") throw new ApiError("UNSUPPORTED_MEDIA_TYPE", "Send the request with Content-Type: application/json.");
}

function queryObject(req: NextRequest): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(req.nextUrl.searchParams.keys())) {
    const all = req.nextUrl.searchParams.getAll(key);
    out[key] = all.length > 1 ? all : all[0];
  }
  return out;
}

/** Render what a handler returned: a Response passes through, anything else becomes 200 JSON. */
function toResponse(value: unknown): Response {
  if (value instanceof Response) return value;
  return Response.json(value ?? null);
}

/** Add the X-RateLimit-* headers unless the handler set its own; copies a Response whose headers are immutable. */
function withLimitHeaders(res: Response, verdict: RateLimitVerdict | null): Response {
  if (!verdict || res.headers.has("X-RateLimit-Limit")) return res;
  const headers = rateLimitHeaders(verdict);
  try {
    for (const [k, v] of Object.entries(headers)) res.headers.set(k, v);
    return res;
  } catch {
    const copy = new Response(res.body, { status: res.status, statusText: res.statusText, headers: res.headers });
    for (const [k, v] of Object.entries(headers)) copy.headers.set(k, v);
    return copy;
  }
}

interface PhaseTimer {
  /** The phase that ends now (it began where the previous one ended). */
  mark(phase: string): void;
  apply(res: Response): Response;
}

/** Server-Timing phases of one request (config SERVER_TIMING); a no-op when it is off. */
function phaseTimer(): PhaseTimer {
  if (!config().SERVER_TIMING) return { mark: () => undefined, apply: (res) => res };
  const phases: string[] = [];
  let last = performance.now();
  const push = (name: string, ms: number) => phases.push(`${name};dur=${ms.toFixed(2)}`);
  return {
    mark(phase) {
      const now = performance.now();
      push(phase, now - last);
      last = now;
    },
    apply(res) {
      try {
        res.headers.set("Server-Timing", phases.join(", "));
      } catch {
        // Immutable headers (a Response the handler passed through): timing is best effort.
      }
      return res;
    },
  };
}

/**
 * The one wrapper every route handler uses: rate limit by client address → CSRF check of writes → authenticate
 * (+ API-key and per-user limits) → read the capped body and parse (zod) → call the backend → envelope errors. The
 * per-IP limit runs before authentication so that guessing credentials costs quota, and before any database call.
 * Unexpected errors are logged and answered as 500 without internals.
 */
export function withRoute<B extends z.ZodType | undefined = undefined, Q extends z.ZodType | undefined = undefined>(
  opts: RouteOptions<B, Q>,
  handler: Handler<Infer<B>, Infer<Q>>,
) {
  const answer = async (req: NextRequest, segment?: { params?: Promise<Record<string, string | string[]>> }): Promise<Response> => {
    const verdicts: RateLimitVerdict[] = [];
    let headerVerdict: RateLimitVerdict | null = null;
    const timer = phaseTimer();
    try {
      const policy = opts.rateLimit ?? "general";
      const address = clientAddress(req).address;
      // Reads: one limiter round trip for the address and, when the token verifies locally, the user.
      // Writes count the user only after the CSRF check below, so a cross-site page cannot spend its victim's
      // allowance with writes that are refused; a caller with an API key is limited by address alone first (the key
      // is looked up in the database after this).
      const keyed = opts.apiKey === "required" || req.headers.has("x-api-key");
      const combine = policy !== "none" && !keyed && !WRITE_METHODS.has(req.method);
      const verified = combine ? await locallyVerifiedClaims(req) : undefined;
      timer.mark("claims");
      const claimedUser = rateLimitIdOfClaims(verified ?? null);
      if (policy !== "none") verdicts.push(...(await limitByAddressAndUser(policy, address, claimedUser)));
      // Writes: refused cross-site (403) or when not JSON (415) before any database call (security review M1).
      if (WRITE_METHODS.has(req.method)) checkWrite(req, opts.rawBody === true);
      timer.mark("limit");

      // The public-route allowlist is enforced here for API routes (the middleware only gates pages).
      const auth = routeAuthLevel(opts.auth, req.method, req.nextUrl.pathname);
      const strict = auth !== "public" && WRITE_METHODS.has(req.method);
      // The reference API acts as the key's user and ignores any bearer or session (D-18).
      const identity = opts.apiKey === "required" ? await resolveApiKeyIdentity(req) : await resolveIdentity(req, { strict, verified });
      if (identity.apiKey && policy === "general") {
        const keyVerdict = await limitByApiKey(identity.apiKey.id);
        verdicts.push(keyVerdict);
        // The reference API reports its own limit (1000/h per key) in X-RateLimit-*; a tighter per-IP
        // limit still refuses with its own 429 before this point.
        if (opts.apiKey === "required") headerVerdict = keyVerdict;
      }
      // The same rule per signed-in user, so rotating addresses buys no fresh allowance (R-AUTH-007).
      if (identity.rateLimitId && policy !== "none" && identity.rateLimitId !== claimedUser) verdicts.push(await limitByUser(policy, identity.rateLimitId));
      if (auth !== "public" && identity.role === "anonymous") throw unauthorized();
      if (auth === "admin" && identity.role !== "admin") throw forbidden();
      timer.mark("auth");

      let body: unknown = undefined;
      if (opts.body) {
        const parsed = opts.body.safeParse(await readJson(req, capBytes(opts.maxBodyBytes)));
        if (!parsed.success) throw validationError(parsed.error, "body");
        body = parsed.data;
      }
      let query: unknown = undefined;
      if (opts.query) {
        const parsed = opts.query.safeParse(queryObject(req));
        if (!parsed.success) throw validationError(parsed.error, "query");
        query = parsed.data;
      }
      const rawParams = (await segment?.params) ?? {};
      const joined = Object.fromEntries(Object.entries(rawParams).map(([k, v]) => [k, Array.isArray(v) ? v.join("/") : v]));
      const params = opts.params ? opts.params(joined) : joined;
      // Quotas count only well-formed requests: a refused body or path costs nothing.
      if (opts.quota) verdicts.push(await limitQuota(opts.quota, { rateLimitId: identity.rateLimitId, address }));

      const context = {
        req,
        identity,
        body: body as Infer<B>,
        query: query as Infer<Q>,
        params,
        clientAddress: address,
        serviceDb: createServiceClient,
      } as RouteContext<Infer<B>, Infer<Q>>;
      // Lazy like identity.db: reading it here built the caller's session client (a GoTrueClient that decodes the
      // session cookie) on every request, ~12 % of the app's CPU on a signed-in keyword search that never uses it.
      Object.defineProperty(context, "db", { get: () => identity.db, enumerable: true });
      const result = await guardedByBudget(Promise.resolve(handler(context)), budgetSpent);
      timer.mark("handler");
      return timer.apply(withLimitHeaders(toResponse(result), headerVerdict ?? tightest(verdicts)));
    } catch (e) {
      const path = req.nextUrl.pathname;
      if (e instanceof ApiError) return e.status === 429 ? errorResponse(e, path) : withLimitHeaders(errorResponse(e, path), headerVerdict ?? tightest(verdicts));
      logger.error({ err: e instanceof Error ? { name: e.name, message: e.message, stack: e.stack } : String(e), path }, "unhandled route error");
      return errorResponse(new ApiError("INTERNAL_ERROR", "Something went wrong on our side."), path);
    }
  };
  // One time budget for all the request calls out to (lib/request-budget.ts; docs/faults.md "Deadlines are budgets").
  return (req: NextRequest, segment?: { params?: Promise<Record<string, string | string[]>> }): Promise<Response> =>
    withRequestBudget(opts.rawBody ? config().UPLOAD_DEADLINE_MS : requestBudgetMs(req.method), () => answer(req, segment));
}

/** The time budget of one request (REQUEST_DEADLINE_READ_MS / _WRITE_MS). */
function requestBudgetMs(method: string): number {
  const c = config();
  return WRITE_METHODS.has(method) ? c.REQUEST_DEADLINE_WRITE_MS : c.REQUEST_DEADLINE_READ_MS;
}

const budgetSpent = () => new ApiError("UPSTREAM_TIMEOUT", "A service this request needs did not answer within the request's time budget.");
