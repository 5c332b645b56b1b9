import type { NextRequest } from "next/server";
import { z } from "zod";
import { routeAuthLevel, type RouteAuthLevel } from "@/lib/auth/public-routes";
import { config } from "@/lib/config";
import { logger } from "@/lib/logger";
import { createServiceClient } from "@/lib/supabase/server";
import type { RateLimitVerdict } from "@/lib/backend/rate-limit";
import { ApiError, forbidden, unauthorized } from "./errors";
import { resolveIdentity, type Identity } from "./identity";
import { clientAddress, limitByAddress, limitByApiKey, rateLimitHeaders, tightest, type RateLimitPolicy } from "./rate-limit";

export { ApiError } from "./errors";

export type AuthLevel = RouteAuthLevel;

export interface RouteOptions<B extends z.ZodType | undefined, Q extends z.ZodType | undefined> {
  /** Who may call: every handler authenticates itself; the middleware is only a UX gate. */
  auth: AuthLevel;
  body?: B;
  query?: Q;
  /** Which rate limit applies (D-21); default "general" (100/min per IP, 1000/h per API key). */
  rateLimit?: RateLimitPolicy;
  /** "required": the caller must present a valid X-API-Key (the /api/v1 reference API); otherwise a key is optional. */
  apiKey?: "required" | "optional";
  /** Refuse a larger JSON body with 413 before parsing it. */
  maxBodyBytes?: number;
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

/** Validation failures → 422 VALIDATION_ERROR listing each offending field (D-14, D-15). */
export function validationError(error: z.ZodError, where: "body" | "query"): ApiError {
  const fields = error.issues.map((i) => ({ field: i.path.join(".") || where, message: i.message }));
  const first = fields[0];
  return new ApiError(422, "VALIDATION_ERROR", first ? `Invalid ${where}: ${first.field}: ${first.message}` : `Invalid ${where}.`, { fields });
}

async function readJson(req: NextRequest, maxBytes?: number): Promise<unknown> {
  const tooLarge = () => new ApiError(413, "BODY_TOO_LARGE", `The request body is larger than ${maxBytes} bytes.`);
  if (maxBytes !== undefined && Number(req.headers.get("content-length") ?? 0) > maxBytes) throw tooLarge();
  let text: string;
  try {
    text = await req.text();
  } catch {
    // The client went away mid-body (a page closing while its beacon is in flight): nothing to do, nothing to log.
    throw new ApiError(400, "REQUEST_ABORTED", "The request body could not be read.");
  }
  if (maxBytes !== undefined && Buffer.byteLength(text, "utf8") > maxBytes) throw tooLarge();
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(400, "INVALID_JSON", "The request body is not valid JSON.");
  }
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

/** Server-Timing phases of one request (config SERVER_TIMING); a no-op when it is off. */
function phaseTimer() {
  if (!config().SERVER_TIMING) return { mark: (_phase: string) => undefined, apply: (res: Response) => res };
  const phases: string[] = [];
  let last = performance.now();
  return {
    mark(phase: string) {
      const now = performance.now();
      phases.push(`${phase};dur=${(now - last).toFixed(2)}`);
      last = now;
    },
    apply(res: Response): Response {
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
 * The one wrapper every route handler uses: rate limit by client address → authenticate (+ API-key limit) → parse
 * (zod) → call the backend → envelope errors. The per-IP limit runs before authentication so that guessing
 * credentials costs quota, and before any database call. Unexpected errors are logged and answered as 500 without
 * internals.
 */
export function withRoute<B extends z.ZodType | undefined = undefined, Q extends z.ZodType | undefined = undefined>(
  opts: RouteOptions<B, Q>,
  handler: Handler<Infer<B>, Infer<Q>>,
) {
  return async (req: NextRequest, segment?: { params?: Promise<Record<string, string | string[]>> }): Promise<Response> => {
    const verdicts: RateLimitVerdict[] = [];
    const timer = phaseTimer();
    try {
      const policy = opts.rateLimit ?? "general";
      const address = clientAddress(req).address;
      if (policy !== "none") verdicts.push(await limitByAddress(policy, address));
      timer.mark("limit");

      // The public-route allowlist is enforced here for API routes (the middleware only gates pages).
      const auth = routeAuthLevel(opts.auth, req.method, req.nextUrl.pathname);
      const strict = auth !== "public" && WRITE_METHODS.has(req.method);
      const identity = await resolveIdentity(req, { strict });
      if (opts.apiKey === "required" && !identity.apiKey) {
        throw new ApiError(401, "API_KEY_REQUIRED", "This endpoint needs a server API key in the X-API-Key header.");
      }
      if (identity.apiKey && policy === "general") verdicts.push(await limitByApiKey(identity.apiKey.id));
      if (auth !== "public" && identity.role === "anonymous") throw unauthorized();
      if (auth === "admin" && identity.role !== "admin") throw forbidden();
      timer.mark("auth");

      let body: unknown = undefined;
      if (opts.body) {
        const parsed = opts.body.safeParse(await readJson(req, opts.maxBodyBytes));
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
      const params = Object.fromEntries(Object.entries(rawParams).map(([k, v]) => [k, Array.isArray(v) ? v.join("/") : v]));

      const result = await handler({
        req,
        identity,
        body: body as Infer<B>,
        query: query as Infer<Q>,
        params,
        clientAddress: address,
        db: identity.db,
        serviceDb: createServiceClient,
      });
      timer.mark("handler");
      return timer.apply(withLimitHeaders(toResponse(result), tightest(verdicts)));
    } catch (e) {
      if (e instanceof ApiError) return e.status === 429 ? e.toResponse() : withLimitHeaders(e.toResponse(), tightest(verdicts));
      logger.error({ err: e instanceof Error ? { name: e.name, message: e.message, stack: e.stack } : String(e), path: req.nextUrl.pathname }, "unhandled route error");
      return new ApiError(500, "INTERNAL_ERROR", "Something went wrong on our side.").toResponse();
    }
  };
}
