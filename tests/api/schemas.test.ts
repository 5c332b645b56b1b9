import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedInVisitor, Visitor } from "./structured-visitor";
import { adminPool } from "../helpers/stack";

/**
 * Over real HTTP and Postgres: extraction schemas with versions, owner-only by RLS (two users), the
 * JSON Schema form, compare and rollback, validation, and the model-only generator failing closed (no model here).
 */
const pool = adminPool();
afterAll(() => pool.end());

let alice: Visitor;
let bob: Visitor;
beforeAll(async () => {
  ({ visitor: alice } = await signedInVisitor());
  ({ visitor: bob } = await signedInVisitor());
});

const FIELDS = [
  { name: "case_number", type: "string", description: "sygnatura / case number", required: true },
  { name: "sentence_years", type: "number", description: "custodial term in years" },
  { name: "outcome", type: "enum", enum_values: ["dismissed", "allowed", "varied"] },
];

async function detail(res: Response) {
  return ((await res.json()) as { detail: Record<string, unknown> }).detail;
}

describe("schemas need a session (401)", () => {
  it("every schema route answers 401 without one", async () => {
    const anon = new Visitor();
    const id = randomUUID();
    const calls = [
      anon.get("/api/schemas"),
      anon.post("/api/schemas", { name: "x", fields: FIELDS }),
      anon.get(`/api/schemas/${id}`),
      anon.patch(`/api/schemas/${id}`, { name: "x" }),
      anon.delete(`/api/schemas/${id}`),
      anon.get(`/api/schemas/${id}/versions`),
      anon.get(`/api/schemas/${id}/versions/1`),
      anon.get(`/api/schemas/${id}/versions/compare?a=1&b=2`),
      anon.post(`/api/schemas/${id}/versions/1/rollback`, {}),
      anon.post("/api/schemas/generate", { description: "offences and sentences" }),
    ];
    for (const res of await Promise.all(calls)) expect([res.url, res.status]).toEqual([res.url, 401]);
  }, 180_000); // the first call of each route compiles it under next dev
});

describe("the built-in base schema in the list", () => {
  it("comes first in every user's list (the reference shape, id \"base\"), is readable at /api/schemas/base, and is read-only", async () => {
    const { visitor: dora } = await signedInVisitor();
    const empty = await (await dora.get("/api/schemas")).json();
    expect(empty).toMatchObject({ total: 1, has_more: false });
    expect(empty.schemas).toHaveLength(1);
    const base = empty.schemas[0];
    expect(Object.keys(base).sort()).toEqual(["created_at", "description", "id", "name", "version"]);
    expect(base).toMatchObject({ id: "base", name: "Base schema", version: 1 });
    expect(Number.isNaN(Date.parse(base.created_at))).toBe(false);

    const own = await (await dora.post("/api/schemas", { name: "Own", fields: FIELDS })).json();
    const both = await (await dora.get("/api/schemas")).json();
    expect([both.total, both.schemas.map((x: { id: string }) => x.id)]).toEqual([2, ["base", own.id]]);
    // The page window runs over the combined list: base at offset 0, the user's own from offset 1.
    const first = await (await dora.get("/api/schemas?limit=1&offset=0")).json();
    expect([first.schemas.map((x: { id: string }) => x.id), first.total, first.has_more]).toEqual([["base"], 2, true]);
    const second = await (await dora.get("/api/schemas?limit=1&offset=1")).json();
    expect([second.schemas.map((x: { id: string }) => x.id), second.total, second.has_more]).toEqual([[own.id], 2, false]);
    const past = await (await dora.get("/api/schemas?limit=5&offset=9")).json();
    expect([past.schemas, past.total]).toEqual([[], 2]);

    const full = await (await dora.get("/api/schemas/base")).json();
    expect(full).toMatchObject({ id: "base", version: 1 });
    expect(full.fields.length).toBeGreaterThan(50);
    expect(full.json_schema).toMatchObject({ type: "object" });
    // Read-only: no edit or delete reaches it.
    for (const res of [await dora.patch("/api/schemas/base", { name: "mine now" }), await dora.delete("/api/schemas/base")]) {
      expect([res.status, (await detail(res)).code]).toEqual([400, "INVALID_SCHEMA_ID"]);
    }
  }, 120_000);
});

