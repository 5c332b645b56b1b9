import { withinBudget } from "@/lib/request-budget";

/**
 * `work`, or an Error with `message` once `ms` have passed without its answer — or sooner, when the API request being
 * answered has less of its time budget left (lib/request-budget.ts): a call never waits past the request's deadline.
 * The deadline throws, never resolves, and its timer is cleared either way; `work` itself is not cancelled (its
 * caller's own time-out, if any, does that).
 */
export function withinDeadline<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), withinBudget(ms));
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
