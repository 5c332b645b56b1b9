import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedInVisitor, Visitor } from "./structured-visitor";
import { adminPool } from "../helpers/stack";

const pool = adminPool();
afterAll(() => pool.end());

let b: Visitor;
let completed = 0;
beforeAll(async () => {
  ({ visitor: b } = await signedInVisitor());
  completed = Number(
    (await pool.query<{ n: string }>("select count(*) as n from public.judgments where base_extraction_status = 'completed'")).rows[0].n,
  );
});

const FILTER = "/api/extractions/base-schema/filter";
const AGGREGATE = "/api/extractions/base-schema/aggregate";

async function detail(res: Response) {
  return ((await res.json()) as { detail: Record<string, unknown> }).detail;
}

describe("sign-in is required (401, D-03, D-17)", () => {
  it("filter, aggregate, facets and histogram refuse a visitor without a session", async () => {
    const anon = new Visitor();
    for (const res of [
      await anon.post(FILTER, { filters: {} }),
      await anon.post(AGGREGATE, {}),
      await anon.get("/api/extractions/base-schema/facets?field=court_name"),
      await anon.get("/api/extractions/base-schema/histogram?field=decision_date"),
    ]) {
      expect(res.status).toBe(401);
      expect((await detail(res)).code).toBe("UNAUTHORIZED");
    }
  });

  it("the definition (the registry as JSON) needs a session too", async () => {
    expect((await new Visitor().get("/api/extractions/base-schema/definition")).status).toBe(401);
    const res = await b.get("/api/extractions/base-schema/definition");
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.fields.length).toBe(54 + 15); // 51 base fields, 3 operational, 15 sentence numbers
    expect(body.default_aggregate_fields).toEqual([
      "offender_gender",
      "convict_offences",
      "sentences_received",
      "appeal_outcome",
      "did_offender_confess",
      "court_name",
      "decision_date",
    ]);
    expect(body.filter_keys.map((k: { key: string }) => k.key)).toContain("collection_ids");
  });
});

describe("POST /api/extractions/base-schema/filter", () => {
  it("answers a page {results, total, limit, offset, has_more}, newest decision first", async () => {
    const res = await b.post(FILTER, { filters: { jurisdiction: ["PL", "UK"] }, limit: 5 });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ total: completed, limit: 5, offset: 0, has_more: true });
    expect(body.results.length).toBe(5);
    expect(Object.keys(body.results[0]).sort()).toEqual(["case_number", "decision_date", "extracted_data", "id", "jurisdiction", "title"]);
    const dates = body.results.map((r: { decision_date: string | null }) => r.decision_date ?? "");
    expect([...dates].sort().reverse()).toEqual(dates);
  });

  it("reports the total past the last page too, and defaults filters to none", async () => {
    const body = await (await b.post(FILTER, { offset: 10_000, limit: 100 })).json();
    expect(body).toMatchObject({ results: [], total: completed, offset: 10_000, has_more: false });
    const empty = await (await b.post(FILTER, { filters: { jurisdiction: [] } })).json();
    expect(empty).toMatchObject({ results: [], total: 0, has_more: false });
  });

  it("refuses collection_ids by key presence: 400 COLLECTION_IDS_NOT_ALLOWED (D-10)", async () => {
    for (const collection_ids of [[], ["7d3f1c2e-0000-4000-8000-000000000001"], "x"]) {
      const res = await b.post(FILTER, { filters: { collection_ids } });
      expect(res.status).toBe(400);
      expect((await detail(res)).code).toBe("COLLECTION_IDS_NOT_ALLOWED");
    }
  });

  it("an unknown key or a wrong shape is 422 FILTER_INVALID naming the field (D-06)", async () => {
    const cases: [unknown, string][] = [
      [{ no_such_key: ["x"] }, "no_such_key"],
      [{ offender_gender: ["male"] }, "offender_gender"],
      [{ decision_date: { min: 1262304000 } }, "decision_date"],
      [{ did_offender_confess: "yes" }, "did_offender_confess"],
      [["jurisdiction"], "filters"],
    ];
    for (const [filters, field] of cases) {
      const res = await b.post(FILTER, { filters });
      expect(res.status).toBe(422);
      expect(await detail(res)).toMatchObject({ code: "FILTER_INVALID", field });
    }
  });

  it("out-of-range paging and long text queries are 422 VALIDATION_ERROR (D-14, D-28)", async () => {
    for (const body of [{ limit: 101 }, { limit: 0 }, { offset: -1 }, { offset: 10_001 }, { text_query: "x".repeat(1001) }, { bogus: 1 }]) {
      const res = await b.post(FILTER, body);
      expect(res.status).toBe(422);
      expect((await detail(res)).code).toBe("VALIDATION_ERROR");
    }
  });

  it("bad JSON is 400", async () => {
    const res = await b.request("POST", FILTER, "{nope", { "content-type": "application/json" });
    expect(res.status).toBe(400);
  });
});

