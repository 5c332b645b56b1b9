import { AsyncLocalStorage } from "node:async_hooks";
import { after } from "next/server";
import type { NextRequest } from "next/server";
import type { ResponseCookie } from "next/dist/compiled/@edge-runtime/cookies";

/**
 * Direct routes (issue 20 item 3, P-70): the hottest JSON reads (GET /api/search/documents and
 * /api/search/autocomplete) are dispatched by our HTTP server (server/direct-route.ts) straight to the route's own
 * handler once Next has loaded the route module, instead of through Next's router and response pipeline, which cost
 * ~2 ms of a ~3 ms keyword search. The handler is the very function Next would call (withRoute: limits, identity,
 * validation, errors); the dispatcher adds what Next adds to an API answer (lib/security-headers.ts, compression) and
 * gives the two request-scoped services route code uses, `after()` and the cookie store, their direct equivalents
 * here. Any other request, and any request the dispatcher cannot map exactly, goes through Next.
 *
 * The registry lives on globalThis under a registered symbol: the route module is bundled into Next's server chunks
 * while the server imports its own copy of this file, and both run in one process.
 */
export type DirectHandler = (req: NextRequest) => Promise<Response>;

/** What `cookies()` gives a route handler, as far as our code uses it. */
export interface DirectCookieStore {
  getAll(): Array<{ name: string; value: string }>;
  set(name: string, value: string, options?: Partial<ResponseCookie>): void;
}

/** One direct request's scope: the work deferred until its answer is sent, and its cookies. */
export interface DirectScope {
  after: Array<() => unknown>;
  cookies: DirectCookieStore;
}

interface DirectState {
  routes: Map<string, DirectHandler>;
  scope: AsyncLocalStorage<DirectScope>;
}

const KEY = Symbol.for("judgment-search.direct-routes");

function state(): DirectState {
  const g = globalThis as typeof globalThis & { [KEY]?: DirectState };
  g[KEY] ??= { routes: new Map(), scope: new AsyncLocalStorage() };
  return g[KEY];
}

/** Called by a route module as it loads: GET `pathname` may be served directly from now on. Returns the handler. */
export function registerDirectGet(pathname: string, handler: DirectHandler): DirectHandler {
  state().routes.set(pathname, handler);
  return handler;
}

/** The directly served GET handler of `pathname`, if its route module has registered one. */
export function directGet(pathname: string): DirectHandler | undefined {
  return state().routes.get(pathname);
}

/** Run `fn` inside a direct request's scope (the dispatcher's side). */
export function inDirectScope<T>(scope: DirectScope, fn: () => Promise<T>): Promise<T> {
  return state().scope.run(scope, fn);
}

/** The cookie store of the direct request being served, or null inside a request Next serves. */
export function directCookies(): DirectCookieStore | null {
  return state().scope.getStore()?.cookies ?? null;
}

/**
 * Run `task` once the answer has been sent: Next's `after()` inside a request Next serves, the dispatcher's queue
 * inside a direct one (where `after()` has no request scope and throws).
 */
export function afterResponse(task: () => unknown): void {
  const scope = state().scope.getStore();
  if (scope) scope.after.push(task);
  else after(task);
}
