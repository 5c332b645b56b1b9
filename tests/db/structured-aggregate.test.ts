import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aggregateKind, filterFieldSpec, filterFieldSpecs } from "@/lib/schema/filter-fields";
import { DEFAULT_AGGREGATE_FIELDS } from "@/lib/schema";
import { asRole, userClaims } from "../helpers/as-role";
import { adminPool } from "../helpers/stack";
import { evaluate, loadCompletedRows, type Row } from "./structured-eval";

const pool = adminPool();
afterAll(() => pool.end());

const USER = userClaims("5a1e0000-0000-4000-8000-0000000a6601");

let rows: Row[] = [];
beforeAll(async () => {
  rows = await loadCompletedRows(pool);
});

interface Categorical {
  kind: "categorical";
  multi: boolean;
  values: { value: string | boolean; count: number }[];
  other: number;
  null: number;
  covered: number;
}
interface NumericDist {
  kind: "numeric";
  buckets: { lo: number; hi: number; count: number }[];
  min: number | null;
  max: number | null;
  null: number;
  covered: number;
}
interface YearDist {
  kind: "year";
  values: { value: string; count: number }[];
  null: number;
  covered: number;
}
type Dist = Categorical | NumericDist | YearDist;
interface Aggregate {
  total: number;
  sample_n: number;
  seed: number | null;
  fields: Record<string, Dist>;
}

interface Args {
  filters?: unknown;
  text_query?: string | null;
  fields?: (string | null)[] | null;
  sample_size?: number | null;
  seed?: number | null;
  top_n?: number | null;
}

async function aggregate(args: Args = {}, before?: (c: import("pg").PoolClient) => Promise<void>): Promise<Aggregate> {
  return asRole(
    pool,
    "authenticated",
    USER,
    async (c) =>
      (
        await c.query<{ r: Aggregate }>(
          `select public.aggregate_extracted_data(
             p_filters => coalesce($1::jsonb, '{}'::jsonb), p_text_query => $2, p_fields => $3::text[],
             p_sample_size => $4, p_seed => $5, p_top_n => coalesce($6, 20)) as r`,
          [
            args.filters === undefined ? null : JSON.stringify(args.filters),
            args.text_query ?? null,
            args.fields ?? null,
            args.sample_size ?? null,
            args.seed ?? null,
            args.top_n ?? null,
          ],
        )
      ).rows[0].r,
    { rollback: true, before },
  );
}

async function aggregateError(args: Args): Promise<{ code: string; detail?: string; message: string }> {
  try {
    await aggregate(args);
  } catch (e) {
    const err = e as { code: string; detail?: string; message: string };
    return { code: err.code, detail: err.detail, message: err.message };
  }
  throw new Error("expected aggregate_extracted_data to raise");
}

// --- An independent computation of the distributions the spec describes, over the rows loaded from the table. ---

function expectedCategorical(cohort: Row[], column: string, multi: boolean, topN: number): Categorical {
  const counts = new Map<string, { value: string | boolean; count: number }>();
  let nulls = 0;
  for (const r of cohort) {
    const cell = r[column];
    const values: (string | boolean)[] = multi
      ? [...new Set(((cell as string[] | null) ?? []).filter((e) => e !== null && e !== ""))]
      : cell === null || cell === undefined || cell === ""
        ? []
        : [cell as string | boolean];
    if (values.length === 0) nulls++;
    for (const v of values) {
      const k = String(v);
      counts.set(k, { value: v, count: (counts.get(k)?.count ?? 0) + 1 });
    }
  }
  const sorted = [...counts.entries()]
    .sort(([ka, a], [kb, b]) => b.count - a.count || (ka < kb ? -1 : ka > kb ? 1 : 0))
    .map(([, v]) => v);
  return {
    kind: "categorical",
    multi,
    values: sorted.slice(0, topN),
    other: sorted.slice(topN).reduce((s, v) => s + v.count, 0),
    null: nulls,
    covered: cohort.length - nulls,
  };
}

function expectedYear(cohort: Row[], column: string): YearDist {
  const counts = new Map<string, number>();
  let nulls = 0;
  for (const r of cohort) {
    const d = r[column] as string | null;
    if (!d) nulls++;
    else counts.set(d.slice(0, 4), (counts.get(d.slice(0, 4)) ?? 0) + 1);
  }
  return {
    kind: "year",
    values: [...counts.entries()].sort(([a], [b]) => Number(a) - Number(b)).map(([value, count]) => ({ value, count })),
    null: nulls,
    covered: cohort.length - nulls,
  };
}

