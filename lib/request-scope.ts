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

/** One direct request's scope: the work deferred until its answer is sent, its cookies, and answer texts. */
export interface DirectScope {
  after: Array<() => unknown>;
  cookies: DirectCookieStore;
  /** The body text of each Response made by `textResponse` in this request: the dispatcher writes it as is. */
  texts: WeakMap<Response, string>;
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

/**
 * A Response whose body is `text`. Inside a direct request the Response carries no body stream: its text goes to the
 * dispatcher beside it (DirectScope.texts), which writes it to the socket as is. A body stream would cost encoding the
 * text, a web ReadableStream, and reading it back to bytes: ~0.1-0.2 ms of a ~1.6 ms keyword search through the app
 * (CPU profile under bench/app-overhead, issue 20 item 3). Inside a request Next serves it is an ordinary Response.
 */
export function textResponse(text: string, init: ResponseInit): Response {
  const scope = directScope();
  if (!scope) return new Response(text, init);
  const res = new Response(null, init);
  scope.texts.set(res, text);
  return res;
}

/** Give `copy` the direct text of `original` (a Response rebuilt with other headers keeps its body). */
export function carryDirectText(original: Response, copy: Response): Response {
  const scope = directScope();
  const text = scope?.texts.get(original);
  if (scope && text !== undefined) scope.texts.set(copy, text);
  return copy;
}
