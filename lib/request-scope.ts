import { AsyncLocalStorage } from "node:async_hooks";
import type { ResponseCookie } from "next/dist/compiled/@edge-runtime/cookies";
import { processShared } from "@/lib/process-shared";

/**
 * The scope of a request our HTTP server dispatches to a route handler itself, without Next (lib/api/direct-routes.ts,
 * P-70): what route code would otherwise get from Next's request scope, `after()` and the cookie store. Below the web
 * tier so the Supabase session client (lib/supabase/server.ts) can read it. One per process (processShared): the
 * dispatcher's copy of this file and the one bundled with the route modules must agree.
 */

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

const KEY = Symbol.for("judgment-search.direct-request-scope");

function storage(): AsyncLocalStorage<DirectScope> {
  return processShared(KEY, () => new AsyncLocalStorage<DirectScope>());
}

/** Run `fn` inside a direct request's scope (the dispatcher's side). */
export function inDirectScope<T>(scope: DirectScope, fn: () => Promise<T>): Promise<T> {
  return storage().run(scope, fn);
}

/** The scope of the direct request being served, or undefined inside a request Next serves. */
export function directScope(): DirectScope | undefined {
  return storage().getStore();
}

/** The cookie store of the direct request being served, or null inside a request Next serves. */
export function directCookies(): DirectCookieStore | null {
  return directScope()?.cookies ?? null;
}
