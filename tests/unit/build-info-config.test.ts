import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * next.config.ts fixes the build's identity (docs/releasing.md): package.json's version, the commit from git or
 * APP_COMMIT, the build time; a checkout without git still loads it and says "unknown". Each case loads the config
 * in a fresh process, as `next build` does.
 */
const root = path.resolve(__dirname, "../..");
const tsx = path.join(root, "node_modules/.bin/tsx");
const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { version: string };

function buildEnv(env: Record<string, string>): Record<string, string> {
  const { APP_VERSION: _v, APP_COMMIT: _c, APP_BUILT_AT: _b, VERCEL_GIT_COMMIT_SHA: _s, ...rest } = process.env;
  const out = execFileSync(tsx, ["-e", "import('./next.config.ts').then((m) => console.log(JSON.stringify((m.default.default ?? m.default).env)))"], {
    cwd: root,
    env: { ...rest, ...env },
  });
  return JSON.parse(out.toString().trim().split("\n").at(-1)!) as Record<string, string>;
}

describe("the build identity in next.config.ts", () => {
  it("reads the version from package.json and the commit from git", () => {
    const before = Date.now();
    const env = buildEnv({});
    expect(env.APP_VERSION).toBe(pkg.version);
    expect(env.APP_COMMIT).toBe(execFileSync("git", ["rev-parse", "HEAD"], { cwd: root }).toString().trim());
    expect(Date.parse(env.APP_BUILT_AT)).toBeGreaterThanOrEqual(before - 1000);
  });

  it("says unknown where there is no git repository, and takes APP_COMMIT / APP_VERSION when given", () => {
    expect(buildEnv({ GIT_DIR: path.join(root, "no-such-git-dir") }).APP_COMMIT).toBe("unknown");
    const given = buildEnv({ APP_COMMIT: "0123abc", APP_VERSION: "9.9.9", APP_BUILT_AT: "2026-12-07T00:00:00.000Z" });
    expect(given).toEqual({ APP_VERSION: "9.9.9", APP_COMMIT: "0123abc", APP_BUILT_AT: "2026-12-07T00:00:00.000Z" });
  });
});
