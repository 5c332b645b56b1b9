/**
 * The launcher's supervisor: each part of the local stack that runs as a child process (the app, the gateway, the
 * extraction worker, the mail catcher) is started through `supervise`, which starts it again when it dies, after a
 * back-off (1 s, 2 s, 4 s … up to a cap; back to the first wait once an instance has run for a stable period), and
 * says why it died (exit code or signal). One child dying never stops another. The children in turn stop when the
 * launcher is gone (`exitWithLauncher`), so a killed launcher leaves nothing running behind it.
 */
import type { ChildProcess } from "node:child_process";

export interface Backoff {
  /** Wait before the first restart after a crash. */
  initialMs: number;
  /** Longest wait: the doubling stops here. */
  maxMs: number;
  /** An instance that ran at least this long before it died was healthy: the waits start again at initialMs. */
  stableMs: number;
}

/** The wait before restart number `crashesInARow` (1 = the first crash after a stable run): initial·2^(n-1), capped. */
export function restartDelay(crashesInARow: number, b: Backoff): number {
  const n = Math.max(1, crashesInARow);
  // 2^31 is far past any cap; bounding the exponent keeps the arithmetic finite whatever the count.
  return Math.min(b.maxMs, b.initialMs * 2 ** Math.min(n - 1, 31));
}

/** "exit code 3", "signal SIGKILL": what a developer reads in the launcher's log. */
export function exitReason(code: number | null, signal: NodeJS.Signals | null): string {
  if (signal) return `signal ${signal}`;
  return `exit code ${code ?? "unknown"}`;
}

export interface ChildSpec<T> {
  /** What the log calls it: "app", "gateway", "worker", "mail catcher". */
  name: string;
  /** Start one instance. */
  spawn(): ChildProcess;
  /**
   * Resolves (with what the instance reports, e.g. its URL) once the instance serves; rejects when it cannot. A
   * rejection of a restarted instance counts as a crash of it (it is killed and started again after the back-off).
   */
  ready(child: ChildProcess): Promise<T>;
}

export interface SuperviseOptions {
  backoff: Backoff;
  log: (line: string) => void;
  /** Called with what each restarted instance reported once ready. */
  onRestarted?: (info: unknown) => void;
}

export interface Supervised<T> {
  readonly name: string;
  /** The instance running now (null between a crash and its restart, and after stop). */
  readonly child: ChildProcess | null;
  /** Instances started after the first. */
  readonly restarts: number;
  /**
   * The first instance's ready value. Rejects when the first instance does not come up (a wrong setting, a port in
   * use): then nothing is restarted, and the launcher fails its start as before, with the reason.
   */
  readonly started: Promise<T>;
  /** Stop supervising and stop the instance (SIGTERM, then SIGKILL after `graceMs`). */
  stop(graceMs?: number): Promise<void>;
}

function waitForExit(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}

