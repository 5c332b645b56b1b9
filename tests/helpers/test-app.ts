import { exitCode, spawnAppServer, spawnNext, stopChild, waitUntilServing } from "../../server/launcher/processes";
import { buildIsCurrent, recordBuild, sourceFingerprint } from "../../server/launcher/next-build";
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
    ...extra,
  };
  return env as NodeJS.ProcessEnv;
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
  const distDir = process.env.NEXT_DIST_DIR ?? ".next-test";
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
