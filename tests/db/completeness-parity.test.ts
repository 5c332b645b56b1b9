import { afterAll, describe, expect, it } from "vitest";
import { adminPool } from "../helpers/stack";
import {
  COMPLETED_STATUSES,
  EMPTY_MARKERS,
  coverageRatio,
  flattenDotted,
  isCompletedStatus,
  isEmpty,
  isEmptyEnumValue,
} from "@/lib/schema/completeness";

const pool = adminPool();
afterAll(() => pool.end());

/** One table of cases, answered by TypeScript and by the SQL twins. */
const VALUES: unknown[] = [
  null, "", " ", "\t\n", "n/a", "N/A", " na ", "not available", "None", "NULL", "Unknown", "brak", "BRAK DANYCH",
  "nie dotyczy", "Not Applicable", "\u000bnull\t", "nav", "0", "false", "unknown person", "Brak.", "\u00a0", "ﬁ",
  0, 1, -3.5, false, true, [], [null], ["n/a"], {}, { a: null }, { a: {} },
];
const STATUSES: (string | null)[] = [null, "", " ", "completed", "COMPLETED", " Success\n", "partially_completed", "pending", "failed", "complete", "done"];
const OBJECTS: Record<string, unknown>[] = [
  {},
  { a: 1 },
  { a: { b: { c: "x" } }, d: [] },
  { a: {}, b: { c: {}, d: { e: null } } },
  { "x.y": 1, x: { y: 2, z: [1, { q: 1 }] } },
];
const RATIOS: [number, number][] = [[0, 0], [5, 0], [0, 7], [1, 3], [2, 3], [1, 20000], [3, 80000], [7, 7], [12306, 12307], [999_999, 1_000_000]];

describe("completeness: TypeScript and SQL agree", () => {
  it("constants", async () => {
    const { rows } = await pool.query<{ s: string[]; m: string[] }>("select public.completed_statuses() s, public.empty_markers() m");
    expect(rows[0].s).toEqual([...COMPLETED_STATUSES]);
    expect(rows[0].m).toEqual([...EMPTY_MARKERS]);
  });

  it("is_empty(jsonb) on every case", async () => {
    for (const v of VALUES) {
      const { rows } = await pool.query<{ e: boolean }>("select public.is_empty($1::jsonb) as e", [v === null ? null : JSON.stringify(v)]);
      expect([v, rows[0].e]).toEqual([v, isEmpty(v)]);
    }
    const { rows } = await pool.query<{ e: boolean }>("select public.is_empty('null'::jsonb) as e");
    expect(rows[0].e).toBe(true);
  });

  it("is_completed_status and is_empty_enum_value", async () => {
    for (const s of STATUSES) {
      const { rows } = await pool.query<{ c: boolean; e: boolean }>(
        "select public.is_completed_status($1) as c, public.is_empty_enum_value($1) as e",
        [s],
      );
      expect([s, rows[0].c, rows[0].e]).toEqual([s, isCompletedStatus(s), isEmptyEnumValue(s)]);
    }
  });

  it("flatten_dotted", async () => {
    for (const o of OBJECTS) {
      const { rows } = await pool.query<{ f: Record<string, unknown> }>("select public.flatten_dotted($1::jsonb) as f", [JSON.stringify(o)]);
      expect(rows[0].f).toEqual(flattenDotted(o));
    }
  });

  it("coverage_ratio", async () => {
    for (const [c, t] of RATIOS) {
      const { rows } = await pool.query<{ r: string | null }>("select public.coverage_ratio($1, $2) as r", [c, t]);
      expect([c, t, rows[0].r === null ? null : Number(rows[0].r)]).toEqual([c, t, coverageRatio(c, t)]);
    }
  });
});
