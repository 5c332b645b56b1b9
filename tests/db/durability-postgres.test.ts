/**
 * A postmaster.pid whose PID was reused by another process (after a reboot
 * or a crash) no longer blocks start-up. A real embedded PostgreSQL 17 cluster of its own, in its own folder.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../server/paths";
import { postmasterPidIsStale, startEmbeddedPostgres, type EmbeddedPostgresHandle } from "../../server/launcher/postgres";
import { freePort } from "../helpers/extra-app";
import { testStackSettings } from "../helpers/test-stack";

const dir = path.join(repoRoot, ".data", `durability-pg-${process.pid}`);
let other: ChildProcess | null = null;
let server: EmbeddedPostgresHandle | null = null;

afterAll(async () => {
  await server?.stop().catch(() => undefined);
  other?.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

/** Run as root, the embedded server runs as the `postgres` user (server/launcher/postgres.ts createPostgresUser). */
function serverUser(): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  return { uid: Number(execFileSync("id", ["-u", "postgres"]).toString()), gid: Number(execFileSync("id", ["-g", "postgres"]).toString()) };
}

async function answers(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ n: number }>("select 1 as n")).rows[0].n;
  } finally {
    await client.end();
  }
}

describe("a stale postmaster.pid (L10)", () => {
  it("the running test cluster's own lock is not stale (a live postgres serving that folder)", () => {
    expect(postmasterPidIsStale(path.join(testStackSettings().dataDir, "postgres"))).toBe(false);
  });

  it("naming a live process that is not postgres (a reused PID), the cluster still starts", { timeout: 180_000 }, async () => {
    const port = await freePort();
    server = await startEmbeddedPostgres({ dir, port });
    const url = `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
    expect(await answers(url)).toBe(1);
    const lock = readFileSync(path.join(dir, "postmaster.pid"), "utf8");
    await server.stop();
    server = null;

    // A live process that is neither postgres nor a parent of the server about to start: what a reused PID looks like.
    // It runs as the server's user (postgres itself ignores the PID of another user's process, EPERM).
    other = spawn("sleep", ["600"], { stdio: "ignore", ...serverUser() });
    const pid = other.pid as number;
    expect(() => process.kill(pid, 0)).not.toThrow();
    writeFileSync(path.join(dir, "postmaster.pid"), [String(pid), ...lock.split("\n").slice(1)].join("\n"));
    expect(postmasterPidIsStale(dir)).toBe(true);

    server = await startEmbeddedPostgres({ dir, port });
    expect(await answers(url)).toBe(1);
    // The lock is the new server's now, and that one is not stale.
    expect(Number(readFileSync(path.join(dir, "postmaster.pid"), "utf8").split("\n")[0])).not.toBe(pid);
    expect(postmasterPidIsStale(dir)).toBe(false);
  });
});