describe("POST /api/extractions/base-schema/aggregate", () => {
  it("answers the aggregate result unchanged", async () => {
    const res = await b.post(AGGREGATE, {});
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ total: completed, sample_n: completed, seed: null });
    expect(Object.keys(body.fields).sort()).toEqual(
      ["appeal_outcome", "convict_offences", "court_name", "decision_date", "did_offender_confess", "offender_gender", "sentences_received"],
    );
    expect(body.fields.offender_gender).toMatchObject({ kind: "categorical", multi: true });
    expect(body.fields.decision_date.kind).toBe("year");
  });

  it("samples exactly and deterministically", async () => {
    const req = { fields: ["court_name"], sample_size: 25, seed: 99, top_n: 100 };
    const one = await (await b.post(AGGREGATE, req)).json();
    const two = await (await b.post(AGGREGATE, req)).json();
    expect(one).toEqual(two);
    expect(one).toMatchObject({ sample_n: 25, seed: 99 });
  });

  it("422 FIELD_NOT_AGGREGABLE names the field, or seed when sample_size comes without it", async () => {
    let res = await b.post(AGGREGATE, { fields: ["offender_gender", "case_name"] });
    expect(res.status).toBe(422);
    const first = await detail(res);
    expect(first).toMatchObject({ code: "FIELD_NOT_AGGREGABLE", field: "case_name" });
    expect(String(first.message)).toMatch(/case_name.*not aggregable/);
    res = await b.post(AGGREGATE, { sample_size: 10 });
    expect(res.status).toBe(422);
    const d = await detail(res);
    expect(d).toMatchObject({ code: "FIELD_NOT_AGGREGABLE", field: "seed" });
    expect(String(d.message)).toMatch(/seed/);
  });

  it("refuses collection_ids (400) and an invalid filter (422 FILTER_INVALID)", async () => {
    let res = await b.post(AGGREGATE, { filters: { collection_ids: [] } });
    expect([res.status, (await detail(res)).code]).toEqual([400, "COLLECTION_IDS_NOT_ALLOWED"]);
    res = await b.post(AGGREGATE, { filters: { nope: true } });
    expect(res.status).toBe(422);
    expect(await detail(res)).toMatchObject({ code: "FILTER_INVALID", field: "nope" });
  });

  it("out-of-range request fields are 422 VALIDATION_ERROR naming each (D-14)", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ fields: [] }, "fields"],
      [{ fields: Array.from({ length: 51 }, () => "court_name") }, "fields"],
      [{ top_n: 0 }, "top_n"],
      [{ top_n: 101 }, "top_n"],
      [{ sample_size: 0, seed: 1 }, "sample_size"],
      [{ sample_size: 20_001, seed: 1 }, "sample_size"],
      [{ sample_size: 5, seed: 2_147_483_648 }, "seed"],
      [{ seed: 1.5 }, "seed"],
    ];
    for (const [body, field] of cases) {
      const res = await b.post(AGGREGATE, body);
      expect(res.status).toBe(422);
      const d = await detail(res);
      expect(d.code).toBe("VALIDATION_ERROR");
      expect((d.fields as { field: string }[]).map((f) => f.field)).toContain(field);
    }
  });

  it("500 AGGREGATE_FAILED when the database call raises for a reason other than the request", async () => {
    // Real fault: hide the registry the function reads, then put it back.
    await pool.query("alter table structured.filter_fields rename to filter_fields_hidden");
    try {
      const res = await b.post(AGGREGATE, {});
      expect(res.status).toBe(500);
      const d = await detail(res);
      expect(d.code).toBe("AGGREGATE_FAILED");
      expect(JSON.stringify(d)).not.toMatch(/filter_fields|relation|structured/);
    } finally {
      await pool.query("alter table structured.filter_fields_hidden rename to filter_fields");
    }
    expect((await b.post(AGGREGATE, { fields: ["jurisdiction"] })).status).toBe(200);
  });
});

