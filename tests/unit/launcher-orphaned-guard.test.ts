import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { orphanedGuards, waitForOrphanedGuards } from "../../server/launcher/postgres";

/** A process whose argv reads like the cluster guard's (server/launcher/postgres-guard.ts) and that lives `ms`. */
function fakeGuard(dir: string, launcher: number, ms: number) {
  return spawn(process.execPath, ["-e", `setTimeout(() => {}, ${ms})`, "postgres-guard.ts", "--launcher", String(launcher), "--dir", dir], { stdio: "ignore" });
}

/** The PID of a process that has exited. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ["-e", "0"]);
  return r.pid ?? 999_999;
}

const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("a start waits for the previous launcher's cluster guard (Linux /proc)", () => {
  it.runIf(process.platform === "linux")("finds a guard whose launcher is gone, and waits until it has finished", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "guard-"));
    made.push(dir);
    const orphan = fakeGuard(dir, deadPid(), 1200);
    const owned = fakeGuard(dir, process.pid, 5000); // its launcher (this test) lives: not an orphan
    const elsewhere = fakeGuard(path.join(dir, "other"), deadPid(), 5000);
    try {
      await new Promise((r) => setTimeout(r, 300));
      expect(orphanedGuards(dir)).toEqual([orphan.pid]);
      const lines: string[] = [];
      const t0 = Date.now();
      await waitForOrphanedGuards(dir, (l) => lines.push(l));
      expect(Date.now() - t0).toBeGreaterThanOrEqual(500);
      expect(orphanedGuards(dir)).toEqual([]);
      expect(lines.join("\n")).toMatch(/being stopped by its guard/);
    } finally {
      for (const p of [orphan, owned, elsewhere]) p.kill();
    }
  });

  it("returns at once when no guard is left over", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "guard-"));
    made.push(dir);
    const lines: string[] = [];
    const t0 = Date.now();
    await waitForOrphanedGuards(dir, (l) => lines.push(l));
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(lines).toEqual([]);
  });
});
