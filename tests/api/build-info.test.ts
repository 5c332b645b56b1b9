import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { Browser, signedInBrowser } from "../helpers/http";

/**
 * The running build's identity (docs/releasing.md): both health shapes report the release from package.json, the
 * commit the build was made from and the build time, all fixed by next.config.ts when Next loaded it (the test app
 * is built from this checkout, so its commit is one of this repository).
 */
const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
const repo = new URL("../..", import.meta.url);

function expectBuild(body: Record<string, unknown>) {
  expect(body.version).toBe(pkg.version);
  expect(body.version).toMatch(/^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/);
  // The app may have been built before the last commit of this checkout was made; it is a commit of this repository.
  expect(body.commit).toMatch(/^[0-9a-f]{40}$/);
  execFileSync("git", ["cat-file", "-e", `${String(body.commit)}^{commit}`], { cwd: repo });
  const built = Date.parse(String(body.built_at));
  expect(Number.isNaN(built)).toBe(false);
  expect(built).toBeLessThanOrEqual(Date.now());
}

describe("build identity in health", () => {
  it("GET /api/health/status reports version, commit and built_at", async () => {
    const res = await new Browser().get("/api/health/status");
    expect(res.status).toBe(200);
    expectBuild((await res.json()) as Record<string, unknown>);
  });

  it("GET /api/v1/health reports the same three fields", async () => {
    const { browser } = await signedInBrowser();
    const made = await browser.post("/api/settings/api-keys", { name: "build-info" });
    expect(made.status).toBe(201);
    const { key } = (await made.json()) as { key: string };
    const res = await new Browser().get("/api/v1/health", { "x-api-key": key });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expectBuild(body);
    const web = (await (await new Browser().get("/api/health/status")).json()) as Record<string, unknown>;
    expect({ version: body.version, commit: body.commit, built_at: body.built_at }).toEqual({
      version: web.version,
      commit: web.commit,
      built_at: web.built_at,
    });
  });
});
