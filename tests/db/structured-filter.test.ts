import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { filterFieldSpecs } from "@/lib/schema/filter-fields";
import { asRole, userClaims } from "../helpers/as-role";
import { adminPool } from "../helpers/stack";
import { filtersArb as filtersArb_ } from "./structured-arbitraries";
import { evaluate, loadCompletedRows, type Row } from "./structured-eval";

const pool = adminPool();
afterAll(() => pool.end());

const USER = userClaims("5a1e0000-0000-4000-8000-00000000f11e");

let rows: Row[] = [];
beforeAll(async () => {
  rows = await loadCompletedRows(pool);
});

type Filters = Record<string, unknown>;

interface Page {
  id: string;
  total_count: string;
}

async function page(filters: Filters, textQuery: string | null, limit: number, offset: number): Promise<Page[]> {
  return asRole(pool, "authenticated", USER, async (c) => {
    const { rows: r } = await c.query<Page>(
      "select id::text, total_count from public.filter_documents_by_extracted_data($1::jsonb, $2, $3, $4)",
      [JSON.stringify(filters), textQuery, limit, offset],
    );
    return r;
  });
}

async function matches(filters: unknown, textQuery: string | null = null): Promise<string[]> {
  return asRole(pool, "authenticated", USER, async (c) => {
    const { rows: r } = await c.query<{ id: string }>(
      "select id::text from public.list_extracted_filter_matches($1::jsonb, $2) order by id",
      [JSON.stringify(filters), textQuery],
    );
    return r.map((x) => x.id);
  });
}

async function matchesSqlNull(): Promise<string[]> {
  return asRole(pool, "authenticated", USER, async (c) =>
    (await c.query<{ id: string }>("select id::text from public.list_extracted_filter_matches(null, null) order by id")).rows.map((x) => x.id),
  );
}

/** The SQLSTATE and DETAIL of the error a filter raises, or "ok". */
async function filterError(filters: unknown): Promise<{ code: string; detail?: string } | "ok"> {
  try {
    await matches(filters);
    return "ok";
  } catch (e) {
    const err = e as { code: string; detail?: string };
    return { code: err.code, detail: err.detail };
  }
}

const ids = (r: Row[]) => r.map((x) => x.id).sort();

/** Random valid filters over every filterable key, up to four keys each (structured-arbitraries.ts). */
const filtersArb = () => filtersArb_(rows, { specs: filterFieldSpecs().filter((s) => s.filterable), maxKeys: 4 });

describe("filter_documents_by_extracted_data against an independent TypeScript evaluation", () => {
  it("the corpus slice has completed judgments to filter", () => {
    expect(rows.length).toBeGreaterThan(100);
  });

  it("random valid filters: same ids, same order, same total (fast-check)", async () => {
    await fc.assert(
      fc.asyncProperty(filtersArb(), fc.integer({ min: 1, max: 100 }), fc.integer({ min: 0, max: 30 }), async (filters, limit, offset) => {
        const expected = evaluate(rows, filters);
        const got = await page(filters, null, limit, offset);
        expect(got.map((r) => r.id)).toEqual(expected.slice(offset, offset + limit).map((r) => r.id));
        if (got.length) expect(Number(got[0].total_count)).toBe(expected.length);
      }),
      { numRuns: 150, seed: 7, endOnFailure: true },
    );
  });

  it("list_extracted_filter_matches returns the same cohort as the page's total, with jurisdictions", async () => {
    await fc.assert(
      fc.asyncProperty(filtersArb(), async (filters) => {
        expect(await matches(filters)).toEqual(ids(evaluate(rows, filters)));
      }),
      { numRuns: 60, seed: 11, endOnFailure: true },
    );
  });
});

