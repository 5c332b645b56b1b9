import { AsyncLocalStorage } from "node:async_hooks";

/**
 * One time budget per API request (docs/faults.md, "Deadlines are budgets"). The route wrapper (lib/api/route.ts)
 * opens it; every outbound call made while the request is being answered draws from it: the Supabase clients' fetch
 * (lib/supabase/timeout.ts), every `withinDeadline` (lib/backend/deadline.ts: the limits store, health checks, the
 * access snapshot), model calls (lib/llm/call.ts). So a signed-in read behind a hung gateway waits the budget once,
 * not once per call (the snapshot read and the data RPC used to wait UPSTREAM_TIMEOUT_MS each: 60 s). Below every
 * layer (no imports), so lib/supabase and lib/llm may read it. The wrapper and the calls it bounds run in the same
 * server bundle, so one module-level store serves them.
 */
interface Budget {
  /** Epoch ms when the request's time is up. */
  readonly endsAt: number;
  readonly totalMs: number;
  /** Closed once the answer is made: work left running after it (streams, deferred writes) has no request budget. */
  open: boolean;
}

const budgets = new AsyncLocalStorage<Budget>();

/** Run `fn` with a budget of `ms` for everything it calls out to; the budget closes when `fn` settles. */
export async function withRequestBudget<T>(ms: number, fn: () => Promise<T>): Promise<T> {
  const budget: Budget = { endsAt: Date.now() + ms, totalMs: ms, open: true };
  try {
    return await budgets.run(budget, fn);
  } finally {
    budget.open = false;
  }
}

/** Milliseconds left of the current request's budget (0 when spent), or undefined outside a request's answer. */
export function remainingBudgetMs(): number | undefined {
  const b = budgets.getStore();
  if (!b?.open) return undefined;
  return Math.max(0, b.endsAt - Date.now());
}

/** The whole budget of the current request (ms), or undefined outside one: for messages. */
export function requestBudgetMs(): number | undefined {
  const b = budgets.getStore();
  return b?.open ? b.totalMs : undefined;
}

/** `ms`, or less when the current request has less left: the deadline an outbound call may wait. */
export function withinBudget(ms: number): number {
  const left = remainingBudgetMs();
  return left === undefined ? ms : Math.min(ms, left);
}

/**
 * `work`, or `expired()` thrown once the current request's budget is spent plus `graceMs`: the last guard for a call
 * that does not draw from the budget itself (the budget-aware calls fail first, with their own error). Outside a
 * request's answer, `work` as it is.
 */
export function guardedByBudget<T>(work: Promise<T>, expired: () => Error, graceMs = 1000): Promise<T> {
  const left = remainingBudgetMs();
  if (left === undefined) return work;
  let timer: NodeJS.Timeout | undefined;
  const guard = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(expired()), left + graceMs);
  });
  // The work may still fail after the guard answered: that rejection is expected, never unhandled.
  work.catch(() => undefined);
  return Promise.race([work, guard]).finally(() => clearTimeout(timer));
}
