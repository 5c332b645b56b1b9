import { exitCode, spawnAppServer, spawnNext, stopChild, waitUntilServing } from "../../server/launcher/processes";
import path from "node:path";
import { BuildFailed, buildIsCurrent, recordBuild, sourceFingerprint, startBuild, type RunningBuild } from "../../server/launcher/next-build";
import { repoRoot } from "../../server/paths";
import type { TestStackEnv } from "./test-stack";

export interface TestApp {
  url: string;
  stop(): Promise<void>;
}

type Env = Record<string, string | undefined>;

/** Where the app under test sends the contact form's notifications (they land in the test stack's mail_messages). */
export const TEST_CONTACT_NOTIFY_EMAIL = "contact-notify@example.org";

/** The environment the app under test runs with: the test stack's addresses, nothing from a developer's .env.local. */
export function appEnv(stack: TestStackEnv, extra: Env = {}): NodeJS.ProcessEnv {
  const env: Env = {
    ...process.env,
    DATABASE_URL: stack.databaseUrl,
    SUPABASE_URL: stack.supabaseUrl,
    SUPABASE_ANON_KEY: stack.anonKey,
    SUPABASE_SERVICE_ROLE_KEY: stack.serviceRoleKey,
    UPSTASH_REDIS_REST_URL: stack.upstashUrl,
    UPSTASH_REDIS_REST_TOKEN: stack.upstashToken,
    SEARCH_DATA_DIR: stack.searchDataDir,
    SMTP_URL: stack.smtpUrl,
    CONTACT_NOTIFY_EMAIL: TEST_CONTACT_NOTIFY_EMAIL,
    // Counters of their own in the shared Redis: a developer's running app must not spend the tests' allowance.
    LIMITS_KEY_PREFIX: `rl-test-${process.pid}`,
    // Small enough that a test passes it without sending hundreds of megabytes; the fixtures are well under it.
    IMPORT_UPLOAD_MAX_BYTES: String(512 * 1024),
    // Verified API keys are remembered for this long (30 s by default): a revoked key's test waits it out over HTTP,
    // and tests/unit/api-key-cache.test.ts covers the expiry itself.
    API_KEY_CACHE_SECONDS: "3",
    ...extra,
  };
  return env as NodeJS.ProcessEnv;
}

/** Where the production build the tests serve lives (a developer's `.next` is untouched). */
export function testDistDir(): string {
  return process.env.NEXT_DIST_DIR ?? ".next-test";
}

/**
 * Start the tests' production build in the background, unless it is current: `npm test` starts it beside the unit
 * tests instead of after them (like the launcher's build beside seeding, P-01: a build needs the settings only, no
 * database). It is the full build `startTestApp` makes, Next's type check included: that check also reads the route
 * types the build writes (.next-test/types), which `tsc --noEmit` before it cannot. Its output goes to
 * test-results/next-build.log; a failure quotes the last lines.
 */
export function startTestBuild(): RunningBuild | null {
  const distDir = testDistDir();
  if (buildIsCurrent(distDir)) return null;
  const env: NodeJS.ProcessEnv = { ...process.env, NEXT_DIST_DIR: distDir, NODE_ENV: "production" };
  const logFile = path.join(repoRoot, "test-results", "next-build.log");
  return startBuild({ env, distDir, logFile, progress: { stage: () => undefined } });
}

/** Wait for a build from startTestBuild; a failure throws with the last lines of Next's output. */
export async function awaitTestBuild(build: RunningBuild | null): Promise<void> {
  if (!build) return;
  try {
    await build.done;
  } catch (e) {
    if (e instanceof BuildFailed) throw new Error(`${e.message}\n${e.tail.join("\n")}`);
    throw e;
  }
}

/**
 * Start the app for API and browser tests through the same server the launcher uses. `production` builds once into
 * NEXT_DIST_DIR (default `.next-test`, so a developer's `.next` is untouched) and reuses the build while sources are
 * unchanged; `development` runs Next in dev mode.
 */
export async function startTestApp(
  stack: TestStackEnv,
  opts: { port: number; mode: "production" | "development"; extraEnv?: Env },
): Promise<TestApp> {
  const distDir = testDistDir();
  const env = appEnv(stack, { NEXT_DIST_DIR: distDir, NODE_ENV: opts.mode, ...opts.extraEnv });
  if (opts.mode === "production" && !buildIsCurrent(distDir)) {
    console.log(`[test-app] next build → ${distDir}`);
    if ((await exitCode(spawnNext(["build"], env))) !== 0) throw new Error("next build failed");
    recordBuild(distDir, sourceFingerprint());
  }
  const child = spawnAppServer(opts.mode, opts.port, env, process.env.TEST_APP_VERBOSE ? "inherit" : ["ignore", "ignore", "inherit"]);
  const url = `http://127.0.0.1:${opts.port}`;
  await waitUntilServing(`${url}/api/health/status`, child);
  return { url, stop: () => stopChild(child) };
}
