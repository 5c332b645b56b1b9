import fs from "node:fs";
import type pg from "pg";
import { LocalHashEmbedder } from "@/lib/search/embedders/local-hash";
import { LanceDbEngine } from "@/lib/search/lancedb/engine";
import { fullSync } from "@/lib/search/sync";
import { FIXTURE_ROWS } from "../search-conformance/fixture";
import { Browser } from "./http";

/**
 * Rebuild the running test app's search index from the database (after a test changed rows it searches), and wait
 * until the app serves the new generation: it re-reads state.json at most once a second, then one request makes it
 * open the generation.
 */
export async function rebuildAppIndex(pool: pg.Pool, dataDir: string): Promise<void> {
  fs.mkdirSync(dataDir, { recursive: true });
  const embedder = new LocalHashEmbedder();
  const engine = new LanceDbEngine({ dir: dataDir, embedder });
  await fullSync(pool, { engine, embedder });
  await engine.close();
  await new Promise((r) => setTimeout(r, 1100));
  await new Browser().get("/api/search/suggest?q=warmup");
  await new Promise((r) => setTimeout(r, 1500));
}

/** The judgments columns the search-conformance fixture rows fill. */
const FIXTURE_COLUMNS = [
  "id", "title", "case_number", "summary", "court_name", "judges", "keywords", "legal_topics", "cited_legislation",
  "full_text", "jurisdiction", "court_level", "case_type", "decision_type", "decision_date", "publication_date",
  "source_url", "base_num_victims", "base_did_offender_confess", "base_appeal_outcome", "base_case_name",
  "base_extraction_status",
];

/** Remove the search-conformance fixture rows (decision_type "fixture") from the shared test database. */
export async function deleteFixtureRows(pool: pg.Pool): Promise<void> {
  await pool.query("delete from public.judgments where id = any($1::uuid[])", [FIXTURE_ROWS.map((r) => r.id)]);
}

/** Insert the search-conformance fixture rows afresh (a suite scopes its assertions to them, so others' rows never matter). */
export async function insertFixtureRows(pool: pg.Pool): Promise<void> {
  await deleteFixtureRows(pool);
  for (const row of FIXTURE_ROWS) {
    const values = FIXTURE_COLUMNS.map((c) => (c === "judges" ? JSON.stringify(row[c]) : row[c]));
    const placeholders = FIXTURE_COLUMNS.map((_, i) => `$${i + 1}`).join(", ");
    await pool.query(`insert into public.judgments (${FIXTURE_COLUMNS.join(", ")}) values (${placeholders})`, values);
  }
}
