/**
 * The launcher's supervisor (server/supervise.ts), over real child processes (tests/fixtures/supervise/child.ts):
 * the back-off doubles and is capped, a crashed child is started again and the reason (exit code or signal) is logged,
 * a stable run resets the back-off, a first start that fails is reported and not retried, stop() ends it for good,
 * and a child whose launcher is killed with SIGKILL stops by itself.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { exitReason, readyMessage, restartDelay, supervise, type Backoff, type Supervised } from "../../server/supervise";

const tsx = path.resolve("node_modules/tsx/dist/cli.mjs");
// Children run as node with tsx's loader (as server/launcher/processes.ts starts them): their PID is the real process.
const loader = pathToFileURL(path.resolve("node_modules/tsx/dist/loader.mjs")).href;
const dir = mkdtempSync(path.join(tmpdir(), "supervise-test-"));
const running: Array<Supervised<unknown>> = [];
const strays: ChildProcess[] = [];
const strayPids: number[] = [];

afterAll(async () => {
  for (const s of running) await s.stop(1000);
  for (const c of strays) c.kill("SIGKILL");
  for (const pid of strayPids) if (alive(pid)) process.kill(pid, "SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

function childSpec(env: Record<string, string>) {
  return {
    name: "child",
    spawn: () =>
      spawn(process.execPath, ["--import", loader, "tests/fixtures/supervise/child.ts"], {
        env: { ...process.env, LAUNCHER_PID: String(process.pid), ...env },
        stdio: ["ignore", "ignore", "inherit", "ipc"] as ["ignore", "ignore", "inherit", "ipc"],
      }),
    ready: (c: ChildProcess) => readyMessage<{ pid: number }>(c, "child", 30_000),
  };
}

function starts(log: string): number[] {
  try {
    return readFileSync(log, "utf8").trim().split("\n").filter(Boolean).map((l) => Number(l.split(" ")[1]));
  } catch {
    return [];
  }
}

async function waitFor<T>(what: string, fn: () => T | null | undefined | false, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe("restart back-off", () => {
  const b: Backoff = { initialMs: 1000, maxMs: 30_000, stableMs: 60_000 };
  it("doubles per crash in a row from the initial wait and stops at the cap", () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => restartDelay(n, b))).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000]);
    expect(restartDelay(10_000, b)).toBe(30_000);
    expect(restartDelay(0, b)).toBe(1000);
  });
  it("names the reason a child died", () => {
    expect(exitReason(3, null)).toBe("exit code 3");
    expect(exitReason(null, "SIGKILL")).toBe("signal SIGKILL");
  });
});

describe("supervise over real child processes (fault tests)", () => {
  it("a child that crashes is started again, with the reason logged and the waits growing", async () => {
    const log = path.join(dir, "crashing.log");
    const lines: string[] = [];
    const s = supervise(childSpec({ CHILD_LOG: log, CHILD_EXIT_AFTER_MS: "100", CHILD_EXIT_CODE: "3" }), {
      backoff: { initialMs: 100, maxMs: 400, stableMs: 60_000 },
      log: (l) => lines.push(l),
    });
    running.push(s);
    await s.started;
    await waitFor("four starts", () => starts(log).length >= 4);
    await s.stop(1000);
    const crashes = lines.filter((l) => l.startsWith("child exited"));
    expect(crashes.length).toBeGreaterThanOrEqual(3);
    expect(crashes[0]).toContain("exit code 3");
    expect(crashes.slice(0, 3).map((l) => /restarting in ([\d.]+) s/.exec(l)?.[1])).toEqual(["0.1", "0.2", "0.4"]);
    expect(lines.some((l) => l.startsWith("child is back (restart 1)"))).toBe(true);
    expect(s.restarts).toBeGreaterThanOrEqual(3);
  });

  it("a child killed with SIGKILL comes back as a new process; a stable run resets the wait", async () => {
    const log = path.join(dir, "killed.log");
    const lines: string[] = [];
    const s = supervise(childSpec({ CHILD_LOG: log }), { backoff: { initialMs: 100, maxMs: 5000, stableMs: 200 }, log: (l) => lines.push(l) });
    running.push(s);
    const first = await s.started;
    expect(first.pid).toBe(s.child?.pid);
    for (let round = 1; round <= 3; round++) {
      await new Promise((r) => setTimeout(r, 300)); // past stableMs: a healthy run
      const pid = s.child?.pid as number;
      process.kill(pid, "SIGKILL");
      await waitFor(`restart ${round}`, () => starts(log).length === round + 1 && s.child?.pid !== pid && s.child);
      await waitFor(`restart ${round} ready`, () => lines.some((l) => l.startsWith(`child is back (restart ${round})`)));
    }
    const crashes = lines.filter((l) => l.startsWith("child exited"));
    expect(crashes.map((l) => l.includes("signal SIGKILL"))).toEqual([true, true, true]);
    // Each run was stable, so every wait is the initial one (no doubling).
    expect(crashes.map((l) => /restarting in ([\d.]+) s/.exec(l)?.[1])).toEqual(["0.1", "0.1", "0.1"]);
    expect(alive(first.pid)).toBe(false);
    await s.stop(1000);
    expect(s.child).toBeNull();
    const count = starts(log).length;
    await new Promise((r) => setTimeout(r, 300));
    expect(starts(log).length).toBe(count); // stopped for good: nothing restarts it
  });

  it("a first start that fails rejects `started` with the reason and is not retried", async () => {
    const log = path.join(dir, "failing.log");
    const s = supervise(childSpec({ CHILD_LOG: log, CHILD_FAIL_BEFORE_READY: "1" }), { backoff: { initialMs: 50, maxMs: 50, stableMs: 1000 }, log: () => undefined });
    await expect(s.started).rejects.toThrow("the child exited (exit code 7) before it was ready");
    await new Promise((r) => setTimeout(r, 300));
    expect(starts(log).length).toBe(1);
  });

  async function startLauncher(): Promise<{ wrapper: ChildProcess; launcher: number; child: number }> {
    // `tsx file.ts` is two processes: tsx's own, which starts node on the file (as under `npm start`).
    const wrapper = spawn(process.execPath, [tsx, "tests/fixtures/supervise/launcher.ts"], { stdio: ["ignore", "pipe", "inherit"] });
    strays.push(wrapper);
    let out = "";
    wrapper.stdout?.on("data", (d: Buffer) => (out += d.toString()));
    const line = await waitFor("the launcher's pids", () => out.includes("\n") && out.split("\n")[0]);
    const pids = JSON.parse(line) as { launcher: number; child: number };
    strayPids.push(pids.launcher, pids.child);
    return { wrapper, ...pids };
  }

  it("a launcher killed with SIGKILL takes its supervised child down", async () => {
    const { launcher, child } = await startLauncher();
    expect(alive(child)).toBe(true);
    process.kill(launcher, "SIGKILL");
    await waitFor("the child to stop", () => !alive(child), 15_000);
    expect(alive(child)).toBe(false);
  });

  it("the process that started the launcher killed with SIGKILL: the launcher stops, and its child with it", async () => {
    const { wrapper, launcher, child } = await startLauncher();
    wrapper.kill("SIGKILL");
    await waitFor("the launcher and the child to stop", () => !alive(launcher) && !alive(child), 15_000);
    expect([alive(launcher), alive(child)]).toEqual([false, false]);
  });
});
