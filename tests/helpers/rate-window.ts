/**
 * Rate limits are sliding windows aligned to the epoch (Upstash's `slidingWindow` and our LocalSlidingWindow): the
 * count is this window's requests plus floor(previous window's × the part of it still overlapping). A run of requests
 * that straddles a window boundary is therefore counted a little low (the floor drops up to one request, and the
 * previous window's share shrinks while the run goes on), so "the (limit+1)th is refused" holds exactly only inside
 * one window. A test that counts to a limit calls this first: when less than `needSeconds` are left of the current
 * window it waits for the next one to begin. It waits at most `needSeconds`, so the calling test's timeout must be
 * longer than that plus its own run (the suites' default 30 s is not: near the hour a 60 s wait timed out): see
 * windowTestTimeout.
 */
export async function startInOneWindow(windowSeconds: number, needSeconds: number): Promise<void> {
  const windowMs = windowSeconds * 1000;
  const left = windowMs - (Date.now() % windowMs);
  if (left >= needSeconds * 1000) return;
  // 50 ms past the boundary: the app reads the same clock, so it is in the new window too.
  await new Promise((resolve) => setTimeout(resolve, left + 50));
}

/** A timeout for a test that calls startInOneWindow(…, needSeconds): the longest wait plus `runSeconds` for the test. */
export function windowTestTimeout(needSeconds: number, runSeconds = 90): number {
  return (needSeconds + runSeconds) * 1000;
}
