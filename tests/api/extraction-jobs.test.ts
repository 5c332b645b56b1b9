import { randomUUID } from "node:crypto";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedInVisitor, Visitor } from "./structured-visitor";
import { signedInBrowser } from "../helpers/http";
import { adminPool } from "../helpers/stack";
import { FIXTURES } from "../fixtures/extraction/judgments";
import { startInOneWindow } from "../helpers/rate-window";

/**
 * Postgres and the stack's real worker process (pg-boss): submit, idempotency,
 * progress to completed, results, the three exports (CSV formula guard, XLSX read back with exceljs, JSONL), cancel and
 * retry refusals, delete, another user's 404, validation, the 10-a-minute submission quota (retries count too), the
 * health entry, base-schema jobs (a user's leaves the shared judgment row unchanged, an admin's writes it), and the
 * admin's base-schema backfill.
 */
const pool = adminPool();
afterAll(() => pool.end());

let alice: Visitor;
let bob: Visitor;
let docs: string[] = [];
let schemaId = "";
beforeAll(async () => {
  ({ visitor: alice } = await signedInVisitor());
  ({ visitor: bob } = await signedInVisitor());
  docs = (await pool.query<{ id: string }>("select id from public.judgments order by id limit 6")).rows.map((r) => r.id);
  const s = await alice.post("/api/schemas", {
    name: "Jobs API",
    fields: [
      { name: "case_number", type: "string", description: "" },
      { name: "neutral_citation", type: "string", description: "" },
      { name: "judges", type: "string[]", description: "" },
    ],
  });
  expect(s.status).toBe(201);
  schemaId = (await s.json()).id;
}, 180_000);

/** Error bodies are {detail: {code, message, …}}. */
const code = async (res: Response) => ((await res.json()) as { detail: { code: string } }).detail.code;