function expectedIntegerBuckets(cohort: Row[], column: string): NumericDist {
  const vals = cohort.map((r) => r[column]).filter((v): v is number => v !== null && v !== undefined).map(Number);
  if (vals.length === 0) return { kind: "numeric", buckets: [], min: null, max: null, null: cohort.length, covered: 0 };
  const mn = Math.min(...vals);
  const mx = Math.max(...vals);
  const w = Math.ceil((mx - mn + 1) / 20);
  const nb = Math.ceil((mx - mn + 1) / w);
  const buckets = Array.from({ length: nb }, (_, k) => ({ lo: mn + k * w, hi: mn + (k + 1) * w, count: 0 }));
  for (const v of vals) buckets[Math.floor((v - mn) / w)].count++;
  return { kind: "numeric", buckets, min: mn, max: mx, null: cohort.length - vals.length, covered: vals.length };
}

describe("aggregate_extracted_data over the whole cohort", () => {
  it("defaults to the 7 spec fields and matches an independent count of every distribution", async () => {
    const got = await aggregate();
    expect(got.total).toBe(rows.length);
    expect(got.sample_n).toBe(rows.length);
    expect(got.seed).toBeNull();
    expect(Object.keys(got.fields).sort()).toEqual([...DEFAULT_AGGREGATE_FIELDS].sort());
    for (const key of DEFAULT_AGGREGATE_FIELDS) {
      const spec = filterFieldSpec(key)!;
      const kind = aggregateKind(spec.dbType);
      const expected =
        kind === "year" ? expectedYear(rows, spec.column) : expectedCategorical(rows, spec.column, spec.dbType === "text[]", 20);
      expect([key, got.fields[key]]).toEqual([key, expected]);
    }
  });

  it("every aggregable field of the registry aggregates, with the kind its column type gives", async () => {
    const keys = filterFieldSpecs()
      .filter((s) => s.aggregable)
      .map((s) => s.key);
    // More aggregable fields than one request may name (50): ask in requests of at most 50.
    const got: Aggregate = await aggregate({ fields: keys.slice(0, 50), top_n: 5 });
    for (let i = 50; i < keys.length; i += 50) Object.assign(got.fields, (await aggregate({ fields: keys.slice(i, i + 50), top_n: 5 })).fields);
    expect(Object.keys(got.fields).sort()).toEqual([...keys].sort());
    for (const key of keys) {
      const spec = filterFieldSpec(key)!;
      const dist = got.fields[key];
      expect([key, dist.kind]).toEqual([key, aggregateKind(spec.dbType)]);
      expect([key, dist.null + dist.covered]).toEqual([key, rows.length]);
      if (dist.kind === "categorical") {
        expect(dist).toEqual(expectedCategorical(rows, spec.column, spec.dbType === "text[]", 5));
      } else if (dist.kind === "year") {
        expect(dist).toEqual(expectedYear(rows, spec.column));
      } else if (spec.dbType === "integer") {
        expect([key, dist]).toEqual([key, expectedIntegerBuckets(rows, spec.column)]);
      } else {
        // numeric (decimal) columns: 20 equal-width buckets from min to max (1 when min = max), contiguous.
        const vals = rows.map((r) => r[spec.column]).filter((v) => v !== null && v !== undefined).map(Number);
        if (vals.length === 0) {
          expect(dist.buckets).toEqual([]);
          continue;
        }
        expect(dist.min).toBe(Math.min(...vals));
        expect(dist.max).toBe(Math.max(...vals));
        expect(dist.buckets.length).toBe(dist.min === dist.max ? 1 : 20);
        expect(dist.buckets[0].lo).toBe(dist.min);
        expect(dist.buckets.at(-1)!.hi).toBe(dist.max);
        expect(dist.buckets.reduce((s, b) => s + b.count, 0)).toBe(vals.length);
        for (let i = 1; i < dist.buckets.length; i++) expect(dist.buckets[i].lo).toBeCloseTo(dist.buckets[i - 1].hi, 9);
      }
    }
  });

  it("top_n limits the values and counts the rest under other", async () => {
    const got = (await aggregate({ fields: ["court_name"], top_n: 1 })).fields.court_name as Categorical;
    const full = expectedCategorical(rows, "court_name", false, 1000);
    expect(got.values).toEqual(full.values.slice(0, 1));
    expect(got.other).toBe(full.values.slice(1).reduce((s, v) => s + v.count, 0));
  });

  it("counts the cohort of the filter and text query", async () => {
    const filters = { jurisdiction: ["PL"], did_offender_confess: true };
    const got = await aggregate({ filters, fields: ["offender_gender", "decision_date"] });
    const cohort = evaluate(rows, filters);
    expect(got.total).toBe(cohort.length);
    expect(got.fields.offender_gender).toEqual(expectedCategorical(cohort, "base_offender_gender", true, 20));
    expect(got.fields.decision_date).toEqual(expectedYear(cohort, "decision_date"));
  });
});