/** Run `spec` under supervision: started now, restarted after each crash until `stop()`. */
export function supervise<T>(spec: ChildSpec<T>, opts: SuperviseOptions): Supervised<T> {
  let child: ChildProcess | null = null;
  let stopped = false;
  let restarts = 0;
  let crashesInARow = 0;
  let timer: NodeJS.Timeout | null = null;

  const killInstance = (c: ChildProcess) => {
    if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  };

  const restart = () => {
    timer = null;
    if (stopped) return;
    restarts++;
    const attempt = startOne(false);
    attempt.ready.then(
      (info) => {
        opts.log(`${spec.name} is back (restart ${restarts})`);
        opts.onRestarted?.(info);
      },
      (e: unknown) => {
        // Started but never served: kill it, and its exit schedules the next try.
        opts.log(`${spec.name} did not come back: ${e instanceof Error ? e.message : String(e)}`);
        killInstance(attempt.instance);
      },
    );
  };

  function startOne(first: boolean): { instance: ChildProcess; ready: Promise<T> } {
    const instance = spec.spawn();
    child = instance;
    const startedAt = Date.now();
    let isReady = false;
    instance.once("exit", (code, signal) => {
      if (child === instance) child = null;
      if (stopped || (first && !isReady)) return; // stopping, or a first start that failed: `started` rejects
      const ranMs = Date.now() - startedAt;
      // A stable run earns a fresh back-off; crashes in a row wait longer each time.
      crashesInARow = isReady && ranMs >= opts.backoff.stableMs ? 1 : crashesInARow + 1;
      const wait = restartDelay(crashesInARow, opts.backoff);
      opts.log(`${spec.name} exited (${exitReason(code, signal)}) after ${(ranMs / 1000).toFixed(1)} s; restarting in ${(wait / 1000).toFixed(1)} s`);
      timer = setTimeout(restart, wait);
    });
    const ready = spec.ready(instance).then((info) => {
      isReady = true;
      return info;
    });
    return { instance, ready };
  }

  const first = startOne(true);
  const started = first.ready.catch(async (e: unknown) => {
    stopped = true;
    killInstance(first.instance);
    await waitForExit(first.instance);
    throw e;
  });
  // The launcher awaits `started`; this only keeps a rejection nobody awaited from ending the process.
  started.catch(() => undefined);

  return {
    name: spec.name,
    get child() {
      return child;
    },
    get restarts() {
      return restarts;
    },
    started,
    async stop(graceMs = 40_000) {
      stopped = true;
      if (timer) clearTimeout(timer);
      const c = child;
      if (!c || c.exitCode !== null || c.signalCode !== null) return;
      c.kill("SIGTERM");
      const kill = setTimeout(() => c.kill("SIGKILL"), graceMs);
      await waitForExit(c);
      clearTimeout(kill);
    },
  };
}

/** A child that reports readiness over IPC sends this once it serves (see `announceReady`). */
export interface ReadyMessage<T> {
  type: "ready";
  info: T;
}

/** Resolves with the child's ready message; rejects when it exits first or stays silent for `timeoutMs`. */
export function readyMessage<T>(child: ChildProcess, name: string, timeoutMs = 120_000): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const cleanup = () => {
      clearTimeout(timer);
      child.off("message", onMessage);
      child.off("exit", onExit);
    };
    const onMessage = (m: unknown) => {
      if (typeof m === "object" && m !== null && (m as { type?: unknown }).type === "ready") {
        cleanup();
        resolve((m as ReadyMessage<T>).info);
      }
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
      cleanup();
      reject(new Error(`the ${name} exited (${exitReason(code, signal)}) before it was ready`));
    };
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`the ${name} was not ready within ${Math.round(timeoutMs / 1000)} s`));
    }, timeoutMs);
    child.on("message", onMessage);
    child.once("exit", onExit);
  });
}

/** In a supervised child: tell the launcher this instance serves (no-op when not started over IPC). */
export function announceReady<T>(info: T): void {
  process.send?.({ type: "ready", info } satisfies ReadyMessage<T>);
}

/**
 * In a child of the launcher: call `stop` once the launcher is gone, however it went (killed with SIGKILL, or its
 * wrapper signalled alone). Over IPC the channel closes when the launcher dies; otherwise LAUNCHER_PID (or the
 * worker's older WORKER_LAUNCHER_PID) is polled. Started on its own (no launcher), nothing is watched.
 */
export function exitWithLauncher(stop: () => void, log: (line: string) => void = () => undefined): void {
  let gone = false;
  const onGone = () => {
    if (gone) return;
    gone = true;
    log("the launcher is gone: stopping");
    stop();
  };
  if (process.send) process.once("disconnect", onGone);
  const pid = Number(process.env.LAUNCHER_PID ?? process.env.WORKER_LAUNCHER_PID);
  if (Number.isInteger(pid) && pid > 0) {
    setInterval(() => {
      try {
        process.kill(pid, 0);
      } catch {
        onGone();
      }
    }, 1000).unref();
  }
}

/**
 * In the launcher: call `onGone` when the process that started it dies. `npm start` runs the launcher under wrappers
 * (npm, tsx's own parent process); one of them killed with SIGKILL cannot pass a signal on, and the launcher, left
 * running without a terminal, used to keep the whole stack up. The parent's death shows as a changed parent PID.
 */
export function watchParent(onGone: () => void, everyMs = 1000): void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid !== parent) {
      clearInterval(timer);
      onGone();
    }
  }, everyMs);
  timer.unref();
}