describe("facets and histogram", () => {
  it("facets: top values of an any-of field under the other clauses, narrowed by q", async () => {
    const res = await b.get("/api/extractions/base-schema/facets?field=offender_gender&limit=2");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toMatch(/max-age=60/);
    const body = await res.json();
    expect(body.field).toBe("offender_gender");
    expect(body.values.length).toBeLessThanOrEqual(2);
    const agg = await (await b.post(AGGREGATE, { fields: ["offender_gender"], top_n: 2 })).json();
    expect(body.values).toEqual(agg.fields.offender_gender.values);

    const own = encodeURIComponent(JSON.stringify({ offender_gender: ["gender_female"] }));
    const disjunctive = await (await b.get(`/api/extractions/base-schema/facets?field=offender_gender&limit=2&filters=${own}`)).json();
    expect(disjunctive.values).toEqual(body.values);

    const narrowed = await (await b.get("/api/extractions/base-schema/facets?field=offender_gender&q=FEM")).json();
    expect(narrowed.values.map((v: { value: string }) => v.value)).toEqual(["gender_female"]);
  });

  it("facets: 422 for a field without values, 400 for collection_ids, 422 FILTER_INVALID, 422 for bad JSON", async () => {
    expect((await b.get("/api/extractions/base-schema/facets?field=num_victims")).status).toBe(422);
    const ids = encodeURIComponent(JSON.stringify({ collection_ids: [] }));
    expect((await b.get(`/api/extractions/base-schema/facets?field=court_name&filters=${ids}`)).status).toBe(400);
    const bad = encodeURIComponent(JSON.stringify({ nope: 1 }));
    const res = await b.get(`/api/extractions/base-schema/facets?field=court_name&filters=${bad}`);
    expect([res.status, (await detail(res)).code]).toEqual([422, "FILTER_INVALID"]);
    expect((await b.get("/api/extractions/base-schema/facets?field=court_name&filters=%7Bnope")).status).toBe(422);
  });

  it("facets are counted within the other filters: a Poland-only cohort offers no UK-only offence, and each count is the filtered count", async () => {
    const ukOnly = (
      await pool.query<{ v: string }>(
        `select e as v from public.judgments j, unnest(j.base_convict_offences) e
          where j.base_extraction_status = 'completed' group by e having bool_and(j.jurisdiction = 'UK')`,
      )
    ).rows.map((r) => r.v);
    expect(ukOnly.length).toBeGreaterThan(0);
    const plOnly = { jurisdiction: ["PL"] };
    const q = (filters: object, extra = "") =>
      `/api/extractions/base-schema/facets?field=convict_offences&limit=20&filters=${encodeURIComponent(JSON.stringify(filters))}${extra}`;
    const res = await b.get(q(plOnly));
    expect(res.status).toBe(200);
    const values = (await res.json()).values as { value: string; count: number }[];
    expect(values.length).toBeGreaterThan(0);
    expect(values.filter((v) => ukOnly.includes(v.value) && v.count > 0)).toEqual([]);
    // The whole-corpus list does hold UK offences, so the filter is what keeps them out.
    const all = (await (await b.get("/api/extractions/base-schema/facets?field=convict_offences&limit=100")).json()).values as { value: string }[];
    expect(all.some((v) => ukOnly.includes(v.value))).toBe(true);
    for (const v of values.slice(0, 3)) {
      const filtered = await (await b.post(FILTER, { filters: { ...plOnly, convict_offences: [v.value] }, limit: 1 })).json();
      expect(filtered.total).toBe(v.count);
    }

    // include: a UK-only offence asked for in the Polish cohort comes back with 0, after every value that matched;
    // a value outside a fixed set is not reported.
    const include = encodeURIComponent(JSON.stringify([ukOnly[0]]));
    const withZero = (await (await b.get(q(plOnly, `&include=${include}`))).json()).values as { value: string; count: number }[];
    expect(withZero.at(-1)).toEqual({ value: ukOnly[0], count: 0 });
    expect(withZero.slice(0, -1)).toEqual(values);
    const fixed = encodeURIComponent(JSON.stringify(["PL", "UK", "XX"]));
    const jur = await (
      await b.get(`/api/extractions/base-schema/facets?field=jurisdiction&filters=${encodeURIComponent(JSON.stringify({ convict_offences: [ukOnly[0]] }))}&include=${fixed}`)
    ).json();
    expect(jur.values.map((v: { value: string }) => v.value)).toEqual(["UK", "PL"]);
    expect(jur.values[1].count).toBe(0);
    expect((await b.get(q(plOnly, `&include=${encodeURIComponent("[1]")}`))).status).toBe(422);
  });

  it("histogram: numeric buckets or years of one field; 422 for a categorical field", async () => {
    const res = await b.get("/api/extractions/base-schema/histogram?field=decision_date");
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ field: "decision_date", kind: "year", total: completed });
    const num = await (await b.get("/api/extractions/base-schema/histogram?field=num_victims")).json();
    expect(num.kind).toBe("numeric");
    expect((await b.get("/api/extractions/base-schema/histogram?field=court_name")).status).toBe(422);
  });
});
