/**
 * One writer at a time on a data folder, across processes (docs/search.md "One writer at a time",
 * lib/search/lancedb/write-lock.ts). Two full syncs into one folder at once (two Playwright workers did this) left
 * state.json naming a generation the other's cleanup had dropped, and every open failed from then on. Here two writer
 * processes (tests/helpers/search-writer.ts) and two engine instances of one process race on one temporary folder; the
 * index must open and answer afterwards, with the generation state.json names on disk.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { LanceDbEngine } from "@/lib/search/lancedb/engine";
import { LocalHashEmbedder } from "@/lib/search/embedders/local-hash";
import { buildIndexBatch } from "@/lib/search/batch";
import { F, FIXTURE_COUNT, FIXTURE_ROWS } from "../search-conformance/fixture";

const embedder = new LocalHashEmbedder();
const dirs: string[] = [];
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), "search-lock-"));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const TSX = path.resolve("node_modules/.bin/tsx");
const WRITER = path.resolve("tests/helpers/search-writer.ts");

interface Writer {
  ready: Promise<void>;
  done: Promise<{ code: number | null; stderr: string }>;
}

function writer(dir: string, mode: "full" | "upsert", rounds: number): Writer {
  const child = spawn(TSX, [WRITER, dir, mode, String(rounds)], { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (b: Buffer) => (stderr += b.toString()));
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (b: Buffer) => {
      if (b.toString().includes("ready")) resolve();
    });
    child.on("exit", () => reject(new Error(`writer exited before it was ready: ${stderr}`)));
  });
  ready.catch(() => undefined);
  const done = new Promise<{ code: number | null; stderr: string }>((resolve) => child.on("exit", (code) => resolve({ code, stderr })));
  return { ready, done };
}

/** Start writers together (each waits for `<dir>/go`), and wait for all to end. */
async function race(dir: string, writers: Writer[]): Promise<Array<{ code: number | null; stderr: string }>> {
  await Promise.all(writers.map((w) => w.ready));
  fs.writeFileSync(path.join(dir, "go"), "");
  return Promise.all(writers.map((w) => w.done));
}

/** The index in `dir` opens in a fresh engine (a fresh process's view), answers, and its tables exist. */
async function expectServes(dir: string): Promise<void> {
  const state = JSON.parse(fs.readFileSync(path.join(dir, "state.json"), "utf8")) as { gen: number };
  for (const t of [`docs_${state.gen}`, `chunks_${state.gen}`]) expect(fs.existsSync(path.join(dir, "lance", `${t}.lance`)), t).toBe(true);
  const reader = new LanceDbEngine({ dir, embedder });
  try {
    expect((await reader.health()).status).not.toBe("down");
    const hits = (await reader.searchDocuments({ q: "kitchen knife", limit: 5, offset: 0 })).hits.map((h) => h.document.id);
    expect(hits).toContain(F.smith);
    expect((await reader.health()).documents).toBeGreaterThanOrEqual(FIXTURE_COUNT);
  } finally {
    await reader.close();
  }
  expect(fs.existsSync(path.join(dir, "write.lock")), "the lock is released").toBe(false);
}

describe("two writers on one data folder", () => {
  it("two processes' full syncs at once leave an index that opens, with state.json's generation on disk", async () => {
    const dir = tmp();
    const results = await race(dir, [writer(dir, "full", 4), writer(dir, "full", 4)]);
    for (const r of results) expect(r, r.stderr).toMatchObject({ code: 0 });
    await expectServes(dir);
  }, 180_000);

  it("a process's incremental writes during another's full syncs", async () => {
    const dir = tmp();
    const results = await race(dir, [writer(dir, "full", 2), writer(dir, "upsert", 6)]);
    for (const r of results) expect(r, r.stderr).toMatchObject({ code: 0 });
    await expectServes(dir);
  }, 180_000);

  it("two engine instances of one process building at once (each its own in-process mutex)", async () => {
    const dir = tmp();
    const corpus = await buildIndexBatch(FIXTURE_ROWS, embedder);
    const build = async (e: LanceDbEngine) => {
      for (let i = 0; i < 3; i++) {
        const session = await e.sync.beginFull();
        await session.add(corpus);
        await session.commit({ suggestions: [] });
      }
    };
    const a = new LanceDbEngine({ dir, embedder });
    const b = new LanceDbEngine({ dir, embedder });
    try {
      await Promise.all([build(a), build(b)]);
    } finally {
      await a.close();
      await b.close();
    }
    await expectServes(dir);
  }, 120_000);

  it("a crashed holder's lock (not refreshed for longer than the stale time) is taken over", async () => {
    const dir = tmp();
    const lock = path.join(dir, "write.lock");
    fs.mkdirSync(lock);
    const old = new Date(Date.now() - 10 * 60_000);
    fs.utimesSync(lock, old, old);
    const e = new LanceDbEngine({ dir, embedder });
    try {
      const t0 = Date.now();
      await e.sync.upsert(await buildIndexBatch(FIXTURE_ROWS, embedder));
      expect(Date.now() - t0).toBeLessThan(30_000);
    } finally {
      await e.close();
    }
    await expectServes(dir);
  }, 60_000);
});
