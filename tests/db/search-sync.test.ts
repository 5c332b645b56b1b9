import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LanceDbEngine } from "@/lib/search/lancedb/engine";
import { LocalHashEmbedder } from "@/lib/search/embedders/local-hash";
import { fullSync, incrementalSync, recentSyncRuns } from "@/lib/search/sync";
import type { SearchEngine } from "@/lib/search/types";
import { adminPool } from "../helpers/stack";
import { F, FIXTURE_ROWS } from "../search-conformance/fixture";

const COLUMNS = [
  "id",
  "title",
  "case_number",
  "summary",
  "court_name",
  "judges",
  "keywords",
  "legal_topics",
  "cited_legislation",
  "full_text",
  "jurisdiction",
  "court_level",
  "case_type",
  "decision_type",
  "decision_date",
  "publication_date",
  "source_url",
  "base_num_victims",
  "base_did_offender_confess",
  "base_appeal_outcome",
  "base_case_name",
  "base_extraction_status",
];

async function insertFixture(pool: pg.Pool): Promise<void> {
  for (const row of FIXTURE_ROWS) {
    const values = COLUMNS.map((c) => (c === "judges" ? JSON.stringify(row[c]) : row[c]));
    const params = COLUMNS.map((_, i) => `$${i + 1}`).join(", ");
    await pool.query(
      `insert into public.judgments (${COLUMNS.join(", ")}) values (${params}) on conflict (id) do nothing`,
      values,
    );
  }
}

describe("search sync from Postgres", () => {
  let pool: pg.Pool;
  let engine: LanceDbEngine;
  let dir: string;
  const embedder = new LocalHashEmbedder();
  const ids = async (q: string) => (await engine.searchDocuments({ q, limit: 20, offset: 0 })).hits.map((h) => h.document.id);

  beforeAll(async () => {
    pool = adminPool();
    await pool.query("delete from public.judgments where id = any($1::uuid[])", [FIXTURE_ROWS.map((r) => r.id)]);
    await pool.query("delete from public.search_sync_runs");
    await insertFixture(pool);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "search-sync-"));
    engine = new LanceDbEngine({ dir, embedder });
  });

  afterAll(async () => {
    await engine?.close();
    await pool.query("delete from public.judgments where id = any($1::uuid[])", [FIXTURE_ROWS.map((r) => r.id)]);
    await pool.end();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("a full sync indexes every judgment and records the run", async () => {
    const progress: number[] = [];
    const total = Number((await pool.query("select count(*) as n from public.judgments")).rows[0].n);
    const r = await fullSync(pool, { engine, embedder, batchSize: 7, onProgress: (p) => progress.push(p.done) });
    expect(r.kind).toBe("full");
    expect(r.documents).toBe(total);
    expect(progress[0]).toBe(0);
    expect(progress[progress.length - 1]).toBe(total);
    expect((await engine.health()).documents).toBe(total);
    expect(await ids("kitchen knife")).toContain(F.smith);
    const [run] = await recentSyncRuns(pool, 1);
    expect(run).toMatchObject({ kind: "full", engine: "lancedb", error: null, documents: total });
    expect(run.completed_at).not.toBeNull();
    // Dates from Postgres arrive as the ISO date with its epoch twin.
    const [doc] = await engine.getDocuments([F.smith]);
    expect(doc.decision_date).toBe("2019-05-10");
    expect(doc.judges_flat).toBe("Lord Justice Holroyde");
  });

  it("an incremental sync picks up updates and deletions only", async () => {
    await pool.query("update public.judgments set title = 'R v Brown: domestic burglary and a marmoset' where id = $1", [
      F.brown,
    ]);
    await pool.query("delete from public.judgments where id = $1", [F.gray]);
    const r = await incrementalSync(pool, { engine, embedder });
    expect(r.kind).toBe("incremental");
    expect(r.documents).toBe(1);
    expect(r.deleted).toBe(1);
    expect(await ids("marmoset")).toEqual([F.brown]);
    expect(await ids("arson")).not.toContain(F.gray);
    const again = await incrementalSync(pool, { engine, embedder });
    expect(again).toMatchObject({ documents: 0, deleted: 0 });
    const runs = await recentSyncRuns(pool, 3);
    expect(runs.map((x) => x.kind)).toEqual(["incremental", "incremental", "full"]);
  });

  it("records a failed run with its error and leaves the index as it was", async () => {
    const broken: SearchEngine = Object.create(engine) as SearchEngine;
    Object.defineProperty(broken, "sync", {
      value: {
        ...engine.sync,
        beginFull: async () => {
          throw new Error("disk full");
        },
      },
    });
    await expect(fullSync(pool, { engine: broken, embedder })).rejects.toThrow("disk full");
    const [run] = await recentSyncRuns(pool, 1);
    expect(run.error).toBe("disk full");
    expect(run.completed_at).not.toBeNull();
    expect(await ids("marmoset")).toEqual([F.brown]);
  });

  it("keeps the sync tables away from anon and authenticated", async () => {
    const r = await pool.query<{ role: string; can: boolean }>(
      `select r as role, has_table_privilege(r, 'public.search_sync_runs', 'select') as can
         from unnest(array['anon', 'authenticated', 'service_role']) r`,
    );
    expect(Object.fromEntries(r.rows.map((x) => [x.role, x.can]))).toEqual({
      anon: false,
      authenticated: false,
      service_role: true,
    });
  });
});
