/**
 * lib/analysis/sample.ts must pick exactly the rows aggregate_extracted_data samples ("sampling is the same
 * deterministic seeded sampling the aggregate uses"): the distribution the database computes over its sample equals
 * the one counted over the TypeScript sample of the same cohort (completed rows, no filter: D-29).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seededSample } from "@/lib/analysis/sample";
import { asRole, userClaims } from "../helpers/as-role";
import { adminPool } from "../helpers/stack";

const pool = adminPool();
afterAll(() => pool.end());

const USER = userClaims("5a1e0000-0000-4000-8000-0000000a6616");

interface Row {
  id: string;
  court_name: string | null;
}
interface Categorical {
  values: { value: string; count: number }[];
  other: number;
  null: number;
}

let rows: Row[] = [];
beforeAll(async () => {
  rows = (await pool.query<Row>("select id::text, court_name from public.judgments where base_extraction_status = 'completed'")).rows;
});

async function sqlCourts(sampleSize: number, seed: number): Promise<{ sample_n: number; courts: Record<string, number> }> {
  const r = await asRole(pool, "authenticated", USER, async (c) =>
    (
      await c.query<{ r: { sample_n: number; fields: { court_name: Categorical } } }>(
        `select public.aggregate_extracted_data(p_filters => '{}'::jsonb, p_text_query => null,
           p_fields => array['court_name'], p_sample_size => $1, p_seed => $2, p_top_n => 100) as r`,
        [sampleSize, seed],
      )
    ).rows[0].r,
  );
  const dist = r.fields.court_name;
  expect(dist.other).toBe(0);
  const courts: Record<string, number> = {};
  for (const v of dist.values) courts[v.value] = v.count;
  if (dist.null > 0) courts["(null)"] = dist.null;
  return { sample_n: r.sample_n, courts };
}

function tsCourts(sampleSize: number, seed: number): Record<string, number> {
  const courts: Record<string, number> = {};
  for (const row of seededSample(rows, sampleSize, seed)) {
    const k = row.court_name ?? "(null)";
    courts[k] = (courts[k] ?? 0) + 1;
  }
  return courts;
}

describe("seededSample = the aggregate's sample", () => {
  it.each([
    [37, 12345],
    [200, 42],
    [25, -2147483648],
  ])("sample %i with seed %i", async (size, seed) => {
    expect(rows.length).toBeGreaterThan(size);
    const sql = await sqlCourts(size, seed);
    expect(sql.sample_n).toBe(size);
    expect(tsCourts(size, seed)).toEqual(sql.courts);
    // The comparison can tell samples apart: another seed's sample has another distribution.
    expect(tsCourts(size, seed + 1)).not.toEqual(sql.courts);
  });
});