describe("filter semantics, key by key", () => {
  it("an empty filter (or null) matches every completed judgment and nothing else", async () => {
    expect(await matches({})).toEqual(ids(rows));
    expect(await matches(null)).toEqual(ids(rows));
    expect(await matchesSqlNull()).toEqual(ids(rows));
    const { rows: other } = await pool.query<{ n: string }>(
      "select count(*) as n from public.judgments where base_extraction_status <> 'completed'",
    );
    const all = await matches({});
    expect(all.length + Number(other[0].n)).toBe(
      Number((await pool.query<{ n: string }>("select count(*) as n from public.judgments")).rows[0].n),
    );
  });

  it("jurisdiction is any-of and [] matches nothing", async () => {
    expect(await matches({ jurisdiction: [] })).toEqual([]);
    expect(await matches({ jurisdiction: ["PL", "UK"] })).toEqual(ids(rows));
    expect(await matches({ jurisdiction: ["UK"] })).toEqual(ids(rows.filter((r) => r.jurisdiction === "UK")));
  });

  it("[] on any other any-of key matches nothing (D-09)", async () => {
    expect(await matches({ offender_gender: [] })).toEqual([]);
    expect(await matches({ court_name: [] })).toEqual([]);
  });

  it("collection_ids: [] is no filter", async () => {
    expect(await matches({ collection_ids: [] })).toEqual(ids(rows));
  });

  it("decision_date accepts {from,to}, {min,max} and one date, inclusive, either bound optional", async () => {
    const dated = rows.filter((r) => r.decision_date).map((r) => r.decision_date as string).sort();
    const d = dated[Math.floor(dated.length / 2)];
    const on = ids(rows.filter((r) => r.decision_date === d));
    expect(await matches({ decision_date: d })).toEqual(on);
    expect(await matches({ decision_date: { from: d, to: d } })).toEqual(on);
    expect(await matches({ decision_date: { min: d, max: d } })).toEqual(on);
    expect(await matches({ decision_date: { from: d } })).toEqual(ids(rows.filter((r) => r.decision_date && r.decision_date >= d)));
    expect(await matches({ decision_date: { to: d } })).toEqual(ids(rows.filter((r) => r.decision_date && r.decision_date <= d)));
    // No bound at all is no clause (null dates included).
    expect(await matches({ decision_date: {} })).toEqual(ids(rows));
    expect(await matches({ num_victims: { min: null, max: null } })).toEqual(ids(rows));
  });

  it("integer ranges take fractional and out-of-range bounds as numbers do, compared in the column's type", async () => {
    const victims = (pred: (n: number) => boolean) => ids(rows.filter((r) => typeof r.base_num_victims === "number" && pred(r.base_num_victims)));
    expect(await matches({ num_victims: { min: 1.5 } })).toEqual(victims((n) => n >= 1.5));
    expect(await matches({ num_victims: { max: 2.5 } })).toEqual(victims((n) => n <= 2.5));
    expect(await matches({ num_victims: { min: -0.5, max: 1.01 } })).toEqual(victims((n) => n >= -0.5 && n <= 1.01));
    expect(await matches({ num_victims: 1.5 })).toEqual([]);
    expect(await matches({ num_victims: 2 })).toEqual(victims((n) => n === 2));
    expect(await matches({ num_victims: { min: -1e30, max: 1e30 } })).toEqual(victims(() => true));
    expect(await matches({ num_victims: { min: 1e30 } })).toEqual([]);
    expect(await matches({ num_victims: 1e30 })).toEqual([]);
    const { rows: p } = await pool.query<{ p: string }>(
      "select structured.filter_predicate('{\"num_victims\": {\"min\": 1.5}}'::jsonb, null) as p",
    );
    // A bigint literal, not a numeric one: the integer column's index can serve the range.
    expect(p[0].p).toContain("j.base_num_victims >= '2'::bigint");
  });

  it("substring keys are case-insensitive and take % and _ literally", async () => {
    const named = rows.find((r) => typeof r.base_case_name === "string" && (r.base_case_name as string).length > 4);
    expect(named).toBeDefined();
    const name = named!.base_case_name as string;
    const part = name.slice(1, 4).toUpperCase();
    expect(await matches({ case_name: part })).toEqual(
      ids(rows.filter((r) => typeof r.base_case_name === "string" && (r.base_case_name as string).toLowerCase().includes(part.toLowerCase()))),
    );
    const literal = ids(rows.filter((r) => typeof r.base_case_name === "string" && (r.base_case_name as string).includes("%")));
    expect(await matches({ case_name: "%" })).toEqual(literal);
    expect(await matches({ case_name: "   " })).toEqual(ids(rows));
  });
});

describe("invalid filters are errors naming the key (D-06)", () => {
  const cases: [string, unknown, string][] = [
    ["unknown key", { no_such_key: ["x"] }, "no_such_key"],
    ["base_ prefix is not a key", { base_offender_gender: ["gender_male"] }, "base_offender_gender"],
    ["operational fields are not keys", { extraction_status: ["completed"] }, "extraction_status"],
    ["any-of given a string", { offender_gender: "gender_male" }, "offender_gender"],
    ["any-of with a non-string element", { keywords: [1] }, "keywords"],
    ["enum value outside its set", { offender_gender: ["male"] }, "offender_gender"],
    ["jurisdiction outside PL/UK", { jurisdiction: ["DE"] }, "jurisdiction"],
    ["boolean given as a string", { did_offender_confess: "true" }, "did_offender_confess"],
    ["boolean given null", { did_offender_confess: null }, "did_offender_confess"],
    ["numeric range with a string bound", { num_victims: { min: "1" } }, "num_victims"],
    ["numeric range with an unknown bound", { num_victims: { from: 1 } }, "num_victims"],
    ["date as a number (D-08)", { decision_date: { min: 1262304000 } }, "decision_date"],
    ["date in the wrong format", { decision_date: "2010/01/01" }, "decision_date"],
    ["impossible date", { decision_date: "2010-02-30" }, "decision_date"],
    ["mixed date bounds", { decision_date: { from: "2010-01-01", max: "2011-01-01" } }, "decision_date"],
    ["substring given an array", { case_name: ["x"] }, "case_name"],
    ["collection id that is not a UUID", { collection_ids: ["nope"] }, "collection_ids"],
    ["filters not an object", ["jurisdiction"], "filters"],
  ];
  for (const [label, filters, field] of cases) {
    it(label, async () => {
      expect(await filterError(filters)).toEqual({ code: "SF001", detail: field });
    });
  }
});

