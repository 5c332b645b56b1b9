import { after } from "next/server";
import type { NextRequest } from "next/server";
import { processShared } from "@/lib/process-shared";
import { directScope } from "@/lib/request-scope";

/**
 * Direct routes (issue 20 item 3, P-70): the hottest JSON reads (GET /api/search/documents and
 * /api/search/autocomplete) are dispatched by our HTTP server (server/direct-route.ts) straight to the route's own
 * handler once Next has loaded the route module, instead of through Next's router and response pipeline, which cost
 * ~2 ms of a ~3 ms keyword search. The handler is the very function Next would call (withRoute: limits, identity,
 * validation, errors); the dispatcher adds what Next adds to an API answer (lib/security-headers.ts, compression) and
 * gives the two request-scoped services route code uses, `after()` and the cookie store, their direct equivalents
 * (lib/request-scope.ts). Any other request, and any request the dispatcher cannot map exactly, goes through Next.
 *
 * The registry lives on globalThis under a registered symbol: the route module is bundled into Next's server chunks
 * while the server imports its own copy of this file, and both run in one process.
 */
export type DirectHandler = (req: NextRequest) => Promise<Response>;

const KEY = Symbol.for("judgment-search.direct-routes");

function routes(): Map<string, DirectHandler> {
  return processShared(KEY, () => new Map<string, DirectHandler>());
}

/** Called by a route module as it loads: GET `pathname` may be served directly from now on. */
export function registerDirectGet(pathname: string, handler: DirectHandler): void {
  routes().set(pathname, handler);
}

/** The directly served GET handler of `pathname`, if its route module has registered one. */
export function directGet(pathname: string): DirectHandler | undefined {
  return routes().get(pathname);
}

/**
 * Run `task` once the answer has been sent: Next's `after()` inside a request Next serves, the dispatcher's queue
 * inside a direct one (where `after()` has no request scope and throws).
 */
export function afterResponse(task: () => unknown): void {
  const scope = directScope();
  if (scope) scope.after.push(task);
  else after(task);
}
