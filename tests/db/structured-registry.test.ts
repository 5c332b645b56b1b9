import { afterAll, describe, expect, it } from "vitest";
import { filterFieldSpecs } from "@/lib/schema/filter-fields";
import { adminPool } from "../helpers/stack";

const pool = adminPool();
afterAll(() => pool.end());

interface SqlRow {
  key: string;
  column_name: string;
  db_type: string;
  control: string;
  enum_values: string[] | null;
  value_pattern: string | null;
  filterable: boolean;
  aggregable: boolean;
  default_aggregate_position: number | null;
}

describe("structured.filter_fields, the SQL copy of the field registry", () => {
  it("equals the TypeScript registry row for row (regenerate with server/cli/gen-filter-fields-sql.ts)", async () => {
    const { rows } = await pool.query<SqlRow>("select * from structured.filter_fields order by key");
    const expected = filterFieldSpecs()
      .map((s) => ({
        key: s.key,
        column_name: s.column,
        db_type: s.dbType,
        control: s.control,
        enum_values: s.enumValues,
        value_pattern: s.valuePattern,
        filterable: s.filterable,
        aggregable: s.aggregable,
        default_aggregate_position: s.defaultAggregatePosition,
      }))
      .sort((a, b) => (a.key < b.key ? -1 : 1));
    expect(rows).toEqual(expected);
  });

  it("every column it names exists on public.judgments with the type it states", async () => {
    const { rows } = await pool.query<{ column_name: string; t: string }>(
      `select a.attname as column_name, format_type(a.atttypid, a.atttypmod) as t
       from pg_attribute a where a.attrelid = 'public.judgments'::regclass and a.attnum > 0 and not a.attisdropped`,
    );
    const types = new Map(rows.map((r) => [r.column_name, r.t.replace("timestamp with time zone", "timestamptz")]));
    for (const s of filterFieldSpecs()) expect([s.key, types.get(s.column)]).toEqual([s.key, s.dbType]);
  });

  it("the default aggregate set is the spec's seven fields, all aggregable", () => {
    const defaults = filterFieldSpecs()
      .filter((s) => s.defaultAggregatePosition !== null)
      .sort((a, b) => a.defaultAggregatePosition! - b.defaultAggregatePosition!);
    expect(defaults.map((s) => s.key)).toEqual([
      "offender_gender",
      "convict_offences",
      "sentences_received",
      "appeal_outcome",
      "did_offender_confess",
      "court_name",
      "decision_date",
    ]);
    expect(defaults.every((s) => s.aggregable)).toBe(true);
  });
});
