/**
 * ONE structured-filter pipeline. Random valid filter objects select the same judgment ids through
 * the search-engine path (GET /api/search/documents?filters= → searchFilter → the LanceDB engine, built by a real sync
 * from this database) and through list_extracted_filter_matches (the SQL path of the structured routes); and a random
 * filter object is refused by the search path's parser exactly when the SQL function refuses it, naming the same key.
 * Real Postgres, real engine; fast-check with fixed seeds.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "@/lib/errors";
import { searchFilter } from "@/lib/backend/search";
import { LocalHashEmbedder } from "@/lib/search/embedders/local-hash";
import { filterFieldSpecs } from "@/lib/schema/filter-fields";
import { validateFilters } from "@/lib/schema/filters";
import { indexAttributeOfKey } from "@/lib/search/filter";
import { LanceDbEngine } from "@/lib/search/lancedb/engine";
import { fullSync } from "@/lib/search/sync";
import { asRole, userClaims } from "../helpers/as-role";
import { adminPool } from "../helpers/stack";
import { filtersArb as filtersArb_ } from "./structured-arbitraries";
import { loadCompletedRows, type Row } from "./structured-eval";

const pool = adminPool();
const USER = userClaims("5a1e0000-0000-4000-8000-00000000e9a1");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "engine-parity-"));
const embedder = new LocalHashEmbedder();
const engine = new LanceDbEngine({ dir, embedder });
let rows: Row[] = [];

beforeAll(async () => {
  rows = await loadCompletedRows(pool);
  await fullSync(pool, { engine, embedder });
}, 300_000);

afterAll(async () => {
  await engine.close();
  fs.rmSync(dir, { recursive: true, force: true });
  await pool.end();
});

type Filters = Record<string, unknown>;

async function sqlIds(filters: unknown): Promise<string[]> {
  return asRole(pool, "authenticated", USER, async (c) =>
    (
      await c.query<{ id: string }>("select id::text from public.list_extracted_filter_matches($1::jsonb, null) order by id", [
        JSON.stringify(filters),
      ])
    ).rows.map((r) => r.id),
  );
}

/** The SQL function's verdict on a filter: "ok" or the key its SF001 names. */
async function sqlVerdict(filters: unknown): Promise<string> {
  try {
    await sqlIds(filters);
    return "ok";
  } catch (e) {
    const err = e as { code?: string; detail?: string };
    if (err.code !== "SF001") throw e;
    return err.detail ?? "?";
  }
}

/** Every id the engine returns for the search path's filter, q="" (the SQL side only ever sees completed rows). */
async function engineIds(filters: Filters): Promise<string[]> {
  const filter = searchFilter("base_extraction_status = completed", JSON.stringify(filters));
  const out: string[] = [];
  for (let offset = 0; ; offset += 100) {
    const r = await engine.searchDocuments({ q: "", filter, limit: 100, offset });
    out.push(...r.hits.map((h) => h.document.id));
    if (r.hits.length < 100) break;
  }
  return out.sort();
}

// Keys the search index can filter on (court_name, the substring keys and collection_ids are refused there by design).
const SPECS = filterFieldSpecs().filter(
  (s) => s.filterable && s.control !== "substring" && s.control !== "uuid_membership" && indexAttributeOfKey(s) !== undefined,
);

/**
 * Observed strings whose lower-case form is unique: the engine compares text case-insensitively (Meilisearch facet
 * semantics) and the SQL exactly, so two values differing only in case would be a known, documented difference.
 */
function caseUnambiguous(values: string[]): string[] {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v.toLowerCase(), (counts.get(v.toLowerCase()) ?? 0) + 1);
  return values.filter((v) => counts.get(v.toLowerCase()) === 1);
}

/** Random valid filters over the keys the engine indexes, up to three keys each, case-unambiguous strings only. */
const filtersArb = () => filtersArb_(rows, { specs: SPECS, maxKeys: 3, strings: caseUnambiguous });

describe("the search-engine path and list_extracted_filter_matches agree", () => {
  it("the engine holds the database's completed judgments", async () => {
    expect(rows.length).toBeGreaterThan(100);
    expect(await engineIds({})).toEqual(await sqlIds({}));
  });

  it("random valid filters select the same judgment ids on both paths (fast-check)", { timeout: 300_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(filtersArb(), async (filters) => {
        expect(await engineIds(filters)).toEqual(await sqlIds(filters));
      }),
      { numRuns: 120, seed: 13, endOnFailure: true },
    );
  });

  it("a filter object is refused on the search path exactly when the SQL refuses it, naming the same key", { timeout: 300_000 }, async () => {
    const keys = SPECS.map((s) => s.key);
    // A valid filter with one key's value replaced by an arbitrary JSON value (or an unknown key added).
    const mutated = fc.tuple(filtersArb(), fc.constantFrom(...keys, "no_such_key"), fc.jsonValue({ maxDepth: 2 })).map(([f, k, v]) => ({ ...f, [k]: v }));
    await fc.assert(
      fc.asyncProperty(mutated, async (filters) => {
        const sql = await sqlVerdict(filters);
        const parsed = validateFilters(filters);
        expect(parsed.ok ? "ok" : parsed.issue.field).toBe(sql);
        if (sql === "ok") return;
        let err: unknown;
        try {
          searchFilter(undefined, JSON.stringify(filters));
        } catch (e) {
          err = e;
        }
        expect(err).toBeInstanceOf(ApiError);
        expect(err).toMatchObject({ status: 422, code: "FILTER_INVALID", extra: { field: sql } });
      }),
      { numRuns: 200, seed: 17, endOnFailure: true },
    );
  });
});
