/** p50 / p95 / max of sequential runs, after one warm-up (plan caches, buffers): the SQL benches' one timing. */
export function runStats(ms: number[]) {
  const s = [...ms].sort((a, b) => a - b);
  const at = (q: number) => Number(s[Math.min(s.length - 1, Math.floor(q * s.length))].toFixed(2));
  return { n: s.length, p50_ms: at(0.5), p95_ms: at(0.95), max_ms: Number(s[s.length - 1].toFixed(2)) };
}

export async function timedRuns(n: number, fn: () => Promise<unknown>) {
  await fn(); // warm-up
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn();
    out.push(performance.now() - t);
  }
  return runStats(out);
}
