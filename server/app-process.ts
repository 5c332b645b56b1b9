import { spawn, type ChildProcess, type StdioOptions } from "node:child_process";
import path from "node:path";
import { repoRoot } from "./paths";

/** `next build` (or another Next CLI command) as a child process. */
export function spawnNext(args: string[], env: NodeJS.ProcessEnv, stdio: StdioOptions = "inherit"): ChildProcess {
  return spawn(process.execPath, [path.join(repoRoot, "node_modules", "next", "dist", "bin", "next"), ...args], { cwd: repoRoot, env, stdio });
}

/**
 * The app behind our client-address-stamping server (server/app-server.ts, D-22) instead of `next start`/`next dev`,
 * which would pass a client-sent X-Forwarded-For through unchanged.
 */
export function spawnAppServer(mode: "production" | "development", port: number, env: NodeJS.ProcessEnv, stdio: StdioOptions = "inherit"): ChildProcess {
  const tsx = path.join(repoRoot, "node_modules", "tsx", "dist", "cli.mjs");
  return spawn(process.execPath, [tsx, "server/app-server-cli.ts", "--mode", mode, "--port", String(port), "--host", "127.0.0.1"], {
    cwd: repoRoot,
    env,
    stdio,
  });
}

export function exitCode(child: ChildProcess): Promise<number> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.on("exit", (code) => resolve(code ?? 1)));
}

/** Stop a child politely and wait for it. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill("SIGTERM");
  await exitCode(child);
}

/** Poll `url` until it answers below 500, failing early when `child` dies. */
export async function waitUntilServing(url: string, child: ChildProcess, timeoutMs = 300_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the app exited with code ${child.exitCode} before answering`);
    try {
      const res = await fetch(url);
      if (res.status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer within ${Math.round(timeoutMs / 1000)} s`);
}

/** The extraction worker (server/worker.ts, issue 18) as a child process; stopChild sends SIGTERM (a graceful stop). */
export function spawnWorker(env: NodeJS.ProcessEnv, stdio: StdioOptions = "inherit"): ChildProcess {
  const tsx = path.join(repoRoot, "node_modules", "tsx", "dist", "cli.mjs");
  return spawn(process.execPath, [tsx, "server/worker.ts"], { cwd: repoRoot, env: { ...env, WORKER_LAUNCHER_PID: String(process.pid) }, stdio });
}
