/**
 * A process-local sliding-window limiter: the store when no Upstash store is configured, and the fallback while the
 * store is unreachable (spec: Limits, "Fallback per-IP rate ... process-local"). Same approximation as Upstash's
 * `slidingWindow` (the previous window's count weighted by how much of it still overlaps), so switching between the
 * two does not change what a client sees much.
 */
export interface LocalDecision {
  success: boolean;
  limit: number;
  remaining: number;
  /** Epoch ms when the current window ends. */
  reset: number;
}

interface Counter {
  window: number;
  current: number;
  previous: number;
}

export class LocalSlidingWindow {
  private readonly counters = new Map<string, Counter>();
  private lastSweep = 0;

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Count one request for `key` if it fits; a refused request is not counted (as Upstash does). */
  take(key: string): LocalDecision {
    const t = this.now();
    this.sweep(t);
    const window = Math.floor(t / this.windowMs);
    let c = this.counters.get(key);
    if (!c) {
      c = { window, current: 0, previous: 0 };
      this.counters.set(key, c);
    } else if (c.window !== window) {
      c.previous = c.window === window - 1 ? c.current : 0;
      c.current = 0;
      c.window = window;
    }
    const elapsed = (t % this.windowMs) / this.windowMs;
    const used = Math.floor(c.previous * (1 - elapsed)) + c.current;
    const reset = (window + 1) * this.windowMs;
    if (used >= this.limit) return { success: false, limit: this.limit, remaining: 0, reset };
    c.current += 1;
    return { success: true, limit: this.limit, remaining: Math.max(0, this.limit - used - 1), reset };
  }

  /** Drop counters idle for two windows so the map cannot grow without bound. */
  private sweep(t: number): void {
    if (t - this.lastSweep < this.windowMs) return;
    this.lastSweep = t;
    const window = Math.floor(t / this.windowMs);
    for (const [key, c] of this.counters) if (c.window < window - 1) this.counters.delete(key);
  }
}
