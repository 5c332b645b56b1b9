/**
 * Finds or installs the Chromium the browser journeys drive, so `npm test` passes on a fresh machine. In order:
 *   1. CHROMIUM_PATH, when it names an executable file;
 *   2. a Chromium already on the machine (Debian's, Ubuntu's, Google Chrome, or one Playwright installed before);
 *   3. Debian's `chromium` through apt, when running as root with apt-get;
 *   4. `npx playwright install chromium` (a download; fails on machines that reach only package registries).
 * Each step says what it does. When every way fails, the caller stops with one line naming the command to run.
 */
import { spawnSync } from "node:child_process";
import { accessSync, constants, existsSync, readdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";

export type Env = Record<string, string | undefined>;

export interface ProvisionProbe {
  env: Env;
  isExecutable(file: string): boolean;
  /** Playwright's own browser cache, newest first. */
  playwrightBrowsers(): string[];
  isRoot(): boolean;
  hasCommand(cmd: string): boolean;
  /** Runs a command with its output shown; true on exit code 0. */
  run(cmd: string, args: string[]): boolean;
  log(line: string): void;
}

export type ProvisionResult = { ok: true; path: string; how: string } | { ok: false; message: string };

const KNOWN_PATHS = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/lib/chromium/chromium", "/usr/bin/google-chrome", "/usr/bin/google-chrome-stable", "/snap/bin/chromium"];

export const MANUAL_INSTALL_LINE =
  "No Chromium for the browser journeys: install one with `sudo apt-get install chromium` (or `npx playwright install chromium`), or set CHROMIUM_PATH to a Chromium executable, then run `npm test` again.";

function findInstalled(p: ProvisionProbe): string | undefined {
  return [...KNOWN_PATHS, ...p.playwrightBrowsers()].find((f) => p.isExecutable(f));
}

export function provisionChromium(p: ProvisionProbe): ProvisionResult {
  const asked = p.env.CHROMIUM_PATH;
  if (asked) {
    if (p.isExecutable(asked)) return { ok: true, path: asked, how: "CHROMIUM_PATH" };
    p.log(`[chromium] CHROMIUM_PATH=${asked} is not an executable file; looking for another Chromium`);
  }
  const found = findInstalled(p);
  if (found) return { ok: true, path: found, how: "found on this machine" };

  if (p.isRoot() && p.hasCommand("apt-get")) {
    p.log("[chromium] none found; installing Debian's chromium with apt-get (running as root)");
    if (p.run("apt-get", ["update", "-qq"]) && p.run("apt-get", ["install", "-y", "-qq", "chromium"])) {
      const installed = findInstalled(p);
      if (installed) return { ok: true, path: installed, how: "installed with apt-get" };
    }
    p.log("[chromium] apt-get could not install chromium");
  }
  p.log("[chromium] trying `npx playwright install chromium` (downloads Playwright's Chromium build)");
  if (p.run("npx", ["playwright", "install", "chromium"])) {
    const installed = findInstalled(p);
    if (installed) return { ok: true, path: installed, how: "installed with npx playwright install" };
  }
  return { ok: false, message: MANUAL_INSTALL_LINE };
}

/** Where Playwright keeps its browsers: PLAYWRIGHT_BROWSERS_PATH or ~/.cache/ms-playwright. */
function playwrightBrowsers(env: Env): string[] {
  const root = env.PLAYWRIGHT_BROWSERS_PATH && env.PLAYWRIGHT_BROWSERS_PATH !== "0" ? env.PLAYWRIGHT_BROWSERS_PATH : path.join(os.homedir(), ".cache", "ms-playwright");
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .filter((d) => /^chromium-\d+$/.test(d))
    .sort((a, b) => Number(b.split("-")[1]) - Number(a.split("-")[1]))
    .flatMap((d) => ["chrome-linux64/chrome", "chrome-linux/chrome"].map((f) => path.join(root, d, f)));
}

export function systemProbe(env: Env = process.env): ProvisionProbe {
  return {
    env,
    isExecutable(file) {
      try {
        accessSync(file, constants.X_OK);
        return true;
      } catch {
        return false;
      }
    },
    playwrightBrowsers: () => playwrightBrowsers(env),
    isRoot: () => typeof process.getuid === "function" && process.getuid() === 0,
    hasCommand: (cmd) => spawnSync("sh", ["-c", `command -v ${cmd}`], { stdio: "ignore" }).status === 0,
    // The installer's output and our own lines go to stderr: the benches print their JSON on stdout.
    run: (cmd, args) => spawnSync(cmd, args, { stdio: ["ignore", 2, 2], env: { ...process.env, ...env, DEBIAN_FRONTEND: "noninteractive" } }).status === 0,
    log: (line) => console.error(line),
  };
}
