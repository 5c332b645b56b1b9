import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedInVisitor, type Visitor } from "./structured-visitor";
import { adminPool } from "../helpers/stack";

/**
 * Rules mode says what it cannot do (no model on the test stack): a job whose fields rules cannot fill is refused with
 * 422 naming them unless confirmed; a confirmed run shows those fields as not extractable ("needs a model"); the
 * results count per field filled / empty / not extractable; a job with nothing filled ends `completed_empty` with its
 * reason. Custom rules are stored with the schema, checked, and applied. Jobs run on the stack's real worker (pg-boss).
 */
const pool = adminPool();
afterAll(() => pool.end());

let alice: Visitor;
let docs: string[] = [];
beforeAll(async () => {
  ({ visitor: alice } = await signedInVisitor());
  docs = (await pool.query<{ id: string }>("select id from public.judgments order by id limit 5")).rows.map((r) => r.id);
}, 180_000);

const detail = async (res: Response) => ((await res.json()) as { detail: { code: string; message: string; fields?: unknown } }).detail;

async function until<T>(what: string, fn: () => Promise<T | null>, ms = 90_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function finished(id: string) {
  return until(`job ${id} to finish`, async () => {
    const j = await (await alice.get(`/api/extractions/${id}`)).json();
    return ["queued", "running"].includes(j.status) ? null : j;
  });
}

async function schema(fields: unknown[]): Promise<string> {
  const res = await alice.post("/api/schemas", { name: `honesty ${randomUUID().slice(0, 6)}`, fields });
  expect(res.status).toBe(201);
  return (await res.json()).id;
}

type Field = { name: string; label: string; extractable: boolean; counts: { filled: number; empty: number; not_extractable: number } };
type Results = { mode: string; fields: Field[]; results: { status: string; values: Record<string, unknown> | null }[]; total: number };
const results = async (id: string): Promise<Results> => (await alice.get(`/api/extractions/${id}/results?page_size=100`)).json();

describe("a rules-mode job with fields only a model can fill", () => {
  it("is refused with 422 naming the fields by label, and creates nothing", async () => {
    const id = await schema([
      { name: "case_number", type: "string" },
      { name: "motive", type: "string", description: "Why the offender did it" },
      { name: "victim_age", type: "integer" },
    ]);
    const before = (await pool.query("select count(*)::int as n from public.extraction_jobs")).rows[0].n;
    const res = await alice.post("/api/extractions", { schema_id: id, document_ids: docs });
    expect(res.status).toBe(422);
    const d = await detail(res);
    expect(d.code).toBe("EXTRACTION_FIELDS_NEED_MODEL");
    expect(d.message).toContain('"Motive", "Victim age"');
    expect(d.message).not.toContain("Case number");
    expect(d.fields).toEqual([
      { name: "motive", label: "Motive" },
      { name: "victim_age", label: "Victim age" },
    ]);
    // allow_unextractable: false is no confirmation either.
    const no = await alice.post("/api/extractions", { schema_id: id, document_ids: docs, allow_unextractable: false });
    expect([no.status, (await detail(no)).code]).toEqual([422, "EXTRACTION_FIELDS_NEED_MODEL"]);
    expect((await pool.query("select count(*)::int as n from public.extraction_jobs")).rows[0].n).toBe(before);
  }, 120_000);

  it("runs when confirmed: those columns are not extractable, never blank values of a completed job", async () => {
    const id = await schema([
      { name: "case_number", type: "string" },
      { name: "motive", type: "string", required: true },
    ]);
    const made = await alice.post("/api/extractions", { schema_id: id, document_ids: docs, allow_unextractable: true });
    expect(made.status).toBe(202);
    const job = await finished((await made.json()).job_id);
    // rules-v1 reads the case number of the demo judgments, so something was filled; the required field that needs a
    // model does not fail the documents.
    expect(job).toMatchObject({ status: "completed", mode: "rules", reason: null, progress: { total: 5, done: 5, failed: 0 } });
    const r = await results(job.job_id);
    expect(r.mode).toBe("rules");
    const [caseNumber, motive] = r.fields;
    expect(motive).toEqual({ name: "motive", type: "string", label: "Motive", extractable: false, counts: { filled: 0, empty: 0, not_extractable: 5 } });
    expect(caseNumber).toMatchObject({ name: "case_number", extractable: true, counts: { not_extractable: 0 } });
    // The counts agree with the rows.
    const filled = r.results.filter((row) => row.values?.case_number !== null && row.values?.case_number !== undefined).length;
    expect(filled).toBeGreaterThan(0);
    expect(caseNumber.counts).toEqual({ filled, empty: 5 - filled, not_extractable: 0 });
    // The exports say so too: the CSV's cell, and each JSONL line's not_extractable.
    const csv = (await (await alice.get(`/api/extractions/${job.job_id}/export?format=csv`)).text()).replace(/^\uFEFF/, "").trimEnd().split("\r\n");
    expect(csv[0]).toBe("document_id,case_number,status,error,field:case_number,motive");
    expect(csv.slice(1).map((l) => l.split(",").at(-1))).toEqual(Array(5).fill("(needs a model)"));
    const jsonl = (await (await alice.get(`/api/extractions/${job.job_id}/export?format=jsonl`)).text()).trimEnd().split("\n").map((l) => JSON.parse(l));
    expect(jsonl.map((o) => o.not_extractable)).toEqual(Array(5).fill(["motive"]));
  }, 180_000);

  it("a confirmed job whose fields all need a model finishes completed_empty with the reason", async () => {
    const id = await schema([{ name: "motive", type: "string" }]);
    const made = await alice.post("/api/extractions", { schema_id: id, document_ids: docs.slice(0, 2), allow_unextractable: true });
    expect(made.status).toBe(202);
    const job = await finished((await made.json()).job_id);
    expect(job).toMatchObject({
      status: "completed_empty",
      error: null,
      reason: 'No field was filled in any judgment. Only a language model can fill "Motive"; none is configured.',
      progress: { total: 2, done: 2, failed: 0 },
    });
    const listed = await (await alice.get("/api/extractions?status=completed_empty")).json();
    expect(listed.jobs.map((j: { job_id: string }) => j.job_id)).toContain(job.job_id);
    expect((await results(job.job_id)).fields[0].counts).toEqual({ filled: 0, empty: 0, not_extractable: 2 });
    // The database holds the status and its reason (the check constraint admits it).
    const row = (await pool.query("select status, status_reason from public.extraction_jobs where id = $1", [job.job_id])).rows[0];
    expect(row).toEqual({ status: "completed_empty", status_reason: job.reason });
  }, 180_000);
});

describe("custom rules", () => {
  it("are stored with the schema, refused when unsafe, and need no confirmation", async () => {
    const unsafe = await alice.post("/api/schemas", { name: "unsafe", fields: [{ name: "x", type: "string", rule: { kind: "regex", pattern: "(\\w+\\s?)*$" } }] });
    expect(unsafe.status).toBe(422);
    expect(JSON.stringify(await unsafe.json())).toContain("may not repeat a group");
    const mismatch = await alice.post("/api/schemas", { name: "mismatch", fields: [{ name: "x", type: "boolean", rule: { kind: "number", cue: "aged" } }] });
    expect(mismatch.status).toBe(422);

    const rule = { kind: "keywords", keywords: ["zzqx-never-in-a-judgment"] };
    const id = await schema([{ name: "nothing_here", type: "boolean", rule }]);
    const stored = await (await alice.get(`/api/schemas/${id}`)).json();
    expect(stored.fields[0].rule).toEqual(rule);

    // A rule makes the field fillable: no 422, and when it finds nothing the job says so.
    const made = await alice.post("/api/extractions", { schema_id: id, document_ids: docs.slice(0, 2) });
    expect(made.status).toBe(202);
    const job = await finished((await made.json()).job_id);
    expect(job).toMatchObject({ status: "completed_empty", reason: 'No field was filled in any judgment. The rules found no value for "Nothing here".' });
    expect((await results(job.job_id)).fields[0]).toMatchObject({ extractable: true, counts: { filled: 0, empty: 2, not_extractable: 0 } });
  }, 180_000);

  it("are applied by the rules extractor: the values are what the rule reads in each judgment", async () => {
    // The docket's year (the digits after the slash of "II AKa 145/19", "… /19" in the demo corpus), as a number.
    const id = await schema([
      { name: "docket_year", type: "integer", rule: { kind: "regex", pattern: "\\b[IVX]+ [A-Za-z]+ \\d+/(\\d{2})\\b", case_sensitive: true } },
    ]);
    // Polish judgments, which carry a docket number; the expected values are read from their texts here.
    const pl = (await pool.query<{ id: string }>("select id from public.judgments where jurisdiction = 'PL' order by id limit 5")).rows.map((r) => r.id);
    const made = await alice.post("/api/extractions", { schema_id: id, document_ids: pl });
    expect(made.status).toBe(202);
    const job = await finished((await made.json()).job_id);
    const texts = (await pool.query<{ id: string; full_text: string }>("select id, full_text from public.judgments where id = any($1::uuid[])", [pl])).rows;
    const want = new Map(texts.map((t) => [t.id, (() => { const m = /\b[IVX]+ [A-Za-z]+ \d+\/(\d{2})\b/u.exec(t.full_text); return m ? Number(m[1]) : null; })()]));
    const r = (await (await alice.get(`/api/extractions/${job.job_id}/results?page_size=100`)).json()) as Results & { results: { document_id: string; values: { docket_year: number | null } }[] };
    for (const row of r.results) expect([row.document_id, row.values.docket_year]).toEqual([row.document_id, want.get(row.document_id)]);
    const filled = [...want.values()].filter((v) => v !== null).length;
    expect(filled).toBeGreaterThan(0);
    expect(r.fields[0].counts).toEqual({ filled, empty: pl.length - filled, not_extractable: 0 });
    expect(job.status).toBe("completed");
  }, 180_000);
});