async function until<T>(what: string, fn: () => Promise<T | null>, ms = 90_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function finished(v: Visitor, id: string) {
  return until(`job ${id} to finish`, async () => {
    const j = await (await v.get(`/api/extractions/${id}`)).json();
    return ["queued", "running"].includes(j.status) ? null : j;
  });
}

describe("extraction jobs need a session (401)", () => {
  it("every job route answers 401 without one", async () => {
    const anon = new Visitor();
    const id = randomUUID();
    const calls = [
      anon.get("/api/extractions"),
      anon.post("/api/extractions", { schema_id: "base", document_ids: [id] }),
      anon.get(`/api/extractions/${id}`),
      anon.delete(`/api/extractions/${id}`),
      anon.post(`/api/extractions/${id}/cancel`, {}),
      anon.post(`/api/extractions/${id}/retry`, {}),
      anon.get(`/api/extractions/${id}/results`),
      anon.get(`/api/extractions/${id}/export?format=csv`),
      anon.post("/api/admin/extractions/base-schema/backfill", {}),
    ];
    for (const res of await Promise.all(calls)) expect([res.url, res.status]).toEqual([res.url, 401]);
  }, 600_000); // the first call of each route compiles it under next dev
});

describe("an extraction job from submission to export", () => {
  it("runs on the worker, answers progress and results, exports CSV/XLSX/JSONL, and is the owner's only", async () => {
    const key = `api-${randomUUID()}`;
    const made = await alice.post("/api/extractions", { schema_id: schemaId, document_ids: docs, idempotency_key: key });
    expect(made.status).toBe(202);
    const job = await made.json();
    expect(job).toMatchObject({ status: "queued", mode: "rules", schema: { id: schemaId, version: 1 }, progress: { total: 6, done: 0, failed: 0 } });
    // The same key within 24 h answers the first job (200, not a second job).
    const again = await alice.post("/api/extractions", { schema_id: schemaId, document_ids: docs.slice(0, 2), idempotency_key: key });
    expect(again.status).toBe(200);
    expect((await again.json()).job_id).toBe(job.job_id);

    const done = await finished(alice, job.job_id);
    expect(done).toMatchObject({ status: "completed", progress: { total: 6, done: 6, failed: 0 } });
    expect(done.started_at).toBeTruthy();
    expect(done.finished_at).toBeTruthy();

    const list = await (await alice.get("/api/extractions?status=completed")).json();
    expect(list.jobs.map((j: { job_id: string }) => j.job_id)).toContain(job.job_id);
    expect((await (await bob.get("/api/extractions")).json()).total).toBe(0);

    const page = await (await alice.get(`/api/extractions/${job.job_id}/results?page=1&page_size=4`)).json();
    expect(page).toMatchObject({ total: 6, page: 1, has_more: true, fields: [{ name: "case_number" }, { name: "neutral_citation" }, { name: "judges" }] });
    expect(page.results).toHaveLength(4);
    const caseNumbers = (await pool.query<{ id: string; case_number: string }>("select id, case_number from public.judgments where id = any($1::uuid[])", [docs])).rows;
    for (const r of page.results) {
      expect(r).toMatchObject({ status: "completed", model: "rules-v1", attempts: 1 });
      expect(r.values.case_number).toBe(caseNumbers.find((c) => c.id === r.document_id)!.case_number);
    }

    // A value a spreadsheet would run as a formula is planted; the CSV must neutralise it.
    await pool.query(
      `update public.extraction_job_documents set "values" = jsonb_set("values", '{case_number}', '"=HYPERLINK(\\"http://x\\",\\"y\\")"')
        where job_id = $1 and document_id = $2`,
      [job.job_id, docs[0]],
    );
    const csv = await alice.get(`/api/extractions/${job.job_id}/export?format=csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(csv.headers.get("content-disposition")).toContain(`extraction-${job.job_id}.csv`);
    const text = await csv.text();
    const lines = text.replace(/^\uFEFF/, "").trimEnd().split("\r\n");
    // The schema's own case_number field is told apart from the fixed column.
    expect(lines[0]).toBe("document_id,case_number,status,error,field:case_number,neutral_citation,judges");
    expect(lines).toHaveLength(7);
    const planted = lines.find((l) => l.startsWith(docs[0]))!;
    expect(planted).toContain(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(lines.slice(1).every((l) => !/,[=+\-@]/.test(l))).toBe(true);

    const xlsx = await alice.get(`/api/extractions/${job.job_id}/export?format=xlsx`);
    expect(xlsx.status).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(await xlsx.arrayBuffer()) as unknown as ExcelJS.Buffer);
    const ws = wb.worksheets[0];
    expect(ws.rowCount).toBe(7);
    expect(ws.getRow(1).values).toEqual([undefined, "document_id", "case_number", "status", "error", "field:case_number", "neutral_citation", "judges"]);
    const row = [...Array(6).keys()].map((i) => ws.getRow(i + 2)).find((r) => r.getCell(1).value === docs[0])!;
    // The planted text stays text (a string cell, never a formula cell), guarded as in the CSV: a sheet saved back to
    // CSV from a spreadsheet would otherwise carry the formula.
    expect(row.getCell(5).value).toBe(`'=HYPERLINK("http://x","y")`);
    expect(row.getCell(5).type).toBe(ExcelJS.ValueType.String);

    const jsonl = await (await alice.get(`/api/extractions/${job.job_id}/export?format=jsonl`)).text();
    const objects = jsonl.trimEnd().split("\n").map((l) => JSON.parse(l));
    expect(objects).toHaveLength(6);
    expect(objects[0]).toMatchObject({ status: "completed", model: "rules-v1" });

    // Bob: the same 404 as an id that does not exist.
    for (const res of [await bob.get(`/api/extractions/${job.job_id}`), await bob.get(`/api/extractions/${job.job_id}/export?format=csv`), await bob.delete(`/api/extractions/${job.job_id}`)]) {
      expect(res.status).toBe(404);
      expect(await code(res)).toBe("EXTRACTION_JOB_NOT_FOUND");
    }

    const cancel = await alice.post(`/api/extractions/${job.job_id}/cancel`, {});
    expect([cancel.status, await code(cancel)]).toEqual([409, "EXTRACTION_JOB_FINISHED"]);
    const retry = await alice.post(`/api/extractions/${job.job_id}/retry`, {});
    expect([retry.status, await code(retry)]).toEqual([409, "EXTRACTION_NOTHING_TO_RETRY"]);
    expect((await alice.delete(`/api/extractions/${job.job_id}`)).status).toBe(204);
    expect((await alice.get(`/api/extractions/${job.job_id}`)).status).toBe(404);
  }, 240_000);

  it("runs over a collection", async () => {
    const col = await (await alice.post("/api/collections", { name: `jobs ${randomUUID().slice(0, 6)}` })).json();
    for (const d of docs.slice(0, 3)) expect((await alice.post(`/api/collections/${col.id}/documents`, { document_id: d })).status).toBe(200);
    const made = await alice.post("/api/extractions", { schema_id: schemaId, collection_id: col.id });
    expect(made.status).toBe(202);
    const done = await finished(alice, (await made.json()).job_id);
    expect(done).toMatchObject({ status: "completed", progress: { total: 3, done: 3 } });
    const other = await bob.post("/api/extractions", { schema_id: "base", collection_id: col.id });
    expect([other.status, await code(other)]).toEqual([404, "COLLECTION_NOT_FOUND"]);
  }, 180_000);

  it("refuses bad submissions with a clear 4xx and creates nothing", async () => {
    const before = (await pool.query("select count(*)::int as n from public.extraction_jobs")).rows[0].n;
    const cases: [unknown, number, string][] = [
      [{ schema_id: schemaId }, 422, "VALIDATION_ERROR"],
      [{ schema_id: schemaId, document_ids: docs, collection_id: randomUUID() }, 422, "VALIDATION_ERROR"],
      [{ schema_id: schemaId, document_ids: [] }, 422, "VALIDATION_ERROR"],
      [{ schema_id: schemaId, document_ids: Array.from({ length: 5001 }, () => randomUUID()) }, 422, "VALIDATION_ERROR"],
      [{ schema_id: "not-a-uuid", document_ids: docs }, 422, "VALIDATION_ERROR"],
      [{ schema_id: schemaId, document_ids: [randomUUID()] }, 422, "EXTRACTION_DOCUMENTS_NOT_FOUND"],
      [{ schema_id: randomUUID(), document_ids: docs }, 404, "SCHEMA_NOT_FOUND"],
    ];
    for (const [body, status, want] of cases) {
      const res = await alice.post("/api/extractions", body);
      expect([res.status, await code(res)]).toEqual([status, want]);
    }
    expect((await alice.get("/api/extractions/not-a-uuid")).status).toBe(400);
    expect((await pool.query("select count(*)::int as n from public.extraction_jobs")).rows[0].n).toBe(before);
  }, 120_000);
});

describe("the submission quota", () => {
  it("10 submissions a minute per user, then the reference 429 with Retry-After; a retry counts against the same quota", async () => {
    await startInOneWindow(60, 30);
    const { visitor: carl, user } = await signedInVisitor();
    const key = `quota-${randomUUID()}`;
    // One job and nine answers of the same idempotency key: ten submissions, and the running limit (3) never in the way.
    const statuses: number[] = [];
    let jobId = "";
    for (let i = 0; i < 10; i++) {
      const res = await carl.post("/api/extractions", { schema_id: "base", document_ids: docs.slice(0, 1), idempotency_key: key });
      statuses.push(res.status);
      jobId ||= (await res.json()).job_id;
    }
    expect(statuses).toEqual([202, ...Array(9).fill(200)]);
    for (const res of [
      await carl.post("/api/extractions", { schema_id: "base", document_ids: docs.slice(0, 1), idempotency_key: `other-${randomUUID()}` }),
      await carl.post(`/api/extractions/${jobId}/retry`, {}),
    ]) {
      expect([res.url, res.status]).toEqual([res.url, 429]);
      const body = await res.json();
      expect(body).toMatchObject({ error: "RateLimitExceeded", status_code: 429 });
      expect(typeof body.message).toBe("string");
      expect(body.retry_after).toBeGreaterThan(0);
      expect(Number(res.headers.get("retry-after"))).toBe(body.retry_after);
    }
    // The refused submission created nothing.
    expect((await pool.query("select count(*)::int as n from public.extraction_jobs where user_id = $1", [user.id])).rows[0].n).toBe(1);
    await finished(carl, jobId);
  }, 180_000);
});

describe("base-schema jobs and the shared judgments rows", () => {
  /** A judgment of this test's own whose base_ columns already hold a model's values. */
  async function extractedJudgment(): Promise<string> {
    const uk = FIXTURES.find((f) => f.truth.neutral_citation)!;
    const { rows } = await pool.query<{ id: string }>("insert into public.judgments (full_text, jurisdiction) values ($1, 'UK') returning id", [uk.text]);
    await pool.query(
      `update public.judgments set base_extraction_status = 'completed', base_extraction_model = 'model-x', base_neutral_citation_number = 'PRESET',
         base_raw_extraction = '{"neutral_citation_number": "PRESET"}', base_appellant = 'offender', base_extracted_at = now() - interval '1 day'
       where id = $1`,
      [rows[0].id],
    );
    return rows[0].id;
  }
  const baseRow = async (id: string) =>
    (await pool.query<{ j: Record<string, unknown> }>(
      `select jsonb_object_agg(e.key, e.value) filter (where e.key like 'base\\_%' or e.key = 'updated_at') as j
         from public.judgments jd, jsonb_each(to_jsonb(jd)) e where jd.id = $1`,
      [id],
    )).rows[0].j;

  it("a user's base job keeps its values in the job (results, export) and leaves the judgment row unchanged", async () => {
    const jid = await extractedJudgment();
    try {
      const before = await baseRow(jid);
      const made = await alice.post("/api/extractions", { schema_id: "base", document_ids: [jid] });
      expect(made.status).toBe(202);
      const job = await made.json();
      expect(job).toMatchObject({ schema: { id: "base", key: "base" }, writes_judgments: false });
      expect(await finished(alice, job.job_id)).toMatchObject({ status: "completed" });
      const page = await (await alice.get(`/api/extractions/${job.job_id}/results`)).json();
      expect(page.results).toHaveLength(1);
      expect(page.results[0]).toMatchObject({ document_id: jid, status: "completed", model: "rules-v1" });
      expect(page.results[0].values.neutral_citation_number).toBeTruthy();
      expect(page.results[0].values.neutral_citation_number).not.toBe("PRESET");
      const jsonl = JSON.parse((await (await alice.get(`/api/extractions/${job.job_id}/export?format=jsonl`)).text()).trim());
      expect(jsonl.values.neutral_citation_number).toBe(page.results[0].values.neutral_citation_number);
      expect(await baseRow(jid)).toEqual(before);
    } finally {
      await pool.query("delete from public.judgments where id = $1", [jid]);
    }
  }, 180_000);

  it("an admin's base job writes the judgment's base_ columns through promotion", async () => {
    const jid = await extractedJudgment();
    try {
      const { browser: admin } = await signedInBrowser({ admin: true });
      const made = await admin.post("/api/extractions", { schema_id: "base", document_ids: [jid] });
      expect(made.status).toBe(202);
      const job = await made.json();
      expect(job.writes_judgments).toBe(true);
      expect(await finished(admin, job.job_id)).toMatchObject({ status: "completed" });
      const row = await baseRow(jid);
      const results = (await (await admin.get(`/api/extractions/${job.job_id}/results`)).json()).results;
      expect(row).toMatchObject({
        base_extraction_status: "completed",
        base_extraction_model: "rules-v1",
        base_neutral_citation_number: results[0].values.neutral_citation_number,
      });
      expect(row.base_neutral_citation_number).not.toBe("PRESET");
    } finally {
      await pool.query("delete from public.judgments where id = $1", [jid]);
    }
  }, 180_000);
});

describe("the queue in health and the admin's base-schema backfill", () => {
  it("health reports the queue ok (pg-boss schema present, a live worker's heartbeat); admins see the detail", async () => {
    await until("a worker heartbeat", async () => {
      const body = await (await new Visitor().get("/api/health/status")).json();
      return body.dependencies?.task_queue?.status === "ok" ? true : null;
    });
    const { browser: admin } = await signedInBrowser({ admin: true });
    const t = (await (await admin.get("/api/health/status")).json()).dependencies.task_queue;
    expect(t.status).toBe("ok");
    expect(t.detail).toMatch(/^pg-boss; worker heartbeat \d+ s ago; \d+ queued, \d+ running$/);
  }, 120_000);

  it("backfill: admins only; runs base-schema extraction over the pending judgments", async () => {
    expect((await alice.post("/api/admin/extractions/base-schema/backfill", {})).status).toBe(403);
    const uk = FIXTURES.find((f) => f.truth.neutral_citation)!;
    const { rows } = await pool.query<{ id: string }>("insert into public.judgments (full_text, jurisdiction) values ($1, 'UK') returning id", [uk.text]);
    try {
      // Only the newest pending judgment (the one inserted above): the corpus's other pending judgments are shared with
      // the suites running beside this one (aggregates, discovery) and must stay as they are.
      const others = (await pool.query<{ id: string }>("select id from public.judgments where base_extraction_status = 'pending' and id <> $1", [rows[0].id])).rows.map((r) => r.id);
      expect(others.length).toBeGreaterThan(0);
      const { browser: admin } = await signedInBrowser({ admin: true });
      expect((await admin.post("/api/admin/extractions/base-schema/backfill", { limit: 0 })).status).toBe(422);
      const res = await admin.post("/api/admin/extractions/base-schema/backfill", { limit: 1 });
      expect(res.status).toBe(202);
      const job = await res.json();
      expect(job).toMatchObject({ schema: { id: "base", key: "base" }, progress: { total: 1 } });
      expect(await finished(admin, job.job_id)).toMatchObject({ status: "completed" });
      const j = (await pool.query("select base_extraction_status, base_extraction_model, base_neutral_citation_number from public.judgments where id = $1", [rows[0].id])).rows[0];
      expect(j).toEqual({ base_extraction_status: "completed", base_extraction_model: "rules-v1", base_neutral_citation_number: uk.truth.neutral_citation });
      // Every other judgment that was pending still is (those another suite deleted meanwhile are not counted).
      const after = (await pool.query("select count(*) filter (where base_extraction_status = 'pending')::int as pending, count(*)::int as n from public.judgments where id = any($1::uuid[])", [others])).rows[0];
      expect(after.pending).toBe(after.n);
    } finally {
      await pool.query("delete from public.judgments where id = $1", [rows[0].id]);
    }
  }, 180_000);
});