describe("the aggregate cohort is the cohort of list_extracted_filter_matches", () => {
  it("same total for random combinations of filters and text queries (fast-check)", async () => {
    const clauses: Record<string, unknown>[] = [
      { jurisdiction: ["PL"] },
      { jurisdiction: [] },
      { decision_date: { from: "2012-01-01", to: "2019-12-31" } },
      { offender_gender: ["gender_female", "gender_unknown"] },
      { did_offender_confess: false },
      { num_victims: { min: 1, max: 3 } },
      { appeal_outcome: ["outcome_dismissed_or_refused"] },
      { case_name: "v" },
    ];
    const texts = [null, "wyrok", "sentence OR kara", '"court of appeal"', "-appeal"];
    await fc.assert(
      fc.asyncProperty(fc.subarray(clauses, { maxLength: 3 }), fc.constantFrom(...texts), async (picked, text) => {
        const filters = Object.assign({}, ...picked) as Record<string, unknown>;
        const [agg, listed] = await asRole(pool, "authenticated", USER, async (c) => [
          (await c.query("select public.aggregate_extracted_data($1::jsonb, $2, array['jurisdiction']) as r", [JSON.stringify(filters), text])).rows[0].r,
          Number((await c.query("select count(*) as n from public.list_extracted_filter_matches($1::jsonb, $2)", [JSON.stringify(filters), text])).rows[0].n),
        ]);
        expect(agg.total).toBe(listed);
        expect(agg.fields.jurisdiction.covered + agg.fields.jurisdiction.null).toBe(listed);
      }),
      { numRuns: 40, seed: 4, endOnFailure: true },
    );
  });
});

describe("sampling: exact n, deterministic", () => {
  it("takes exactly sample_size rows and echoes the seed", async () => {
    const got = await aggregate({ sample_size: 37, seed: 12345, fields: ["jurisdiction"] });
    expect(got.total).toBe(rows.length);
    expect(got.sample_n).toBe(37);
    expect(got.seed).toBe(12345);
    const j = got.fields.jurisdiction as Categorical;
    expect(j.covered + j.null).toBe(37);
  });

  it("the same cohort and seed give the same sample; another seed gives another", async () => {
    const args = { sample_size: 50, fields: ["court_name", "offender_gender", "decision_date"], top_n: 100 };
    const a = await aggregate({ ...args, seed: 7 });
    const b = await aggregate({ ...args, seed: 7 });
    const c = await aggregate({ ...args, seed: 8 });
    expect(b).toEqual(a);
    expect(c.fields).not.toEqual(a.fields);
    expect(c.sample_n).toBe(50);
  });

  it("a negative or extreme 32-bit seed is fine", async () => {
    expect((await aggregate({ sample_size: 3, seed: -2147483648, fields: ["jurisdiction"] })).sample_n).toBe(3);
    expect((await aggregate({ sample_size: 3, seed: 2147483647, fields: ["jurisdiction"] })).seed).toBe(2147483647);
  });

  it("a sample at least as large as the cohort is the whole cohort (D-13)", async () => {
    const got = await aggregate({ sample_size: 20000, seed: 1, fields: ["court_name"] });
    expect(got.sample_n).toBe(rows.length);
    expect(got.fields.court_name).toEqual(expectedCategorical(rows, "court_name", false, 20));
  });

  it("a seed without sample_size is echoed and the whole cohort is used", async () => {
    const got = await aggregate({ seed: 3, fields: ["jurisdiction"] });
    expect([got.seed, got.sample_n]).toEqual([3, rows.length]);
  });
});

