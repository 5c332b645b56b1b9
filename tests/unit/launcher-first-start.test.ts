/**
 * The first start's orchestration (server/launcher/overlap.ts, next-build.ts startBuild, progress.ts) over real child
 * processes standing in for `next build` (a few lines of node, no Next): the build runs while the data work does and
 * the start waits for both; a build that fails ends the start at once, quoting its output; data work that fails stops
 * the build, its own children included; the one progress display reports every track.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BuildFailed, buildStageOf, startBuild, type RunningBuild } from "../../server/launcher/next-build";
import { alongside } from "../../server/launcher/overlap";
import { progressDisplay } from "../../server/launcher/progress";

const dir = mkdtempSync(path.join(tmpdir(), "first-start-test-"));
const builds: RunningBuild[] = [];
afterAll(async () => {
  for (const b of builds) await b.stop();
  rmSync(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** A stand-in for `next build`: node running `script`, its output kept in a log file like the real one's. */
function fakeBuild(name: string, script: string, stages: string[] = []) {
  const distDir = path.join(dir, name);
  mkdirSync(distDir, { recursive: true });
  const logFile = path.join(dir, `${name}.log`);
  const build = startBuild({
    env: process.env,
    distDir,
    logFile,
    progress: { stage: (label) => stages.push(label) },
    command: { file: process.execPath, args: ["-e", script] },
  });
  builds.push(build);
  return { build, distDir, logFile, stages };
}