describe("schemas with versions", () => {
  it("creates, lists, edits (a version each), compares, rolls back and deletes", async () => {
    const made = await alice.post("/api/schemas", { name: "  Sentencing  ", description: "terms and outcomes", fields: FIELDS });
    expect(made.status).toBe(201);
    const s = await made.json();
    expect(s).toMatchObject({ name: "Sentencing", version: 1, description: "terms and outcomes" });
    expect(s.fields.map((f: { name: string }) => f.name)).toEqual(["case_number", "sentence_years", "outcome"]);
    // The JSON Schema form: required non-null, optional nullable, enum values kept, nothing else allowed.
    expect(s.json_schema).toMatchObject({ type: "object", required: ["case_number"], additionalProperties: false });
    expect(s.json_schema.properties.case_number).toMatchObject({ type: "string" });
    expect(s.json_schema.properties.outcome.anyOf[0]).toEqual({ type: "string", enum: ["dismissed", "allowed", "varied"] });

    const list = await (await alice.get("/api/schemas")).json();
    expect(list.total).toBeGreaterThanOrEqual(1);
    expect(list.schemas.find((x: { id: string }) => x.id === s.id)).toEqual({
      id: s.id,
      name: "Sentencing",
      description: "terms and outcomes",
      version: 1,
      created_at: s.created_at,
    });

    // v2: a field added and one changed; v3: a rename only (every change is a version).
    const v2Fields = [FIELDS[0], { ...FIELDS[1], type: "integer" }, FIELDS[2], { name: "judges", type: "string[]" }];
    const v2 = await alice.patch(`/api/schemas/${s.id}`, { fields: v2Fields, note: "judges added" });
    expect(v2.status).toBe(200);
    expect(await v2.json()).toMatchObject({ version: 2 });
    expect(await (await alice.patch(`/api/schemas/${s.id}`, { name: "Sentencing (PL)" })).json()).toMatchObject({ version: 3, name: "Sentencing (PL)" });

    const versions = await (await alice.get(`/api/schemas/${s.id}/versions`)).json();
    expect(versions.versions.map((v: { number: number }) => v.number)).toEqual([3, 2, 1]);
    expect(versions.versions[1]).toMatchObject({ number: 2, note: "judges added" });
    expect(versions.versions[0].note).toBe("changed name");

    const one = await (await alice.get(`/api/schemas/${s.id}/versions/1`)).json();
    expect(one.fields).toHaveLength(3);

    const cmp = await (await alice.get(`/api/schemas/${s.id}/versions/compare?a=1&b=2`)).json();
    expect(cmp.added.map((f: { name: string }) => f.name)).toEqual(["judges"]);
    expect(cmp.removed).toEqual([]);
    expect(cmp.changed).toEqual([expect.objectContaining({ name: "sentence_years", changes: ["type"] })]);
    // Defaults: b = current, a = the one before it.
    const latest = await (await alice.get(`/api/schemas/${s.id}/versions/compare`)).json();
    expect(latest).toMatchObject({ a: 2, b: 3, added: [], removed: [], changed: [] });

    const rolled = await alice.post(`/api/schemas/${s.id}/versions/1/rollback`, {});
    expect(rolled.status).toBe(200);
    const r = await rolled.json();
    expect(r).toMatchObject({ version: 4, name: "Sentencing" });
    expect(r.fields).toEqual(one.fields);
    const back = await (await alice.get(`/api/schemas/${s.id}/versions/compare?a=1&b=4`)).json();
    expect(back).toMatchObject({ added: [], removed: [], changed: [] });
    const { rows } = await pool.query("select number, note from public.schema_versions where schema_id = $1 order by number", [s.id]);
    expect(rows.map((x) => x.number)).toEqual([1, 2, 3, 4]);
    expect(rows[3].note).toBe("rollback to version 1");

    expect((await alice.get(`/api/schemas/${s.id}/versions/9`)).status).toBe(404);
    expect((await detail(await alice.get(`/api/schemas/${s.id}/versions/0`))).code).toBe("SCHEMA_VERSION_NOT_FOUND");

    expect((await alice.delete(`/api/schemas/${s.id}`)).status).toBe(204);
    expect((await alice.get(`/api/schemas/${s.id}`)).status).toBe(404);
    const gone = await pool.query("select count(*)::int as n from public.schema_versions where schema_id = $1", [s.id]);
    expect(gone.rows[0].n).toBe(0);
  }, 120_000);

  it("another user's schema is a plain 404 on every route, and unchanged", async () => {
    const s = await (await alice.post("/api/schemas", { name: "Private", fields: FIELDS })).json();
    const calls = [
      bob.get(`/api/schemas/${s.id}`),
      bob.patch(`/api/schemas/${s.id}`, { name: "stolen" }),
      bob.delete(`/api/schemas/${s.id}`),
      bob.get(`/api/schemas/${s.id}/versions`),
      bob.get(`/api/schemas/${s.id}/versions/1`),
      bob.get(`/api/schemas/${s.id}/versions/compare?a=1&b=1`),
      bob.post(`/api/schemas/${s.id}/versions/1/rollback`, {}),
    ];
    for (const res of await Promise.all(calls)) {
      expect([res.url, res.status]).toEqual([res.url, 404]);
      expect((await detail(res)).code).toBe("SCHEMA_NOT_FOUND");
    }
    const bobs = await (await bob.get("/api/schemas")).json();
    expect(bobs.schemas.map((x: { id: string }) => x.id)).not.toContain(s.id);
    expect(await (await alice.get(`/api/schemas/${s.id}`)).json()).toMatchObject({ name: "Private", version: 1 });
  });

  it.each([
    ["a name that is not snake_case", { name: "x", fields: [{ name: "Case Number", type: "string" }] }, "fields.0.name"],
    ["duplicate field names", { name: "x", fields: [{ name: "a", type: "string" }, { name: "a", type: "integer" }] }, "fields.1.name"],
    ["an enum without values", { name: "x", fields: [{ name: "a", type: "enum" }] }, "fields.0.enum_values"],
    ["values on a non-enum field", { name: "x", fields: [{ name: "a", type: "string", enum_values: ["b"] }] }, "fields.0.enum_values"],
    ["an unknown type", { name: "x", fields: [{ name: "a", type: "object" }] }, "fields.0.type"],
    ["no fields", { name: "x", fields: [] }, "fields"],
    ["an empty name", { name: "  ", fields: FIELDS }, "name"],
  ])("refuses %s with 422 and creates nothing", async (_label, body, field) => {
    const before = await pool.query("select count(*)::int as n from public.extraction_schemas");
    const res = await alice.post("/api/schemas", body);
    expect(res.status).toBe(422);
    const d = await detail(res);
    expect(d.code).toBe("VALIDATION_ERROR");
    expect((d.fields as { field: string }[]).map((f) => f.field)).toContain(field);
    // Each entry also carries the path as an array (indices as numbers) and the code, for the interface to
    // word it with the field's label.
    const entry = (d.fields as { field: string; path: unknown; code: unknown }[]).find((f) => f.field === field);
    expect(entry?.path).toEqual(field.split(".").map((p) => (/^\d+$/.test(p) ? Number(p) : p)));
    expect(typeof entry?.code).toBe("string");
    const after = await pool.query("select count(*)::int as n from public.extraction_schemas");
    expect(after.rows[0].n).toBe(before.rows[0].n);
  });

  it("an empty PATCH is 422 and makes no version; a bad id is 400", async () => {
    const s = await (await alice.post("/api/schemas", { name: "Patchy", fields: FIELDS })).json();
    expect((await alice.patch(`/api/schemas/${s.id}`, {})).status).toBe(422);
    expect((await alice.get(`/api/schemas/${s.id}`).then((r) => r.json())).version).toBe(1);
    expect((await detail(await alice.get("/api/schemas/not-a-uuid"))).code).toBe("INVALID_SCHEMA_ID");
  });
});

describe("POST /api/schemas/generate without a model", () => {
  it("answers 503 LLM_NOT_CONFIGURED and stores nothing", async () => {
    const before = await pool.query("select count(*)::int as n from public.extraction_schemas");
    const res = await alice.post("/api/schemas/generate", { description: "the offences, sentences and outcome of each appeal" });
    expect(res.status).toBe(503);
    expect((await detail(res)).code).toBe("LLM_NOT_CONFIGURED");
    const after = await pool.query("select count(*)::int as n from public.extraction_schemas");
    expect(after.rows[0].n).toBe(before.rows[0].n);
  });
});