describe("empty cohorts and all-null fields are zeros, never errors", () => {
  it("an empty cohort returns every kind with zero counts", async () => {
    const got = await aggregate({ filters: { jurisdiction: [] }, fields: ["offender_gender", "did_offender_confess", "num_victims", "decision_date"] });
    expect(got).toEqual({
      total: 0,
      sample_n: 0,
      seed: null,
      fields: {
        offender_gender: { kind: "categorical", multi: true, values: [], other: 0, null: 0, covered: 0 },
        did_offender_confess: { kind: "categorical", multi: false, values: [], other: 0, null: 0, covered: 0 },
        num_victims: { kind: "numeric", buckets: [], min: null, max: null, null: 0, covered: 0 },
        decision_date: { kind: "year", values: [], null: 0, covered: 0 },
      },
    });
  });

  it("all-null fields (and empty lists, empty strings) count as null", async () => {
    const insert = async (c: import("pg").PoolClient) => {
      await c.query(
        `insert into public.judgments (full_text, jurisdiction, base_extraction_status, base_case_name, base_offender_gender, court_name)
         values ('t', 'PL', 'completed', 'Zzqx Allnull', '{}', ''), ('t', 'UK', 'completed', 'Zzqx Allnull', null, null)`,
      );
    };
    const got = await aggregate(
      { filters: { case_name: "zzqx allnull" }, fields: ["offender_gender", "court_name", "num_victims", "decision_date", "did_offender_confess"] },
      insert,
    );
    expect(got.total).toBe(2);
    expect(got.fields).toEqual({
      offender_gender: { kind: "categorical", multi: true, values: [], other: 0, null: 2, covered: 0 },
      court_name: { kind: "categorical", multi: false, values: [], other: 0, null: 2, covered: 0 },
      num_victims: { kind: "numeric", buckets: [], min: null, max: null, null: 2, covered: 0 },
      decision_date: { kind: "year", values: [], null: 2, covered: 0 },
      did_offender_confess: { kind: "categorical", multi: false, values: [], other: 0, null: 2, covered: 0 },
    });
  });

  it("a multi value repeated inside one row counts once; a single-valued numeric range gives one bucket", async () => {
    const insert = async (c: import("pg").PoolClient) => {
      await c.query(
        `insert into public.judgments (full_text, jurisdiction, base_extraction_status, base_case_name, base_convict_offences, base_victim_age_offence, base_num_victims)
         values ('t', 'PL', 'completed', 'Zzqx Dupes', array['theft','theft',''], 30.5, 4), ('t', 'PL', 'completed', 'Zzqx Dupes', array['theft'], 30.5, 4)`,
      );
    };
    const got = await aggregate({ filters: { case_name: "zzqx dupes" }, fields: ["convict_offences", "victim_age_offence", "num_victims"] }, insert);
    expect(got.fields.convict_offences).toEqual({ kind: "categorical", multi: true, values: [{ value: "theft", count: 2 }], other: 0, null: 0, covered: 2 });
    expect(got.fields.victim_age_offence).toEqual({ kind: "numeric", buckets: [{ lo: 30.5, hi: 30.5, count: 2 }], min: 30.5, max: 30.5, null: 0, covered: 2 });
    expect(got.fields.num_victims).toEqual({ kind: "numeric", buckets: [{ lo: 4, hi: 5, count: 2 }], min: 4, max: 4, null: 0, covered: 2 });
  });
});

describe("argument checks come before the cohort query", () => {
  it("a field outside the allowlist raises an error saying it is not aggregable", async () => {
    for (const field of ["no_such_field", "case_name", "base_offender_gender", "collection_ids", "extraction_status"]) {
      const err = await aggregateError({ fields: ["offender_gender", field] });
      expect([field, err.code, err.detail]).toEqual([field, "SF002", field]);
      expect(err.message).toMatch(/not aggregable/);
    }
    expect((await aggregateError({ fields: [null] })).code).toBe("SF002");
  });

  it("fields must hold 1 to 50 entries and top_n must be 1 to 100", async () => {
    expect(await aggregateError({ fields: [] })).toMatchObject({ code: "SF003", detail: "fields" });
    expect(await aggregateError({ fields: Array.from({ length: 51 }, () => "court_name") })).toMatchObject({ code: "SF003", detail: "fields" });
    expect(await aggregateError({ top_n: 0 })).toMatchObject({ code: "SF003", detail: "top_n" });
    expect(await aggregateError({ top_n: 101 })).toMatchObject({ code: "SF003", detail: "top_n" });
  });

  it("sample_size without seed names seed", async () => {
    expect(await aggregateError({ sample_size: 10 })).toMatchObject({ code: "SF002", detail: "seed" });
  });

  it("argument errors win over an invalid filter (checked first)", async () => {
    expect((await aggregateError({ fields: ["nope"], filters: { bogus: 1 } })).code).toBe("SF002");
    expect((await aggregateError({ top_n: 0, filters: { bogus: 1 } })).code).toBe("SF003");
    expect(await aggregateError({ filters: { bogus: 1 } })).toMatchObject({ code: "SF001", detail: "bogus" });
  });
});
