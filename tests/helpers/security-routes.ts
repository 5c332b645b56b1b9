import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { routeAuthLevel, type RouteAuthLevel } from "@/lib/auth/public-routes";
import { config } from "@/lib/config";

/**
 * The attacker's map of the API, read from the code (app/api/**\/route.ts) rather than kept by hand, so a route added
 * tomorrow is attacked tomorrow: each exported method with the options it passes to `withRoute` (declared auth level,
 * whether it reads a body, its body cap, whether it needs an API key). The suites in tests/security derive their
 * tables from this and fail when a route exists that no table covers.
 */

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface RouteHandler {
  /** e.g. app/api/collections/[id]/route.ts */
  file: string;
  /** URL template: /api/collections/[id], /api/[...path] */
  template: string;
  method: Method;
  declared: RouteAuthLevel;
  apiKeyRequired: boolean;
  /** Whether `withRoute` reads a JSON body (a `body:` schema). */
  readsBody: boolean;
  /** The body cap in bytes withRoute applies (default REQUEST_BODY_MAX_BYTES). */
  maxBodyBytes: number;
  /** Names of the request schemas the route uses (body and query), for tables keyed by what a route accepts. */
  schemas: string[];
}

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const apiDir = path.join(repo, "app", "api");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

function routeFiles(dir: string, out: string[] = []): string[] {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) routeFiles(p, out);
    else if (e.name === "route.ts") out.push(p);
  }
  return out.sort();
}

/** `16 * 1024`, `16_384`, `"credentials"` → bytes, as lib/api/route.ts capBytes reads them. */
function capOf(expr: string | undefined): number {
  const c = config();
  if (expr === undefined || expr === '"default"') return c.REQUEST_BODY_MAX_BYTES;
  if (expr === '"credentials"') return c.CREDENTIALS_BODY_MAX_BYTES;
  if (expr === '"events"') return c.EVENTS_BODY_MAX_BYTES;
  if (expr === '"content"') return c.CONTENT_BODY_MAX_BYTES;
  const factors = expr.split("*").map((f) => Number(f.trim().replace(/_/g, "")));
  if (factors.some((f) => !Number.isFinite(f))) throw new Error(`cannot read maxBodyBytes ${expr}`);
  return factors.reduce((a, b) => a * b, 1);
}

/** The options object literal of a `withRoute(` call starting at `at` (balanced braces). */
function optionsAt(src: string, at: number): string {
  const open = src.indexOf("{", at);
  let depth = 0;
  for (let i = open; i < src.length; i++) {
    if (src[i] === "{") depth++;
    else if (src[i] === "}" && --depth === 0) return src.slice(open, i + 1);
  }
  throw new Error("unbalanced withRoute options");
}

function handlerOf(file: string, template: string, method: Method, opts: string): RouteHandler {
  const auth = /auth:\s*"(\w+)"/.exec(opts)?.[1];
  if (auth !== "public" && auth !== "user" && auth !== "admin") throw new Error(`${file} ${method}: no auth level in ${opts}`);
  const body = /\bbody:\s*([\w.()]+)/.exec(opts)?.[1];
  const query = /\bquery:\s*([\w.()]+)/.exec(opts)?.[1];
  return {
    file: path.relative(repo, file),
    template,
    method,
    declared: auth,
    apiKeyRequired: /apiKey:\s*"required"/.test(opts),
    readsBody: body !== undefined,
    maxBodyBytes: capOf(/maxBodyBytes:\s*("\w+"|[\d_\s*]+)/.exec(opts)?.[1]?.trim()),
    schemas: [body, query].filter((s): s is string => !!s),
  };
}

/** Every exported route handler under app/api, parsed from its source. Throws when a file cannot be read fully. */
export function apiRoutes(): RouteHandler[] {
  const out: RouteHandler[] = [];
  for (const file of routeFiles(apiDir)) {
    const src = fs.readFileSync(file, "utf8");
    const template = "/" + path.relative(path.join(repo, "app"), path.dirname(file)).split(path.sep).join("/");
    const found = new Set<Method>();
    // export const GET = withRoute({ ... }, ...)
    for (const m of src.matchAll(/export const (GET|POST|PUT|PATCH|DELETE)\s*=\s*withRoute\(/g)) {
      out.push(handlerOf(file, template, m[1] as Method, optionsAt(src, (m.index ?? 0) + m[0].length)));
      found.add(m[1] as Method);
    }
    // const h = withRoute({ ... }); export { h as GET, h as POST }
    const named = new Map<string, string>();
    for (const m of src.matchAll(/const (\w+)\s*=\s*withRoute\(/g)) named.set(m[1], optionsAt(src, (m.index ?? 0) + m[0].length));
    for (const list of src.matchAll(/export\s*\{([^}]*)\}/g)) {
      for (const part of list[1].split(",")) {
        const [local, exported] = part.split(/\s+as\s+/).map((s) => s.trim());
        if (!(METHODS as readonly string[]).includes(exported)) continue;
        const opts = named.get(local);
        if (!opts) throw new Error(`${file}: ${exported} is not a withRoute handler`);
        out.push(handlerOf(file, template, exported as Method, opts));
        found.add(exported as Method);
      }
    }
    // Every exported HTTP method must have been understood: a handler not built by withRoute would escape the suite.
    for (const m of METHODS) {
      const exported = new RegExp(`export (?:async )?(?:const|function) ${m}\\b`).test(src) || new RegExp(`as ${m}\\b`).test(src);
      if (exported && !found.has(m)) throw new Error(`${file}: ${m} is exported but not through withRoute`);
    }
    if (found.size === 0) throw new Error(`${file}: no handler found`);
  }
  return out;
}

/** The template with its dynamic segments filled: [id] from `ids` (by segment name), [...path] by `rest`. */
export function fillPath(template: string, ids: Record<string, string>, rest = "no-such-route"): string {
  return template
    .replace(/\[\.\.\.(\w+)\]/g, () => rest)
    .replace(/\[(\w+)\]/g, (_, name: string) => {
      // A segment named otherwise ([slug]) takes the id value: any string exercises the route's not-found path.
      // Any other dynamic segment ([name], [run_id], [slug]) takes the id given (the suites name only `id`).
      // A second path parameter (a version number, /api/schemas/[id]/versions/[n]) is 1 unless given.
      const v = ids[name] ?? (name === "n" ? "1" : ids.id);
      if (v === undefined) throw new Error(`no value for [${name}] in ${template}`);
      return encodeURIComponent(v);
    });
}

/** The level withRoute enforces for this handler on `concretePath` (the allowlist only narrows what it declares). */
export function effectiveAuth(h: RouteHandler, concretePath: string): RouteAuthLevel {
  return routeAuthLevel(h.declared, h.method, concretePath);
}

export const isDynamic = (h: RouteHandler) => /\[\w+\]/.test(h.template);
export const isCatchAll = (h: RouteHandler) => /\[\.\.\.\w+\]/.test(h.template);
export const isWrite = (h: RouteHandler) => h.method !== "GET";
export const key = (h: Pick<RouteHandler, "method" | "template">) => `${h.method} ${h.template}`;