describe("text_query (web-search syntax, accent-insensitive)", () => {
  const A = "7e570000-0000-4000-8000-0000000000a1";
  const B = "7e570000-0000-4000-8000-0000000000b2";
  const C = "7e570000-0000-4000-8000-0000000000c3";
  const insert = async (c: import("pg").PoolClient) => {
    await c.query(
      `insert into public.judgments (id, full_text, jurisdiction, decision_date, base_extraction_status, title, summary, case_number, base_case_name, base_appeal_ground)
       values ($1, 't', 'PL', '2020-01-01', 'completed', 'Wyrok w sprawie zabójstwa Kwiatkowskiej', 'Sąd Apelacyjny zmienił wyrok', 'II AKa 17/20', null, null),
              ($2, 't', 'UK', '2020-01-02', 'completed', 'R v Quixotic', 'Appeal against sentence for grievous bodily harm', 'T2020/77', 'R v Quixotic', array['zzyzx ground']),
              ($3, 't', 'UK', '2020-01-03', 'pending', 'R v Quixotic pending', 'grievous bodily harm', 'T2020/78', null, null)`,
      [A, B, C],
    );
  };
  const run = (q: string) =>
    asRole(
      pool,
      "authenticated",
      USER,
      async (c) =>
        (await c.query<{ id: string }>(
          "select id::text from public.list_extracted_filter_matches('{}', $1) where id = any($2::uuid[]) order by id",
          [q, [A, B, C]],
        )).rows.map((r) => r.id),
      { rollback: true, before: insert },
    );

  it("matches title, summary and case_number, accent-insensitively", async () => {
    expect(await run("zabojstwa")).toEqual([A]);
    expect(await run("ZABÓJSTWA kwiatkowskiej")).toEqual([A]);
    expect(await run("apelacyjny")).toEqual([A]);
    expect(await run("T2020/77")).toEqual([B]);
  });

  it("matches the searchable base fields", async () => {
    expect(await run("zzyzx")).toEqual([B]);
  });

  it("supports quoted phrases, OR and -exclusion, and never returns uncompleted rows", async () => {
    expect(await run('"grievous bodily harm"')).toEqual([B]);
    expect(await run('"bodily grievous harm"')).toEqual([]);
    expect(await run("zabojstwa OR quixotic")).toEqual([A, B]);
    expect(await run("quixotic -sentence")).toEqual([]);
    expect(await run("harm -zabojstwa")).toEqual([B]);
  });

  it("a blank query or one without words adds no clause", async () => {
    expect((await run("   ")).length).toBe(2);
    expect((await run("!!!")).length).toBe(2);
  });
});

describe("paging clamps", () => {
  it("limit is clamped to 1..100 and offset to 0..10000", async () => {
    expect((await page({}, null, 0, 0)).length).toBe(1);
    expect((await page({}, null, 1000, 0)).length).toBe(Math.min(100, rows.length));
    expect((await page({}, null, 5, -10)).map((r) => r.id)).toEqual((await page({}, null, 5, 0)).map((r) => r.id));
    expect(await page({}, null, 5, 1_000_000)).toEqual(await page({}, null, 5, 10_000));
  });

  it("defaults to 20 rows from offset 0", async () => {
    const got = await asRole(pool, "authenticated", USER, async (c) =>
      (await c.query<{ id: string }>("select id::text from public.filter_documents_by_extracted_data('{}'::jsonb)")).rows.map((r) => r.id),
    );
    expect(got).toEqual(evaluate(rows, {}).slice(0, 20).map((r) => r.id));
  });

  it("returns extracted_data (the raw extraction) and the listed columns", async () => {
    const got = await asRole(pool, "authenticated", USER, async (c) =>
      (await c.query("select * from public.filter_documents_by_extracted_data('{}'::jsonb, null, 1, 0)")).rows,
    );
    expect(Object.keys(got[0])).toEqual(["id", "case_number", "title", "jurisdiction", "decision_date", "extracted_data", "total_count"]);
    expect(typeof got[0].extracted_data).toBe("object");
  });
});