describe("next build alongside the data work", () => {
  it("starts before the data work ends, and the start waits for both", async () => {
    const events: string[] = [];
    const go = path.join(dir, "ok.go");
    // The stand-in compiles until the data work is over (it waits for a file the work writes last), then succeeds.
    const { build, distDir, stages } = fakeBuild(
      "ok",
      `const fs = require("node:fs"); console.log("  Creating an optimized production build ..."); ` +
        `const t = setInterval(() => { if (fs.existsSync(${JSON.stringify(go)})) { clearInterval(t); console.log("✓ Compiled successfully in 1s"); setTimeout(() => process.exit(0), 100); } }, 20);`,
    );
    build.done.then(() => events.push("build done"));
    const result = await alongside(build, async () => {
      events.push("work started");
      // The build is running while the data work is under way: its first stage arrives before the work ends.
      for (let i = 0; i < 600 && stages.length === 0; i++) await sleep(50);
      events.push(`stages seen by the work's end: ${stages.join(",")}`);
      writeFileSync(go, "");
      return "env";
    });
    events.push("start resumed");
    expect(result).toBe("env");
    expect(events).toEqual(["work started", "stages seen by the work's end: compiling", "build done", "start resumed"]);
    expect(stages).toEqual(["compiling", "compiled"]);
    // A build that succeeded is recorded, so the next start reuses it.
    expect(readFileSync(path.join(distDir, ".source-fingerprint"), "utf8")).toMatch(/^[0-9a-f]{64}$/);
  });

  it("a build that fails ends the start at once, whatever the data work is doing, and quotes its output", async () => {
    const { build, logFile } = fakeBuild("fails", `console.error("Type error: Property 'x' does not exist"); setTimeout(() => process.exit(1), 100);`);
    const started = performance.now();
    let workEnded = false;
    const outcome = await alongside(build, async () => {
      await sleep(20_000);
      workEnded = true;
    }).catch((e: unknown) => e);
    expect(outcome).toBeInstanceOf(BuildFailed);
    const failure = outcome as BuildFailed;
    expect(failure.message).toContain("next build failed (exit code 1)");
    expect(failure.message).toContain(path.relative(process.cwd(), logFile));
    expect(failure.tail).toContain("Type error: Property 'x' does not exist");
    expect(readFileSync(logFile, "utf8")).toContain("Type error");
    expect(workEnded).toBe(false);
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it("data work that fails stops the build and its children before the start fails", async () => {
    // The stand-in starts a child of its own (as Next starts workers) and prints its pid.
    const { build, logFile } = fakeBuild(
      "stopped",
      `const c = require("node:child_process").spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" }); console.log("worker " + c.pid); setInterval(() => {}, 1000);`,
    );
    let workerPid = 0;
    for (let i = 0; i < 600 && !workerPid; i++) {
      workerPid = existsSync(logFile) ? Number(/worker (\d+)/.exec(readFileSync(logFile, "utf8"))?.[1] ?? 0) : 0;
      if (!workerPid) await sleep(50);
    }
    expect(workerPid).toBeGreaterThan(0);
    const outcome = await alongside(build, async () => {
      throw new Error("seeding failed: connection lost");
    }).catch((e: unknown) => e);
    expect((outcome as Error).message).toBe("seeding failed: connection lost");
    // stop() waited for the build itself; its worker got the same signal.
    for (let i = 0; i < 100 && alive(workerPid); i++) await sleep(50);
    expect(alive(workerPid)).toBe(false);
    const stopped = await build.done.catch((e: unknown) => e);
    expect((stopped as BuildFailed).message).toContain("next build stopped");
  });

  it("without a build to make, the data work is all there is", async () => {
    expect(await alongside(null, async () => 42)).toBe(42);
  });
});

describe("next build's stages", () => {
  it("reads Next 16's own lines, colours and all", () => {
    expect(buildStageOf("  Creating an optimized production build ...")?.label).toBe("compiling");
    expect(buildStageOf("✓ Compiled successfully in 7.1min")?.label).toBe("compiled");
    expect(buildStageOf("  Running TypeScript ...")?.label).toBe("type-checking");
    expect(buildStageOf("  Collecting page data using 1 worker ...")?.label).toBe("collecting page data");
    expect(buildStageOf("  Generating static pages using 1 worker (10/40) ")?.label).toBe("generating pages");
    expect(buildStageOf("  Finalizing page optimization ...")?.label).toBe("finalizing");
    expect(buildStageOf("Route (app)")).toBeNull();
  });
});

describe("one progress display", () => {
  it("without a terminal: one status line for every track now and then, a line when each ends, and the times", async () => {
    const lines: string[] = [];
    const display = progressDisplay({ tty: false, log: (l) => lines.push(l), everyMs: 40 });
    const seed = display.track("seed", "seed");
    const index = display.track("index", "index");
    const build = display.track("build", "build");
    build.start("starting");
    build.stage("compiling", 0.02);
    seed.start("generating");
    seed.update(4000, 12307);
    await sleep(120);
    seed.done("12307 judgments");
    index.done("current");
    build.done("built");
    display.close();
    const status = lines.find((l) => l.startsWith("[stack] progress: "));
    expect(status).toMatch(/^\[stack\] progress: seed 4,000\/12,307 \(32%\), \d+ s · index waiting · build compiling, \d+ s$/);
    expect(lines).toContain(lines.find((l) => /^\[stack\] seed: 12307 judgments \(\d+ s\)$/.test(l)));
    expect(lines.some((l) => /^\[stack\] build: built \(\d+ s\)$/.test(l))).toBe(true);
    // The index had nothing to do: no line of its own, no times.
    expect(lines.some((l) => l.startsWith("[stack] index:"))).toBe(false);
    const times = display.times();
    expect(times.index).toEqual({ started_ms: null, ended_ms: null });
    expect(times.seed.ended_ms! - times.seed.started_ms!).toBeGreaterThanOrEqual(100);
    const count = lines.length;
    await sleep(100);
    expect(lines.length).toBe(count);
  });
});

describe("the launcher's build", () => {
  /** next.config.ts's checks as `next build` loads it, in a fresh process with `env`. */
  function buildChecks(env: Record<string, string>): { typecheck: boolean; cache: boolean } {
    const { LAUNCHER_BUILD: _l, ...rest } = process.env;
    const out = execFileSync(
      path.resolve("node_modules/.bin/tsx"),
      ["-e", "import('./next.config.ts').then((m) => { const c = m.default.default ?? m.default; console.log(JSON.stringify({ typecheck: !c.typescript?.ignoreBuildErrors, cache: c.experimental?.turbopackFileSystemCacheForBuild !== false })); })"],
      { env: { ...rest, ...env } },
    );
    return JSON.parse(out.toString().trim().split("\n").at(-1)!) as { typecheck: boolean; cache: boolean };
  }

  it("skips the type check and the build cache only when the launcher builds (LAUNCHER_BUILD=1)", () => {
    expect(buildChecks({ LAUNCHER_BUILD: "1" })).toEqual({ typecheck: false, cache: false });
    expect(buildChecks({})).toEqual({ typecheck: true, cache: true });
    expect(buildChecks({ LAUNCHER_BUILD: "0" })).toEqual({ typecheck: true, cache: true });
  });
});
