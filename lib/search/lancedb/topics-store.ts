/**
 * The embedded engine's topics index: one JSON file, `topics.json`, beside the generations in the search
 * data folder. It is replaced whole (written aside, then renamed, so a reader never sees half a file) by whichever
 * process rebuilds it (the worker's scheduled job, or the app after a run), and every process re-reads it when its
 * modification time changes, so the app serves a rebuild made elsewhere on its next read.
 */
import { promises as fs, statSync } from "node:fs";
import path from "node:path";
import type { TopicsIndex, TopicsPort } from "../types";

const FILE = "topics.json";

export class TopicsFileStore implements TopicsPort {
  private cached: { mtimeMs: number; size: number; index: TopicsIndex | null } | null = null;

  constructor(private readonly dir: string) {}

  private get file(): string {
    return path.join(this.dir, FILE);
  }

  async replace(index: TopicsIndex | null): Promise<void> {
    await fs.mkdir(this.dir, { recursive: true });
    if (index === null) {
      await fs.rm(this.file, { force: true });
      this.cached = null;
      return;
    }
    const tmp = `${this.file}.tmp-${process.pid}-${Date.now()}`;
    await fs.writeFile(tmp, JSON.stringify(index));
    await fs.rename(tmp, this.file);
    this.cached = null;
  }

  async read(): Promise<TopicsIndex | null> {
    // A synchronous stat (a few microseconds): autocomplete reads the topics on every call, and an asynchronous one
    // waits for a libuv pool thread, which put milliseconds into autocomplete's tail.
    const stat = statSync(this.file, { throwIfNoEntry: false });
    if (!stat) {
      this.cached = null;
      return null;
    }
    if (this.cached && this.cached.mtimeMs === stat.mtimeMs && this.cached.size === stat.size) return this.cached.index;
    let index: TopicsIndex | null;
    try {
      index = JSON.parse(await fs.readFile(this.file, "utf8")) as TopicsIndex;
    } catch {
      // Replaced between stat and read (rename is atomic): the next read sees the new file.
      return this.cached?.index ?? null;
    }
    this.cached = { mtimeMs: stat.mtimeMs, size: stat.size, index };
    return index;
  }
}
