/**
 * The deadline of every Supabase call (D-31, M4): database RPCs and auth calls alike get `UPSTREAM_TIMEOUT_MS`,
 * instead of undici's 300 s defaults. The error it throws, and how a message is recognised as one, live in
 * lib/errors/timeout.ts, so the error mapper below this layer needs nothing from it.
 */
import { config } from "@/lib/config";
import { UpstreamTimeoutError } from "@/lib/errors/timeout";
import { withinBudget } from "@/lib/request-budget";

export { isUpstreamTimeoutMessage, UPSTREAM_TIMEOUT_MARKER, UpstreamTimeoutError } from "@/lib/errors/timeout";

/**
 * `fetch` with a deadline, for supabase-js's `global.fetch` (and the auth client, which uses the same fetch). A signal
 * the caller passed still works: whichever fires first aborts the call. The deadline also covers reading the body.
 * Inside an API request the deadline is what is left of the request's time budget when that is shorter
 * (lib/request-budget.ts): calls one after another share one budget instead of waiting UPSTREAM_TIMEOUT_MS each.
 */
export function timedFetch(timeoutMs?: number): typeof fetch {
  return async (input, init) => {
    const cap = timeoutMs ?? config().UPSTREAM_TIMEOUT_MS;
    const ms = withinBudget(cap);
    const limit = ms < cap ? "the request's time budget" : "UPSTREAM_TIMEOUT_MS";
    if (ms <= 0) throw new UpstreamTimeoutError(0, limit);
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
