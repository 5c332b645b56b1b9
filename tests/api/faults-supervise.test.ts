/**
 * The stack heals (fault test): the launcher's four children — the app, the gateway, the extraction worker and the
 * mail catcher — run here under the launcher's supervisor with the launcher's own specs (server/launcher/supervise-stack.ts),
 * on the test stack's database. Each in turn is killed with SIGKILL: it comes back (a new process, serving again),
 * the supervisor logs why it died, and the other three are the same processes as before, untouched. Before, a dead
 * worker stayed dead, and an app crash made the launcher stop everything else.
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../server/paths";
import { buildIsCurrent } from "../../server/launcher/next-build";
import type { GatewayReady } from "../../server/launcher/gateway-cli";
import { supervise, type Supervised } from "../../server/supervise";
import { appChild, gatewayChild, mailCatcherChild, workerChild } from "../../server/launcher/supervise-stack";
import { freePort } from "../helpers/extra-app";
import { stackEnv } from "../helpers/stack";
import { appEnv } from "../helpers/test-app";

const log: string[] = [];
const backoff = { initialMs: 200, maxMs: 2000, stableMs: 60_000 };
const tsconfig = path.join(repoRoot, "tsconfig.json");
const tsconfigText = readFileSync(tsconfig, "utf8");
let distDir = "";
let gateway: Supervised<GatewayReady>;
let mail: Supervised<{ url: string }>;
let worker: Supervised<{ workerId: string }>;
let app: Supervised<{ url: string }>;
let gatewayUrl = "";
let mailPort = 0;
let appUrl = "";

beforeAll(async () => {
  const stack = stackEnv();
  const say = (l: string) => log.push(l);
  const base = { ...process.env, DATABASE_URL: stack.databaseUrl };
  const gatewayPort = await freePort();
  gateway = supervise(
    gatewayChild(
      {
        ...base,
        GATEWAY_PORT: String(gatewayPort),
        SUPABASE_JWT_PRIVATE_JWK: JSON.stringify(stack.signingJwk),
        SUPABASE_ANON_KEY: stack.anonKey,
        SUPABASE_SERVICE_ROLE_KEY: stack.serviceRoleKey,
        UPSTASH_REDIS_REST_TOKEN: "supervise-test-token",
      },
      "quiet",
    ),
    { backoff, log: say },
  );
  gatewayUrl = (await gateway.started).url;
  mailPort = await freePort();
  mail = supervise(mailCatcherChild({ ...base, MAIL_CATCHER_PORT: String(mailPort) }, "quiet"), { backoff, log: say });
  const smtpUrl = (await mail.started).url;
  // A queue of its own: this worker must not take the test stack's jobs; nor run scheduled jobs under other tests.
  worker = supervise(workerChild({ ...base, EXTRACTION_WORKER_QUEUE: "supervise-test", SCHEDULED_JOBS: "none" }, "quiet"), { backoff, log: say });
  await worker.started;

  const port = await freePort();
  const built = buildIsCurrent(process.env.NEXT_DIST_DIR ?? ".next-test");
  const mode = built || process.env.TEST_APP_MODE === "production" ? "production" : "development";
  // Two `next dev` cannot share a dist folder (see tests/helpers/extra-app.ts).
  distDir = mode === "production" ? (process.env.NEXT_DIST_DIR ?? ".next-test") : `.next-extra-${port}`;
  const env = appEnv({ ...stack, supabaseUrl: gatewayUrl, smtpUrl }, { NEXT_DIST_DIR: distDir, NODE_ENV: mode });
  app = supervise(appChild(mode, port, env, "quiet"), { backoff, log: say });
  appUrl = (await app.started).url;
}, 600_000);

afterAll(async () => {
  for (const s of [app, worker, mail, gateway]) await s?.stop(10_000);
  writeFileSync(tsconfig, tsconfigText);
  if (distDir.startsWith(".next-extra-")) rmSync(path.join(repoRoot, distDir), { recursive: true, force: true });
}, 120_000);

const alive = (pid: number | undefined) => {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function waitFor<T>(what: string, fn: () => Promise<T | null | undefined | false>, ms = 300_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn().catch(() => null);
    if (v) return v;
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}; supervisor log: ${log.join(" | ")}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The SMTP greeting of the mail catcher (a 220 line), or null. */
function smtpBanner(port: number): Promise<string | null> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.setTimeout(5000, () => (socket.destroy(), resolve(null)));
    socket.once("error", () => resolve(null));
    socket.once("data", (d) => {
      socket.end("QUIT\r\n");
      resolve(d.toString());
    });
  });
}

const serves = {
  gateway: async () => (await fetch(`${gatewayUrl}/auth/v1/health`, { headers: { apikey: stackEnv().anonKey as string } })).ok,
  "mail catcher": async () => (await smtpBanner(mailPort))?.startsWith("220") ?? false,
  worker: async () => true,
  app: async () => (await fetch(`${appUrl}/api/health/status`)).status === 200,
};

describe("the launcher's children under supervision (fault tests)", () => {
  it.each(["gateway", "mail catcher", "worker", "app"] as const)("%s killed with SIGKILL comes back; the other three are untouched", { timeout: 600_000 }, async (name) => {
    const all = { gateway, "mail catcher": mail, worker, app };
    const target = all[name];
    const others = Object.entries(all).filter(([n]) => n !== name);
    const before = Object.fromEntries(others.map(([n, s]) => [n, s.child?.pid]));
    expect(await serves[name]()).toBe(true);
    const pid = target.child?.pid as number;
    const restarts = target.restarts;

    // The PID the supervisor holds is the child itself (node with tsx's loader), so this kills the real process.
    process.kill(pid, "SIGKILL");
    await waitFor(`${name} to come back`, async () => log.some((l) => l === `${target.name} is back (restart ${restarts + 1})`));
    expect(target.child?.pid).not.toBe(pid);
    expect(alive(pid)).toBe(false);
    expect(await waitFor(`${name} to serve again`, serves[name], 60_000)).toBe(true);
    expect(log).toContain(log.find((l) => l.startsWith(`${target.name} exited (signal SIGKILL)`)));
    // The others: the same processes, alive, never restarted by this crash.
    expect(Object.fromEntries(others.map(([n, s]) => [n, s.child?.pid]))).toEqual(before);
    for (const [, s] of others) expect(alive(s.child?.pid)).toBe(true);
  });
});
