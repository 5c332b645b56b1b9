/**
 * The Meilisearch client of the adapter: the three index uids per configured name, the task API (every write is
 * waited for and anything but `succeeded` is an error), and index lookups shared by search and index lifecycle.
 */
import { Meilisearch, type EnqueuedTaskPromise, type Index, type Task } from "meilisearch";
import type { MeiliConfig } from "./config";
import { mapMeiliError, meiliErrorCode, taskFailed } from "./errors";

export type Raw = Record<string, unknown>;

export interface IndexUids {
  documents: string;
  chunks: string;
  suggestions: string;
}

export function indexUids(name: string): IndexUids {
  return { documents: name, chunks: `${name}_chunks`, suggestions: `${name}_suggestions` };
}

export const elapsed = (t0: number) => Math.round((performance.now() - t0) * 100) / 100;

export class MeiliConnection {
  readonly client: Meilisearch;
  readonly uids: IndexUids;

  constructor(readonly cfg: MeiliConfig) {
    this.uids = indexUids(cfg.index);
    this.client = new Meilisearch({
      host: cfg.host,
      apiKey: cfg.apiKey,
      timeout: cfg.timeoutMs,
      defaultWaitOptions: { timeout: cfg.taskTimeoutMs, interval: cfg.taskPollMs },
    });
  }

  /** Wait for an enqueued task through the task API; anything but `succeeded` is an error. */
  async run(what: string, enqueued: EnqueuedTaskPromise): Promise<Task> {
    let task: Task;
    try {
      task = await enqueued.waitTask({ timeout: this.cfg.taskTimeoutMs, interval: this.cfg.taskPollMs });
    } catch (e) {
      throw mapMeiliError(e, what);
    }
    if (task.status !== "succeeded") throw taskFailed(what, task);
    return task;
  }

  index(uid: string): Index<Raw> {
    return this.client.index<Raw>(uid);
  }

  async indexExists(uid: string): Promise<boolean> {
    try {
      await this.index(uid).getRawInfo();
      return true;
    } catch (e) {
      if (meiliErrorCode(e) === "index_not_found") return false;
      throw mapMeiliError(e, `reading index ${uid}`);
    }
  }

  async createIndex(uid: string): Promise<void> {
    await this.run(`create index ${uid}`, this.client.createIndex(uid, { primaryKey: "id" }));
  }

  async documentCount(uid: string): Promise<number> {
    try {
      return (await this.index(uid).getStats()).numberOfDocuments;
    } catch (e) {
      if (meiliErrorCode(e) === "index_not_found") return 0;
      throw e;
    }
  }
}
