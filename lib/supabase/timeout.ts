/**
 * The deadline of every Supabase call (D-31, M4): database RPCs and auth calls alike get `UPSTREAM_TIMEOUT_MS`,
 * instead of undici's 300 s defaults. The error it throws, and how a message is recognised as one, live in
 * lib/errors/timeout.ts, so the error mapper below this layer needs nothing from it.
 */
import { config } from "@/lib/config";
import { UpstreamTimeoutError } from "@/lib/errors/timeout";
import { withinBudget } from "@/lib/request-budget";
import { restCallUrl, restRequest } from "./rest-transport";

export { isUpstreamTimeoutMessage, UPSTREAM_TIMEOUT_MARKER, UpstreamTimeoutError } from "@/lib/errors/timeout";

/**
 * `fetch` with a deadline, for supabase-js's `global.fetch` (and the auth client, which uses the same fetch). A signal
 * the caller passed still works: whichever fires first aborts the call. The deadline also covers reading the body.
 * Inside an API request the deadline is what is left of the request's time budget when that is shorter
 * (lib/request-budget.ts): calls one after another share one budget instead of waiting UPSTREAM_TIMEOUT_MS each.
 * PostgREST calls travel over node:http (./rest-transport.ts) under a timer of their own, everything else over the
 * global fetch with AbortSignal.timeout.
 */
export function timedFetch(timeoutMs?: number): typeof fetch {
  return async (input, init) => {
    const cap = timeoutMs ?? config().UPSTREAM_TIMEOUT_MS;
    const ms = withinBudget(cap);
    const limit = ms < cap ? "the request's time budget" : "UPSTREAM_TIMEOUT_MS";
    if (ms <= 0) throw new UpstreamTimeoutError(0, limit);
    const rest = restCallUrl(input, init);
    if (rest) return restRequest(rest, init, { ms, error: () => new UpstreamTimeoutError(ms, limit) });
    const deadline = AbortSignal.timeout(ms);
    const signal = init?.signal ? AbortSignal.any([init.signal, deadline]) : deadline;
    try {
      return await fetch(input, { ...init, signal });
    } catch (e) {
      if (deadline.aborted && !init?.signal?.aborted) throw new UpstreamTimeoutError(ms, limit);
      throw e;
    }
  };
}
