/**
 * Deadlines are budgets (fault tests, below HTTP): the real gateway behind a fault proxy that hangs, reached by the
 * app's own service client (lib/supabase, timedFetch). UPSTREAM_TIMEOUT_MS is ten minutes here, so every call below
 * can only end through the limit under test — a test that finishes proves the limit (no timed assertion):
 *   - the access snapshot read (lib/backend/admin/access.ts) gives up at ACCESS_SNAPSHOT_TIMEOUT_MS and uses the last
 *     copy (a banned user stays banned);
 *   - inside a request's budget (lib/request-budget.ts) the snapshot read and the call after it share one budget: the
 *     second call fails at once with the budget's time-out (mapped to 504 UPSTREAM_TIMEOUT), instead of each call
 *     waiting UPSTREAM_TIMEOUT_MS (the 60 s signed-in read of the review);
 *   - every `withinDeadline` (the limits store, health checks) ends at the request's budget too.
 */
import { randomUUID } from "node:crypto";
import { createClient } from "@supabase/supabase-js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { effectiveRole, invalidateAccessSnapshot } from "@/lib/backend/admin/access";
import { withinDeadline } from "@/lib/backend/deadline";
import { resetConfigForTests } from "@/lib/config";
import { fromDatabaseError } from "@/lib/errors/upstream";
import { remainingBudgetMs, withRequestBudget } from "@/lib/request-budget";
import type { DbClient } from "@/lib/supabase/db-client";
import { globalOptions, realtimeOptions, serverAuthOptions } from "@/lib/supabase/options";
import { isUpstreamTimeoutMessage } from "@/lib/supabase/timeout";
import { hostPort, startFaultProxy, type FaultProxy } from "../helpers/fault-proxy";
import { adminPool, stackEnv } from "../helpers/stack";

const pool = adminPool();
const banned = randomUUID();
let proxy: FaultProxy;
let serviceDb: DbClient;
const saved = { ...process.env };

function setEnv(values: Record<string, string>) {
  Object.assign(process.env, values);
  resetConfigForTests();
}

beforeAll(async () => {
  const env = stackEnv();
  proxy = await startFaultProxy(hostPort(env.supabaseUrl as string));
  setEnv({ UPSTREAM_TIMEOUT_MS: "600000", ADMIN_ACCESS_CACHE_TTL_MS: "1" });
  serviceDb = createClient(proxy.url("http"), env.serviceRoleKey as string, {
    auth: serverAuthOptions,
    realtime: realtimeOptions,
    global: globalOptions(),
  }) as unknown as DbClient;
  await pool.query("insert into auth.users (id, email, banned_until) values ($1, $2, now() + interval '1 day')", [banned, `banned-${banned}@example.org`]);
});

afterEach(() => proxy.set("pass"));

afterAll(async () => {
  process.env = { ...saved };
  resetConfigForTests();
  invalidateAccessSnapshot();
  await proxy?.close();
  await pool.query("delete from auth.users where id = $1", [banned]);
  await pool.end();
});

/**
 * A fresh copy read through the passing proxy (the banned user is in it); then the gateway hangs, and the copy's TTL
 * (1 ms) has run out. The pause lets the client see its pooled connections cut (a call on one would fail at once,
 * not hang).
 */
async function warmSnapshotThenHang() {
  invalidateAccessSnapshot();
  expect(await effectiveRole(() => serviceDb, banned, "user")).toBe("anonymous");
  proxy.set("hang");
  await new Promise((r) => setTimeout(r, 200));
}

describe("the access snapshot with the gateway hung", () => {
  it("gives up at ACCESS_SNAPSHOT_TIMEOUT_MS and falls back to the last copy: the banned user stays banned", async () => {
    setEnv({ ACCESS_SNAPSHOT_TIMEOUT_MS: "500" });
    await warmSnapshotThenHang();
    // Outside any request: only the snapshot's own deadline can end this wait (UPSTREAM_TIMEOUT_MS is 10 minutes).
    expect(await effectiveRole(() => serviceDb, banned, "user")).toBe("anonymous");
  });
});

describe("one budget per request", () => {
  it("the snapshot read and the data call after it share the request's budget; the data call ends as 504 UPSTREAM_TIMEOUT", async () => {
    // The snapshot's own deadline as long as every call's: only the request's budget can end these waits.
    setEnv({ ACCESS_SNAPSHOT_TIMEOUT_MS: "600000" });
    await warmSnapshotThenHang();
    const outcome = await withRequestBudget(1500, async () => {
      const role = await effectiveRole(() => serviceDb, banned, "user");
      const left = remainingBudgetMs();
      const { error } = await serviceDb.rpc("health_ping");
      return { role, left, error };
    });
    expect(outcome.role).toBe("anonymous"); // the last copy, once the budget ran out
    expect(outcome.left).toBe(0);
    expect(outcome.error?.message).toContain("the request's time budget");
    expect(isUpstreamTimeoutMessage(outcome.error?.message)).toBe(true);
    const mapped = fromDatabaseError(outcome.error);
    expect([mapped.status, mapped.code]).toEqual([504, "UPSTREAM_TIMEOUT"]);
  });

  it("every withinDeadline inside a request ends at the budget, whatever its own limit", async () => {
    const never = new Promise<never>(() => undefined);
    await expect(withRequestBudget(300, () => withinDeadline(never, 600_000, "limits store did not answer"))).rejects.toThrow("limits store did not answer");
  });

  it("after the answer is made the budget is closed: work left running then has no request budget", async () => {
    let later: (() => number | undefined) | null = null;
    await withRequestBudget(1000, async () => {
      later = () => remainingBudgetMs();
      expect(remainingBudgetMs()).toBeGreaterThan(0);
    });
    expect(later!()).toBeUndefined();
  });
});
