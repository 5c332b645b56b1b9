/**
 * L10 / reliability row 29: a live LanceDB generation that cannot be opened at start (files corrupted by a
 * crash or a disk fault). Before the fix `ensureSearchIndex` threw and the launcher exited; now it sets the corrupt
 * files aside, warns, and rebuilds the index from Postgres, which then serves the same documents as before.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LanceDbEngine } from "@/lib/search/lancedb/engine";
import { LocalHashEmbedder } from "@/lib/search/embedders/local-hash";
import { ensureSearchIndex, fullSync, incrementalSync } from "@/lib/search/sync";
import type { SearchEngine } from "@/lib/search/types";
import { adminPool, stackEnv } from "../helpers/stack";

const QUERIES = ["zabójstwo", "murder appeal", "kradzież", "sentence"];

describe("search index recovery at start", () => {
  let pool: pg.Pool;
  let dir: string;
  const engines: SearchEngine[] = [];
  const embedder = new LocalHashEmbedder();
  const open = () => {
    const e = new LanceDbEngine({ dir, embedder });
    engines.push(e);
    return e;
  };
  const answers = async (e: SearchEngine) =>
    Promise.all(QUERIES.map(async (q) => (await e.searchDocuments({ q, limit: 10, offset: 0 })).hits.map((h) => h.document.id)));

  beforeAll(() => {
    pool = adminPool();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "search-recovery-"));
  });

  afterAll(async () => {
    for (const e of engines) await e.close();
    await pool.end();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("rebuilds a live generation whose tables cannot be opened, and serves the same documents", async () => {
    const judgments = Number((await pool.query<{ n: string }>("select count(*) as n from public.judgments")).rows[0].n);
    expect(judgments).toBeGreaterThan(0);
    const first = open();
    await fullSync(pool, { engine: first, embedder });
    const before = await answers(first);
    expect(before.every((ids) => ids.length > 0)).toBe(true);
    await first.close();

    // A crash tore the live generation's LanceDB manifests: every file under the tables' _versions is garbage.
    const state = JSON.parse(fs.readFileSync(path.join(dir, "state.json"), "utf8")) as { gen: number };
    for (const table of [`docs_${state.gen}.lance`, `chunks_${state.gen}.lance`]) {
      const versions = path.join(dir, "lance", table, "_versions");
      for (const f of fs.readdirSync(versions)) fs.writeFileSync(path.join(versions, f), "not a manifest");
    }
    const broken = open();
    expect((await broken.health()).status).toBe("down");

    const warnings: string[] = [];
    const r = await ensureSearchIndex(stackEnv().databaseUrl, { engine: broken, embedder, warn: (m) => warnings.push(m) });
    expect(r.built).toBe(true);
    expect(r.result?.documents).toBe(judgments);
    expect(r.recovered?.movedTo).toMatch(new RegExp(`corrupt-${state.gen}-\\d+$`));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("rebuilt from Postgres");
    // The corrupt files are kept aside for a post-mortem, out of the live store.
    expect(fs.existsSync(path.join(r.recovered?.movedTo ?? "", `docs_${state.gen}.lance`))).toBe(true);
    expect(fs.existsSync(path.join(dir, "lance", `docs_${state.gen}.lance`))).toBe(false);

    expect((await broken.health()).status).toBe("ok");
    expect((await broken.health()).documents).toBe(judgments);
    expect(await answers(broken)).toEqual(before);
    // A fresh process opens the rebuilt generation, and ensureSearchIndex has nothing more to do.
    const next = open();
    expect(await answers(next)).toEqual(before);
    expect((await ensureSearchIndex(stackEnv().databaseUrl, { engine: next, embedder })).built).toBe(false);
    // Two full builds of the fixture index: ~10 s on a quiet machine, past the 30 s default on a loaded 2-core one.
  }, 120_000);
});

describe("incremental sync and a long transaction (L10 watermark)", () => {
  let pool: pg.Pool;
  let dir: string;
  let engine: LanceDbEngine;
  const embedder = new LocalHashEmbedder();
  const ids = async (q: string) => (await engine.searchDocuments({ q, limit: 10, offset: 0 })).hits.map((h) => h.document.id);

  beforeAll(async () => {
    pool = adminPool();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "search-recovery-late-"));
    engine = new LanceDbEngine({ dir, embedder });
    await fullSync(pool, { engine, embedder });
  });

  afterAll(async () => {
    await engine.close();
    await pool.end();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("indexes a row whose transaction began before the last run's watermark and committed after it", async () => {
    const picked = await pool.query<{ id: string; title: string }>(
      "select id, title from public.judgments order by id limit 2",
    );
    const [slow, fast] = picked.rows;
    const tx = await pool.connect();
    try {
      // The long transaction: updated_at = now() is its start time.
      await tx.query("begin");
      await tx.query("update public.judgments set title = 'Wyrok w sprawie zaginionego okapi' where id = $1", [slow.id]);
      await new Promise((r) => setTimeout(r, 50));
      // Meanwhile another write commits, and a sync run moves the watermark past the long transaction's start.
      await pool.query("update public.judgments set title = 'Wyrok w sprawie skradzionego tapira' where id = $1", [fast.id]);
      const first = await incrementalSync(pool, { engine, embedder });
      expect(first.documents).toBe(1);
      expect(await ids("tapira")).toEqual([fast.id]);
      await tx.query("commit");
    } finally {
      tx.release();
    }
    // Before the fix this run read only rows after the watermark and never saw the late commit.
    const second = await incrementalSync(pool, { engine, embedder });
    expect(second.documents).toBe(1);
    expect(await ids("okapi")).toEqual([slow.id]);
    // Nothing late any more: the next run re-checks the window and writes nothing.
    expect((await incrementalSync(pool, { engine, embedder })).documents).toBe(0);
    await pool.query("update public.judgments set title = $2 where id = $1", [slow.id, slow.title]);
    await pool.query("update public.judgments set title = $2 where id = $1", [fast.id, fast.title]);
  });
});
