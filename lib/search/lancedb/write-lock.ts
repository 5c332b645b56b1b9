/**
 * One writer at a time on a data folder, across processes (docs/search.md "One writer at a time"). Every write that
 * commits or drops a generation, appends to a delta log or writes state.json holds it: a full build from its start to
 * its commit or abort, an incremental write around the whole write. Readers (the serving app's loads and catch-ups)
 * never take it.
 *
 * Two layers: an in-process queue per folder (every engine instance of a process on one folder shares it, so
 * instances queue without polling the file) and `<dir>/write.lock`, a lock directory managed by proper-lockfile
 * (atomic mkdir; the holder touches its mtime every UPDATE_MS; a lock untouched for STALE_MS belongs to a crashed
 * holder and is taken over; a holder that exits normally, or on a signal, removes it on the way out).
 *
 * Lock order: this lock, then the engine's in-process Mutex (a full build holds this one from its start and takes
 * the Mutex for its commit, so an incremental write takes them in the same order; the reverse order deadlocked).
 */
import fs from "node:fs/promises";
import path from "node:path";
import lockfile from "proper-lockfile";
import { SearchEngineError } from "../errors";

/** A lock whose mtime is older than this is a crashed holder's. Longer than the longest synchronous step of a 10x build's commit. */
export const WRITE_LOCK_STALE_MS = 60_000;
/** How often the holder refreshes the lock's mtime (at most half of the stale time: proper-lockfile's rule). */
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
      try {
        return await lockfile.lock(this.dir, {
          lockfilePath: this.file,
          realpath: false,
          stale: WRITE_LOCK_STALE_MS,
          update: UPDATE_MS,
          retries: 0,
          // The default throws from a timer (an uncaught exception). A holder stalled past the stale time has lost
          // the lock to another writer; its own write still completes, and the state.json checks of both writers
          // (engine.ts commitWrite, store.dropGenerations) keep the named generation.
          onCompromised: (e) => console.warn(`search write lock ${this.file} lost: ${e.message}`),
        });
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "ELOCKED") throw e;
        if (Date.now() > deadline) {
          throw new SearchEngineError(`Another process has held the search index's write lock (${this.file}) for over ${Math.round(this.waitMs / 1000)} s`);
        }
        await new Promise((r) => setTimeout(r, pause));
        pause = Math.min(250, pause * 2);
      }
    }
  }
}
