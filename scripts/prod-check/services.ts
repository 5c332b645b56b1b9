/**
 * The processes of `npm run prod:check` (scripts/prod-check.ts): each long-running one is started in a process group of
 * its own, so stopping it stops everything it started (npm → sh → node), and the check can say afterwards that no
 * process of the group is left. One-off commands (migrations, seeding, the import) run to their exit code. Output goes
 * to a log file per process in the run's folder; its last lines are printed when something fails.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, existsSync, openSync, readFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";

export interface Service {
  name: string;
  pid: number;
  log: string;
  /** What the summary says about it once it runs (its address). */
  detail: string;
  child: ChildProcess;
}

export interface StopReport {
  name: string;
  pid: number;
  /** "exited (code 0)", "signal SIGTERM", "killed after 20 s": how it went. */
  how: string;
  /** True when no process of its group is left. */
  gone: boolean;
}

/** The process groups started and not yet known to be gone, for the guard (./guard.ts) to stop should this process die. */
const liveGroups = new Set<number>();
let onGroupsChanged: (groups: number[]) => void = () => undefined;

export function watchGroups(listener: (groups: number[]) => void): void {
  onGroupsChanged = listener;
}

function track(pid: number, live: boolean): void {
  if (live) liveGroups.add(pid);
  else liveGroups.delete(pid);
  onGroupsChanged([...liveGroups]);
}

/** Set once the check stops everything: a start still under way then refuses, so nothing starts after the stop. */
let closed = false;
export function refuseNewServices(): void {
  closed = true;
}

/** `n` distinct free TCP ports on loopback (the kernel's choice, all held at once, released before the services bind them). */
export async function freePorts(n: number): Promise<number[]> {
  const servers = Array.from({ length: n }, () => net.createServer());
  await Promise.all(servers.map((s) => new Promise<void>((r) => s.listen(0, "127.0.0.1", r))));
  const ports = servers.map((s) => (s.address() as net.AddressInfo).port);
  await Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r()))));
  return ports;
}

export async function freePort(): Promise<number> {
  return (await freePorts(1))[0];
}

/** The last `n` lines of a log file ("" when there is none). */
export function tail(file: string, n = 15): string {
  if (!existsSync(file)) return "";
  return readFileSync(file, "utf8").trimEnd().split("\n").slice(-n).join("\n");
}

/** Start a long-running process in its own process group, its output appended to `<logDir>/<slug>.log`. */
export function startService(opts: { name: string; command: string; args: string[]; env: NodeJS.ProcessEnv; cwd: string; logDir: string; detail?: string }): Service {
  if (closed) throw new Error(`${opts.name}: not started, the check is stopping`);
  const log = path.join(opts.logDir, `${opts.name.replace(/[^a-z0-9]+/gi, "-")}.log`);
  const fd = openSync(log, "a");
  const child = spawn(opts.command, opts.args, { cwd: opts.cwd, env: opts.env, stdio: ["ignore", fd, fd], detached: true });
  closeSync(fd);
  if (child.pid === undefined) throw new Error(`${opts.name}: could not start ${opts.command}`);
  track(child.pid, true);
  return { name: opts.name, pid: child.pid, log, detail: opts.detail ?? "", child };
}

/** Run a one-off command to its end; resolves with its exit code and the output's last lines. */
export async function runCommand(opts: { name: string; command: string; args: string[]; env: NodeJS.ProcessEnv; cwd: string; logDir: string }): Promise<{ code: number; tail: string }> {
  const s = startService({ ...opts, name: `cmd-${opts.name}` });
  const code = await new Promise<number>((resolve) => {
    if (s.child.exitCode !== null) resolve(s.child.exitCode);
    else s.child.once("exit", (c, signal) => resolve(c ?? (signal ? 128 : 1)));
  });
  // A one-off command's group must end with it: anything it left running would outlive the check.
  groupKill(s.pid, "SIGKILL");
  track(s.pid, false);
  return { code, tail: tail(s.log) };
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

function groupKill(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is gone already
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Stop a service: SIGTERM (SIGQUIT for nginx: its graceful stop) to its whole group, SIGKILL to what is left after
 * `graceMs` (the worker lets documents under way finish, up to 40 s), then check no process of the group remains.
 */
export async function stopService(s: Service, opts: { signal?: NodeJS.Signals; graceMs?: number } = {}): Promise<StopReport> {
  const signal = opts.signal ?? "SIGTERM";
  const grace = opts.graceMs ?? 20_000;
  const exited = s.child.exitCode !== null || s.child.signalCode !== null;
  let how = exited ? `had exited (${s.child.signalCode ?? `code ${s.child.exitCode}`})` : "";
  groupKill(s.pid, signal);
  const end = Date.now() + grace;
  while (groupAlive(s.pid) && Date.now() < end) await sleep(100);
  if (groupAlive(s.pid)) {
    groupKill(s.pid, "SIGKILL");
    for (let i = 0; i < 50 && groupAlive(s.pid); i++) await sleep(100);
    how ||= `killed (SIGKILL) after ${Math.round(grace / 1000)} s`;
  }
  if (!groupAlive(s.pid)) track(s.pid, false);
  if (!how) how = s.child.exitCode !== null ? `exited (code ${s.child.exitCode})` : s.child.signalCode ? `stopped (${s.child.signalCode})` : `stopped (${signal})`;
  return { name: s.name, pid: s.pid, how, gone: !groupAlive(s.pid) };
}

/** Wait until `probe` resolves true, failing early when the service has exited; polls every 200 ms. */
export async function waitFor(s: Service, what: string, probe: () => Promise<boolean>, timeoutMs = 120_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (s.child.exitCode !== null || s.child.signalCode !== null) {
      throw new Error(`${s.name} exited (${s.child.signalCode ?? `code ${s.child.exitCode}`}) before ${what}:\n${tail(s.log)}`);
    }
    if (await probe().catch(() => false)) return;
    await sleep(200);
  }
  throw new Error(`${s.name}: no ${what} within ${Math.round(timeoutMs / 1000)} s:\n${tail(s.log)}`);
}

/** True when something accepts a TCP connection on 127.0.0.1:port. */
export function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}
