/** The time-out error of every Supabase call (lib/supabase/timeout.ts) and how its message is recognised. */
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
