/**
 * One writer at a time on a data folder, across processes (docs/search.md "One writer at a time"). Every write that
 * commits or drops a generation, appends to a delta log or writes state.json holds it: a full build from its start to
 * its commit or abort, an incremental write around the whole write. Readers (the serving app's loads and catch-ups)
 * never take it.
 *
 * Two layers: an in-process queue per folder (every engine instance of a process on one folder shares it, so
 * instances queue without polling the file) and `<dir>/write.lock`, a lock directory (mkdir is atomic: one process
 * makes it; the holder touches its mtime every UPDATE_MS; a lock untouched for STALE_MS belongs to a crashed holder and
 * is taken over; a holder that exits normally removes it on the way out).
 *
 * Not proper-lockfile: it loads signal-exit, which hooks SIGTERM/SIGINT at import and re-raises the signal when it
 * sees no other listener, and a `process.once` handler (the app server's, the gateway's) is already removed when the
 * signal's listeners run: the app died on SIGTERM before flushing its queued search-analytics rows
 * (tests/api/faults-stack-analytics.test.ts). The lock needs mkdir, utimes, stat and rmdir, no more.
 *
 * Lock order: this lock, then the engine's in-process Mutex (a full build holds this one from its start and takes
 * the Mutex for its commit, so an incremental write takes them in the same order; the reverse order deadlocked).
 */
import { rmdirSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { SearchEngineError } from "../errors";

/** A lock whose mtime is older than this is a crashed holder's. Longer than the longest synchronous step of a 10x build's commit. */
export const WRITE_LOCK_STALE_MS = 60_000;
/** How often the holder refreshes the lock's mtime: well inside the stale time, so a live holder is never judged stale. */
const UPDATE_MS = 5_000;
/** How long a writer waits for another's lock (a full build at 10x is minutes; a live holder keeps it fresh). */
const DEFAULT_WAIT_MS = 60 * 60_000;

export type Release = () => Promise<void>;

const byDir = new Map<string, WriteLock>();

export class WriteLock {
  /** The tail of this process's queue for the folder. */
  private tail: Promise<void> = Promise.resolve();

  private constructor(
    readonly dir: string,
    private readonly waitMs: number,
  ) {}

  /** The process-wide lock of a folder (engine instances on one folder share it). */
  static for(dir: string, waitMs = DEFAULT_WAIT_MS): WriteLock {
    const key = path.resolve(dir);
    let lock = byDir.get(key);
    if (!lock) {
      lock = new WriteLock(key, waitMs);
      byDir.set(key, lock);
    }
    return lock;
  }

  get file(): string {
    return path.join(this.dir, "write.lock");
  }

  /** Wait for the lock; the returned function releases it (idempotent). */
  async acquire(): Promise<Release> {
    let releaseLocal!: () => void;
    const previous = this.tail;
    this.tail = new Promise<void>((resolve) => (releaseLocal = resolve));
    await previous;
    let releaseFile: Release;
    try {
      releaseFile = await this.lockFile();
    } catch (e) {
      releaseLocal();
      throw e;
    }
    let released = false;
    return async () => {
      if (released) return;
      released = true;
      try {
        await releaseFile();
      } catch {
        // already removed (taken over as stale after a long stall, or the folder was deleted): nothing to release
      } finally {
        releaseLocal();
      }
    };
  }

  async run<T>(fn: () => Promise<T>): Promise<T> {
    const release = await this.acquire();
    try {
      return await fn();
    } finally {
      await release();
    }
  }

  private async lockFile(): Promise<Release> {
    const deadline = Date.now() + this.waitMs;
    await fs.mkdir(this.dir, { recursive: true });
    let pause = 20;
    for (;;) {
      if (await this.tryLock()) return this.held();
      if (Date.now() > deadline) {
        throw new SearchEngineError(`Another process has held the search index's write lock (${this.file}) for over ${Math.round(this.waitMs / 1000)} s`);
      }
      await new Promise((r) => setTimeout(r, pause));
      pause = Math.min(250, pause * 2);
    }
  }

  /** Make the lock directory; a stale one (its holder stopped refreshing it) is removed first. */
  private async tryLock(): Promise<boolean> {
    try {
      await fs.mkdir(this.file);
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
    const stat = await fs.stat(this.file).catch(() => null);
    if (stat && Date.now() - stat.mtimeMs > WRITE_LOCK_STALE_MS) {
      // Two waiters may both judge it stale: rmdir then mkdir, and only one mkdir succeeds.
      await fs.rmdir(this.file).catch(() => undefined);
      try {
        await fs.mkdir(this.file);
        return true;
      } catch {
        return false;
      }
    }
    return false;
  }

  /** The held lock: its mtime refreshed every UPDATE_MS, removed on release or when the process exits. */
  private held(): Release {
    const file = this.file;
    const refresh = setInterval(() => {
      const now = new Date();
      // A holder stalled past the stale time may have lost the lock to another writer; its own write still completes,
      // and the state.json checks of both writers (engine.ts commitWrite, store.dropGenerations) keep the named
      // generation.
      fs.utimes(file, now, now).catch((e: Error) => console.warn(`search write lock ${file} lost: ${e.message}`));
    }, UPDATE_MS);
    refresh.unref();
    const onExit = () => {
      try {
        rmdirSync(file);
      } catch {
        // already gone
      }
    };
    process.once("exit", onExit);
    return async () => {
      clearInterval(refresh);
      process.removeListener("exit", onExit);
      await fs.rmdir(file);
    };
  }
}
