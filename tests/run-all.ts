/**
 * `npm test`: every check the project has, in order, against one test stack.
 *   1. ESLint and `tsc --noEmit`, side by side
 *   2. unit tests (no stack) in the background from here on, beside 3 and 4
 *   3. a production build of the app (.next-test) and the test stack (embedded Postgres in .data/test, gateway,
 *      fixture corpus, search index), side by side
 *   4. database, API and security tests (vitest), then browser journeys (Playwright in Chromium)
 * The browser is provisioned first (tests/helpers/provision-chromium.ts): found, or installed, or one line saying how.
 * It ends with one plain summary line, "N passed, N failed, N skipped".
 */
import { spawn } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "../server/paths";
import { provisionChromium, systemProbe } from "./helpers/provision-chromium";
import { awaitTestBuild, startTestApp, startTestBuild } from "./helpers/test-app";
import { startTestStack, testStackSettings } from "./helpers/test-stack";

const reportsDir = path.join(repoRoot, "test-results", "reports");
const totals = { passed: 0, failed: 0, skipped: 0 };
const failures: string[] = [];

function sh(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  console.log(`\n▶ ${cmd} ${args.join(" ")}`);
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: repoRoot, env, stdio: "inherit" });
    child.on("exit", (code) => resolve(code ?? 1));
  });
}

function shLogged(cmd: string, args: string[], env: NodeJS.ProcessEnv, logFile: string): Promise<number> {
  console.log(`\n▶ ${cmd} ${args.join(" ")} (in the background; output: ${path.relative(repoRoot, logFile)})`);
  mkdirSync(path.dirname(logFile), { recursive: true });
  const fd = openSync(logFile, "w");
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: repoRoot, env: { ...env, FORCE_COLOR: process.stdout.isTTY ? "1" : "0" }, stdio: ["ignore", fd, fd] });
    child.on("exit", (code) => {
      closeSync(fd);
      console.log(`\n▶ ${cmd} ${args.join(" ")}: its output\n${readFileSync(logFile, "utf8")}`);
      resolve(code ?? 1);
    });
  });
}

function bin(name: string): string {
  return path.join(repoRoot, "node_modules", ".bin", name);
}

async function check(label: string, cmd: string, args: string[], env?: NodeJS.ProcessEnv): Promise<void> {
  const code = await sh(cmd, args, env);
  if (code === 0) totals.passed++;
  else {
    totals.failed++;
    failures.push(label);
  }
}

/** Count vitest results from its JSON report. */
function countVitest(file: string, label: string, code: number): void {
  if (!existsSync(file)) {
    totals.failed++;
    failures.push(`${label} (no report, exit ${code})`);
    return;
  }
  const r = JSON.parse(readFileSync(file, "utf8")) as { numPassedTests: number; numFailedTests: number; numPendingTests: number; numTodoTests: number; numFailedTestSuites: number };
  totals.passed += r.numPassedTests;
  // A file that fails before its tests run (an import or collection error) has no failed test to count: it counts as
  // one failure per file, whatever vitest's exit code says (a run with six such files once exited 0 and read green).
  const unrunFiles = r.numFailedTests === 0 ? Math.max(r.numFailedTestSuites, code !== 0 ? 1 : 0) : 0;
  totals.failed += r.numFailedTests + unrunFiles;
  totals.skipped += r.numPendingTests + r.numTodoTests;
  if (code !== 0 || r.numFailedTestSuites > 0) failures.push(label);
}

function countPlaywright(file: string, code: number): void {
  if (!existsSync(file)) {
    totals.failed++;
    failures.push(`playwright (no report, exit ${code})`);
    return;
  }
  const r = JSON.parse(readFileSync(file, "utf8")) as { stats: { expected: number; unexpected: number; flaky: number; skipped: number } };
  totals.passed += r.stats.expected + r.stats.flaky;
  totals.failed += r.stats.unexpected + (r.stats.unexpected === 0 && code !== 0 ? 1 : 0);
  totals.skipped += r.stats.skipped;
  if (code !== 0) failures.push("playwright");
}

/** A vitest run; with `logFile` in the background, its output printed whole once it ended (never interleaved). */
async function vitest(projects: string[], label: string, env: NodeJS.ProcessEnv, logFile?: string): Promise<void> {
  const out = path.join(reportsDir, `vitest-${label}.json`);
  const args = ["run", ...projects.flatMap((p) => ["--project", p]), "--reporter=default", "--reporter=json", `--outputFile.json=${out}`];
  const code = logFile ? await shLogged(bin("vitest"), args, env, logFile) : await sh(bin("vitest"), args, env);
  countVitest(out, `vitest ${label}`, code);
}

