import type { NextRequest } from "next/server";
import { z } from "zod";
import { logger } from "@/lib/logger";
import { createServiceClient } from "@/lib/supabase/server";
import { ApiError, forbidden, unauthorized } from "./errors";
import { resolveIdentity, type Identity } from "./identity";

export { ApiError } from "./errors";

export type AuthLevel = "public" | "user" | "admin";

export interface RouteOptions<B extends z.ZodType | undefined, Q extends z.ZodType | undefined> {
  /** Who may call: every handler authenticates itself; the middleware is only a UX gate. */
  auth: AuthLevel;
  body?: B;
  query?: Q;
}

type Infer<T> = T extends z.ZodType ? z.infer<T> : undefined;

export interface RouteContext<B, Q> {
  req: NextRequest;
  identity: Identity;
  body: B;
  query: Q;
  params: Record<string, string>;
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

async function readJson(req: NextRequest): Promise<unknown> {
  const text = await req.text();
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

/**
 * The one wrapper every route handler uses: authenticate → parse (zod) → call the backend → envelope errors.
 * Unexpected errors are logged and answered as 500 without internals.
 */
export function withRoute<B extends z.ZodType | undefined = undefined, Q extends z.ZodType | undefined = undefined>(
  opts: RouteOptions<B, Q>,
  handler: Handler<Infer<B>, Infer<Q>>,
) {
  return async (req: NextRequest, segment?: { params?: Promise<Record<string, string | string[]>> }): Promise<Response> => {
    try {
      const strict = opts.auth !== "public" && WRITE_METHODS.has(req.method);
      const identity = await resolveIdentity(req, { strict });
      if (opts.auth !== "public" && identity.role === "anonymous") throw unauthorized();
      if (opts.auth === "admin" && identity.role !== "admin") throw forbidden();

      let body: unknown = undefined;
      if (opts.body) {
        const parsed = opts.body.safeParse(await readJson(req));
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

      return toResponse(
        await handler({
          req,
          identity,
          body: body as Infer<B>,
          query: query as Infer<Q>,
          params,
          db: identity.db,
          serviceDb: createServiceClient,
        }),
      );
    } catch (e) {
      if (e instanceof ApiError) return e.toResponse();
      logger.error({ err: e instanceof Error ? { name: e.name, message: e.message, stack: e.stack } : String(e), path: req.nextUrl.pathname }, "unhandled route error");
      return new ApiError(500, "INTERNAL_ERROR", "Something went wrong on our side.").toResponse();
    }
  };
}
