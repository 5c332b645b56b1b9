import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { buildIsCurrent, recordBuild, sourceFingerprint } from "../../supabase/local/next-build";
import { repoRoot } from "../../supabase/local/paths";
import type { TestStackEnv } from "./test-stack";

export interface TestApp {
  url: string;
  stop(): Promise<void>;
}

/** The environment the app under test runs with: the test stack's addresses, nothing from a developer's .env.local. */
export function appEnv(stack: TestStackEnv, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: stack.databaseUrl,
    SUPABASE_URL: stack.supabaseUrl,
    SUPABASE_ANON_KEY: stack.anonKey,
    SUPABASE_SERVICE_ROLE_KEY: stack.serviceRoleKey,
    ...extra,
  };
  for (const [k, v] of Object.entries(stack as unknown as Record<string, unknown>)) {
    if (k === "upstashUrl" && typeof v === "string") env.UPSTASH_REDIS_REST_URL = v;
    if (k === "upstashToken" && typeof v === "string") env.UPSTASH_REDIS_REST_TOKEN = v;
    if (k === "searchDataDir" && typeof v === "string") env.SEARCH_DATA_DIR = v;
  }
  return env;
}

function run(args: string[], env: NodeJS.ProcessEnv, quiet: boolean): ChildProcess {
  const bin = path.join(repoRoot, "node_modules", "next", "dist", "bin", "next");
  return spawn(process.execPath, [bin, ...args], { cwd: repoRoot, env, stdio: quiet ? "ignore" : "inherit" });
}

async function waitFor(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 1200; i++) {
    if (child.exitCode !== null) throw new Error(`the app exited with code ${child.exitCode} before answering`);
    try {
      const res = await fetch(url);
      if (res.status < 500) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer in time`);
}

/**
 * Start Next for API and browser tests. `production` builds once into NEXT_DIST_DIR (default `.next-test`, so a
 * developer's `.next` is untouched) and reuses the build while sources are unchanged; `development` runs `next dev`.
 */
export async function startTestApp(
  stack: TestStackEnv,
  opts: { port: number; mode: "production" | "development"; extraEnv?: NodeJS.ProcessEnv },
): Promise<TestApp> {
  const distDir = process.env.NEXT_DIST_DIR ?? ".next-test";
  const env = appEnv(stack, { NEXT_DIST_DIR: distDir, NODE_ENV: opts.mode, ...opts.extraEnv });
  if (opts.mode === "production" && !buildIsCurrent(distDir)) {
    console.log(`[test-app] next build → ${distDir}`);
    const build = run(["build"], env, false);
    const code = await new Promise<number>((r) => build.on("exit", (c) => r(c ?? 1)));
    if (code !== 0) throw new Error("next build failed");
    recordBuild(distDir, sourceFingerprint());
  }
  const child = run([opts.mode === "production" ? "start" : "dev", "-p", String(opts.port), "-H", "127.0.0.1"], env, !process.env.TEST_APP_VERBOSE);
  const url = `http://127.0.0.1:${opts.port}`;
  await waitFor(`${url}/api/health/status`, child);
  return {
    url,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      await new Promise((r) => child.on("exit", r));
    },
  };
}