async function main() {
  rmSync(reportsDir, { recursive: true, force: true });
  mkdirSync(reportsDir, { recursive: true });
  // Parts to run (lint, typecheck, unit, db, api, security, e2e; none = all); spec files given with e2e run alone.
  const only = process.argv.slice(2).filter((a) => !a.endsWith(".spec.ts"));
  const specs = process.argv.slice(2).filter((a) => a.endsWith(".spec.ts"));
  const want = (part: string) => only.length === 0 || only.includes(part);

  let chromiumEnv: Record<string, string> = {};
  if (want("e2e")) {
    const browser = provisionChromium(systemProbe());
    if (!browser.ok) {
      console.log(browser.message);
      process.exit(1);
    }
    console.log(`[chromium] ${browser.path} (${browser.how})`);
    chromiumEnv = { CHROMIUM_PATH: browser.path };
  }

  // ESLint and tsc are one core each: on two cores they run side by side.
  await Promise.all([
    want("lint") ? check("eslint", bin("eslint"), [".", "--max-warnings=0"]) : null,
    want("typecheck") ? check("tsc", bin("tsc"), ["--noEmit"]) : null,
  ]);
  // The unit tests need no stack: they run in the background beside the app's production build, the stack's start
  // and the stack's tests (which wait on the app and Postgres more than they use the two cores), their output kept in
  // test-results/unit.log and printed whole when they end. The build starts after tsc, which reads the route types a
  // build writes (.next-test/types): never a half-written file.
  const needsApp = want("db") || want("api") || want("security") || want("e2e");
  const unit = want("unit") ? vitest(["unit"], "unit", process.env, path.join(repoRoot, "test-results", "unit.log")) : null;
  const build = needsApp ? startTestBuild() : null;
  if (build) console.log("[test-app] next build started (output: test-results/next-build.log)");
  if (needsApp) {
    const settings = testStackSettings();
    let stack: Awaited<ReturnType<typeof startTestStack>>;
    try {
      stack = await startTestStack();
    } catch (e) {
      await build?.stop();
      throw e;
    }
    try {
      await awaitTestBuild(build);
    } catch (e) {
      await stack.stop();
      throw e;
    }
    try {
      const projects = ["db", "api", "security"].filter(want);
      if (projects.length) {
        const app = await startTestApp(stack.env, { port: settings.appPort, mode: "production" });
        stack.env.appUrl = app.url;
        stack.env.appMode = "production";
        try {
          await vitest(projects, "stack", { ...process.env, TEST_STACK_ENV: JSON.stringify(stack.env), APP_URL: app.url });
        } finally {
          await app.stop();
        }
      }
      await unit;
      if (want("e2e")) {
        // The journeys all come from one address (Chromium on 127.0.0.1), where the API tests use a loopback address
        // per simulated visitor: at the per-IP limit of one real visitor (100/min) thirteen journeys in a row are
        // refused 429 part-way. Their app gets per-IP limits that fit many visitors, sign-up and sign-in included (19
        // journeys sign up or in more than the 20 a minute one address may); the limits themselves are tested over HTTP
        // (tests/api, auth-limits). The guest allowance is a separate meter and stays as configured.
        // The limits store is reached as `npm start` reaches it: a direct Redis connection (LIMITS_REDIS_URL); the API
        // tests' app goes through the gateway's REST bridge, as a deployment on Upstash would.
        const app = await startTestApp(stack.env, {
          port: settings.appPort,
          mode: "production",
          extraEnv: {
            GENERAL_RATE_LIMIT_PER_MINUTE: "5000",
            SEARCH_DOCUMENTS_RATE_LIMIT: "5000",
            AUTH_RATE_LIMIT_PER_IP_PER_MINUTE: "1000",
            ...(stack.env.upstashUrl ? { LIMITS_REDIS_URL: process.env.REDIS_URL ?? "redis://127.0.0.1:6379" } : {}),
          },
        });
        stack.env.appUrl = app.url;
        try {
          const env = { ...process.env, TEST_STACK_ENV: JSON.stringify(stack.env), APP_URL: app.url };
          const out = path.join(reportsDir, "playwright.json");
          const code = await sh(bin("playwright"), ["test", "--reporter=list,json", ...specs], { ...env, ...chromiumEnv, PLAYWRIGHT_JSON_OUTPUT_NAME: out });
          countPlaywright(out, code);
        } finally {
          await app.stop();
        }
      }
    } finally {
      await stack.stop();
    }
  }

  await unit;
  console.log("");
  if (failures.length) console.log(`failed: ${failures.join(", ")}`);
  console.log(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
  process.exit(totals.failed > 0 ? 1 : 0);
}

main().catch((e: Error) => {
  console.error(e);
  console.log(`tests: ${totals.passed} passed, ${totals.failed + 1} failed, ${totals.skipped} skipped`);
  process.exit(1);
});
