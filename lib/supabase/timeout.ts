/**
 * The deadline of every Supabase call (D-31, M4): database RPCs and auth calls alike get `UPSTREAM_TIMEOUT_MS`,
 * instead of undici's 300 s defaults. No imports but the settings, so `lib/errors/upstream.ts` can recognise the error
 * without a cycle.
 */
import { config } from "@/lib/config";
import { withinBudget } from "@/lib/request-budget";

/** Text every time-out error carries: supabase-js keeps only an error's message (auth-js) or `name: message`. */
export const UPSTREAM_TIMEOUT_MARKER = "upstream timeout";

/**
 * Thrown by `timedFetch` when the deadline passes. `code: "ABORT_ERR"` makes postgrest-js treat it as an abort: it
 * neither retries the call (its GET retry loop would otherwise try a hung server 3 more times, ~4× the deadline plus
 * 7 s of back-off) nor hides it; the error it returns reads `UpstreamTimeoutError: upstream timeout …`.
 */
export class UpstreamTimeoutError extends Error {
  readonly code = "ABORT_ERR";
  constructor(
    readonly timeoutMs: number,
    limit = "UPSTREAM_TIMEOUT_MS",
  ) {
    super(`${UPSTREAM_TIMEOUT_MARKER}: no answer within ${timeoutMs} ms (${limit})`);
    this.name = "UpstreamTimeoutError";
  }
}

/**
 * Whether an error message from supabase-js says the call ran out of time: ours (headers late), or the abort of a
 * body still streaming when the deadline passed (`TimeoutError: …`, or `AbortError: …` from postgrest-js).
 */
export function isUpstreamTimeoutMessage(message: string | undefined | null): boolean {
  if (!message) return false;
  return message.includes(UPSTREAM_TIMEOUT_MARKER) || /^(TimeoutError|AbortError)\b/.test(message);
}

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
