import { spawn, type ChildProcess, type StdioOptions } from "node:child_process";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { repoRoot } from "../paths";

/**
 * Node's arguments to run one of our TypeScript entries: node itself with tsx's loader, not the `tsx` command. The
 * command is a second process that starts node on the file, so the PID the launcher holds would be tsx's: a SIGKILL
 * (by the supervisor, or anyone) would end tsx and leave the real process running, orphaned, on its port.
 */
function tsEntry(entry: string, args: string[] = []): string[] {
  const loader = pathToFileURL(path.join(repoRoot, "node_modules", "tsx", "dist", "loader.mjs")).href;
  return ["--import", loader, entry, ...args];
}

/** `next build` (or another Next CLI command) as a child process. */
export function spawnNext(args: string[], env: NodeJS.ProcessEnv, stdio: StdioOptions = "inherit"): ChildProcess {
  return spawn(process.execPath, [path.join(repoRoot, "node_modules", "next", "dist", "bin", "next"), ...args], { cwd: repoRoot, env, stdio });
}

/**
 * The app behind our client-address-stamping server (server/app/app-server.ts, D-22) instead of `next start`/`next dev`,
 * which would pass a client-sent X-Forwarded-For through unchanged.
 */
export function spawnAppServer(mode: "production" | "development", port: number, env: NodeJS.ProcessEnv, stdio: StdioOptions = "inherit"): ChildProcess {
  return spawn(process.execPath, tsEntry("server/app/app-server-cli.ts", ["--mode", mode, "--port", String(port), "--host", "127.0.0.1"]), {
    cwd: repoRoot,
    env: { ...env, LAUNCHER_PID: String(process.pid) },
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
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`the app exited (${child.signalCode ? `signal ${child.signalCode}` : `code ${child.exitCode}`}) before answering`);
    }
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

/**
 * A TypeScript entry of ours as a child process that watches this process (LAUNCHER_PID) and, with `ipc`, reports
 * readiness over an IPC channel (server/supervise.ts readyMessage), which also closes when this process dies.
 */
function spawnEntry(entry: string, env: NodeJS.ProcessEnv, stdio: "inherit" | "quiet", ipc: boolean): ChildProcess {
  const streams: StdioOptions = stdio === "inherit" ? ["inherit", "inherit", "inherit"] : ["ignore", "ignore", "inherit"];
  return spawn(process.execPath, tsEntry(entry), {
    cwd: repoRoot,
    env: { ...env, LAUNCHER_PID: String(process.pid) },
    stdio: ipc ? [...streams, "ipc"] : streams,
  });
}

/** The extraction worker (server/worker/worker.ts) as a child process; stopChild sends SIGTERM (a graceful stop). */
export function spawnWorker(env: NodeJS.ProcessEnv, stdio: StdioOptions = "inherit"): ChildProcess {
  return spawn(process.execPath, tsEntry("server/worker/worker.ts"), { cwd: repoRoot, env: { ...env, LAUNCHER_PID: String(process.pid) }, stdio });
}

/** The worker with an IPC channel: it reports `{workerId}` once it works the queue (server/worker/worker.ts). */
export function spawnWorkerIpc(env: NodeJS.ProcessEnv, stdio: "inherit" | "quiet" = "inherit"): ChildProcess {
  return spawnEntry("server/worker/worker.ts", env, stdio, true);
}

/** The gateway as a child process (server/launcher/gateway-cli.ts); it reports `{url, upstash}` once listening. */
export function spawnGateway(env: NodeJS.ProcessEnv, stdio: "inherit" | "quiet" = "inherit"): ChildProcess {
  return spawnEntry("server/launcher/gateway-cli.ts", env, stdio, true);
}

/** The mail catcher as a child process (server/launcher/mail-catcher-cli.ts); it reports `{url}` once listening. */
export function spawnMailCatcher(env: NodeJS.ProcessEnv, stdio: "inherit" | "quiet" = "inherit"): ChildProcess {
  return spawnEntry("server/launcher/mail-catcher-cli.ts", env, stdio, true);
}

/** The embedded cluster's guard (server/launcher/postgres-guard.ts): stops the cluster in `dir` once this process is gone. */
export function spawnPostgresGuard(dir: string, launcherPid = process.pid, everyMs = 1000): ChildProcess {
  return spawn(process.execPath, tsEntry("server/launcher/postgres-guard.ts", ["--launcher", String(launcherPid), "--dir", dir, "--every", String(everyMs)]), {
    cwd: repoRoot,
    stdio: ["ignore", "inherit", "inherit"],
  });
}
