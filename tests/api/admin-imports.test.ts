/**
 * The admin Imports page's API over real HTTP (/api/admin/imports, docs/admin.md "Imports"): admins only; an upload of
 * a real sample (tests/fixtures/real-formats) is stored, run by the stack's worker through the importer and recorded
 * with its counts; a file past IMPORT_UPLOAD_MAX_BYTES (512 KiB on the test app) is a 413 that leaves nothing; a file
 * of the wrong source is a run with a rejected file, never a 500; and a command-line import is recorded too.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, signedInBrowser } from "../helpers/http";
import { adminPool, stackEnv } from "../helpers/stack";
import { appEnv } from "../helpers/test-app";

const pool = adminPool();
const FIX = path.join(process.cwd(), "tests/fixtures/real-formats");
// The real Constitutional Tribunal dump item under an id of this suite's own, so the importer suites beside it (which
// import and delete the sample's own id) never see or remove this row.
const SAOS_ID = `${900_000_000 + (process.pid % 100_000)}`;
const SAOS_ITEM = readFileSync(path.join(FIX, "saos/dump-item-205374.constitutional-tribunal.json"), "utf8").replace(/"id": 205374,/, `"id": ${SAOS_ID},`);
const FCL_XML = readFileSync(path.join(FIX, "uk-find-case-law/ewca-civ-2025-673.enriched.akn.xml"), "utf8");
const CAP = 512 * 1024;

type Signed = Awaited<ReturnType<typeof signedInBrowser>>;
let user: Signed;
let admin: Signed;

interface Run {
  id: string;
  source: string;
  origin: string;
  status: string;
  inputs: string[];
  read: number;
  inserted: number;
  updated: number;
  skipped: number;
  rejected: number;
  rejections?: { file: string; record?: number; reason: string }[];
}

async function cleanup() {
  await pool.query("delete from public.judgments where source = 'saos' and source_id = $1", [SAOS_ID]);
}
beforeAll(async () => {
  await cleanup();
  [user, admin] = await Promise.all([signedInBrowser(), signedInBrowser({ admin: true })]);
}, 60_000);
afterAll(async () => {
  await cleanup();
  await pool.end();
});

const upload = (b: Browser, source: string, name: string, body: string, headers: Record<string, string> = {}) =>
  b.request("POST", `/api/admin/imports?source=${source}&name=${encodeURIComponent(name)}`, body, { "content-type": "application/octet-stream", ...headers });

/** The same body sent chunked, with no Content-Length: the cap is met while streaming. */
function chunkedUpload(b: Browser, p: string, body: string): Promise<{ status: number; text: string }> {
  const url = new URL(p, b.baseUrl);
  const cookie = b.cookieNames().map((n) => `${n}=${b.cookie(n)}`).join("; ");
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = http.request(
      { host: url.hostname, port: url.port, path: url.pathname + url.search, method: "POST", localAddress: b.address, headers: { cookie, "content-type": "application/octet-stream", "transfer-encoding": "chunked" } },
      (res) => {
        answered = true;
        let text = "";
        res.on("data", (c) => (text += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on("error", (e) => {
      if (!answered) reject(e);
    });
    let at = 0;
    const next = () => {
      if (req.destroyed) return;
      if (at >= body.length) return void req.end();
      const chunk = body.slice(at, (at += 16 * 1024));
      req.write(chunk, () => setImmediate(next));
    };
    next();
  });
}

async function runCount(): Promise<number> {
  return (await pool.query<{ n: number }>("select count(*)::int n from public.import_runs")).rows[0].n;
}

/** The run as the page reads it, once the worker has finished it. */
async function finished(id: string): Promise<Run> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const res = await admin.browser.get(`/api/admin/imports/${id}`);
    expect(res.status).toBe(200);
    const run = (await res.json()) as Run;
    if (run.status === "succeeded" || run.status === "failed") return run;
    if (Date.now() > deadline) throw new Error(`run ${id} still ${run.status}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

describe("admins only", () => {
  it.each([
    ["GET", "/api/admin/imports"],
    ["GET", "/api/admin/imports/00000000-0000-4000-8000-000000000000"],
    ["POST", "/api/admin/imports?source=saos&name=x.json"],
  ])("%s %s: 401 anonymous, 403 FORBIDDEN for a user", async (method, p) => {
    const body = method === "POST" ? SAOS_ITEM : undefined;
    const headers: Record<string, string> = method === "POST" ? { "content-type": "application/octet-stream" } : {};
    expect((await new Browser().request(method, p, body, headers)).status).toBe(401);
    const asUser = await user.browser.request(method, p, body, headers);
    expect(asUser.status).toBe(403);
    expect(((await asUser.json()) as { detail: { code: string } }).detail.code).toBe("FORBIDDEN");
  });
});

describe("POST /api/admin/imports", () => {
  it("a real SAOS sample: queued, run by the worker, recorded with its counts, the judgment stored with its case number", async () => {
    const res = await upload(admin.browser, "auto", "dump-item.json", SAOS_ITEM);
    expect(res.status, await res.clone().text()).toBe(202);
    const queued = (await res.json()) as Run;
    expect(queued).toMatchObject({ source: "saos", origin: "upload", inputs: ["dump-item.json"] });
    const run = await finished(queued.id);
    expect(run).toMatchObject({ status: "succeeded", read: 1, inserted: 1, updated: 0, skipped: 0, rejected: 0, rejections: [] });
    const { rows } = await pool.query<{ case_number: string }>("select case_number from public.judgments where source = 'saos' and source_id = $1", [SAOS_ID]);
    expect(rows[0]?.case_number).toBe("U 3/86");

    // The same file again: nothing new, the record skipped.
    const again = (await (await upload(admin.browser, "saos", "dump-item.json", SAOS_ITEM)).json()) as Run;
    expect(await finished(again.id)).toMatchObject({ status: "succeeded", read: 1, inserted: 0, skipped: 1, rejected: 0 });

    // Listed newest first.
    const list = (await (await admin.browser.get("/api/admin/imports?limit=5")).json()) as { items: Run[]; page: number; pages: number; total: number };
    expect(list.items[0].id).toBe(again.id);
    expect(list.items.map((r) => r.id)).toContain(queued.id);
    expect(list.total).toBeGreaterThanOrEqual(2);
  }, 120_000);

  it("a file of the wrong source is a run with the file rejected, not a 500", async () => {
    const res = await upload(admin.browser, "saos", "judgment.xml", FCL_XML);
    expect(res.status).toBe(202);
    const run = await finished(((await res.json()) as Run).id);
    expect(run).toMatchObject({ status: "succeeded", source: "saos", read: 0, inserted: 0, rejected: 1 });
    expect(run.rejections?.[0]).toMatchObject({ file: "judgment.xml", reason: expect.stringContaining("fcl") });
  }, 90_000);

  it("past the size limit: 413 BODY_TOO_LARGE, declared or streamed, and nothing is recorded", async () => {
    const before = await runCount();
    const big = "x".repeat(CAP + 1);
    const declared = await upload(admin.browser, "saos", "big.json", big);
    expect(declared.status).toBe(413);
    expect(((await declared.json()) as { detail: { code: string } }).detail.code).toBe("BODY_TOO_LARGE");
    const chunked = await chunkedUpload(admin.browser, "/api/admin/imports?source=saos&name=big.json", big);
    expect(chunked.status).toBe(413);
    expect(await runCount()).toBe(before);
  });

  it("a source that cannot be told is a 422 IMPORT_SOURCE_UNDETECTED; a non-file body type is a 415", async () => {
    const res = await upload(admin.browser, "auto", "notes.json", JSON.stringify({ hello: "world" }));
    expect(res.status).toBe(422);
    expect(((await res.json()) as { detail: { code: string } }).detail.code).toBe("IMPORT_SOURCE_UNDETECTED");
    const form = await upload(admin.browser, "saos", "x.json", SAOS_ITEM, { "content-type": "text/plain" });
    expect(form.status).toBe(415);
  });

  it("under RLS a signed-in non-admin reads no run, an admin reads them", async () => {
    const asRole = async (claims: Record<string, unknown>) => {
      const c = await pool.connect();
      try {
        await c.query("begin");
        await c.query("select set_config('request.jwt.claims', $1, true)", [JSON.stringify(claims)]);
        await c.query("set local role authenticated");
        return (await c.query<{ n: number }>("select count(*)::int n from public.import_runs")).rows[0].n;
      } finally {
        await c.query("rollback");
        c.release();
      }
    };
    expect(await runCount()).toBeGreaterThan(0);
    expect(await asRole({ sub: user.user.id, role: "authenticated", app_metadata: {} })).toBe(0);
    expect(await asRole({ sub: admin.user.id, role: "authenticated", app_metadata: { role: "admin" } })).toBe(await runCount());
  });

  it("an unknown run is a 404 IMPORT_RUN_NOT_FOUND", async () => {
    const res = await admin.browser.get("/api/admin/imports/00000000-0000-4000-8000-000000000000");
    expect(res.status).toBe(404);
    expect(((await res.json()) as { detail: { code: string } }).detail.code).toBe("IMPORT_RUN_NOT_FOUND");
  });
});

describe("the command's runs are recorded", () => {
  it("npm run import: a cli run with its counts and the rejected record's reason", async () => {
    // The SAOS sample dated 2101: rejected, so this writes no judgment another suite could see.
    const file = path.join(FIX, "saos/api-judgments-227221.common-court.json");
    const started = new Date();
    const { stdout } = await promisify(execFile)("npx", ["tsx", "server/cli/import.ts", "saos", file, "--no-sync"], { env: appEnv(stackEnv()) }).catch(
      (e: { stdout: string; code: number }) => {
        expect(e.code).toBe(3);
        return { stdout: e.stdout };
      },
    );
    const summary = JSON.parse(stdout.trim().split("\n").pop() as string) as { rejected: number; run_id: string };
    expect(summary.rejected).toBe(1);
    const res = await admin.browser.get(`/api/admin/imports/${summary.run_id}`);
    const run = (await res.json()) as Run & { created_at: string };
    expect(run).toMatchObject({ origin: "cli", source: "saos", status: "succeeded", read: 1, inserted: 0, rejected: 1, inputs: [file] });
    expect(run.rejections?.[0]).toMatchObject({ record: 1, reason: expect.stringContaining("2101") });
    expect(new Date(run.created_at).getTime()).toBeGreaterThanOrEqual(started.getTime() - 5_000);
  }, 60_000);

  it("a run whose process died shows as interrupted, and the next run records it so; a live run stays running", async () => {
    const insert = (age: string) =>
      pool
        .query<{ id: string }>(
          `insert into public.import_runs (source, origin, status, inputs, started_at, updated_at)
           values ('saos', 'cli', 'running', '{/tmp/died.json}', now() - $1::interval, now() - $1::interval) returning id`,
          [age],
        )
        .then((r) => r.rows[0].id);
    const [died, live] = [await insert("3 minutes"), await insert("10 seconds")];
    try {
      const shown = async (id: string) => ((await (await admin.browser.get(`/api/admin/imports/${id}`)).json()) as Run & { error: string | null });
      expect((await shown(died)).status).toBe("interrupted");
      expect((await shown(live)).status).toBe("running");
      const list = (await (await admin.browser.get("/api/admin/imports?limit=100")).json()) as { items: Run[] };
      expect(list.items.find((r) => r.id === died)?.status).toBe("interrupted");
      // The next run of an importer writes the interruption down (the 2101 sample: rejected, writes no judgment).
      await promisify(execFile)("npx", ["tsx", "server/cli/import.ts", "saos", path.join(FIX, "saos/api-judgments-227221.common-court.json"), "--no-sync"], {
        env: appEnv(stackEnv()),
      }).catch((e: { code: number }) => expect(e.code).toBe(3));
      const stored = await pool.query<{ id: string; status: string; error: string | null; finished_at: Date | null }>(
        "select id, status, error, finished_at from public.import_runs where id = any($1::uuid[])",
        [[died, live]],
      );
      const byId = new Map(stored.rows.map((r) => [r.id, r]));
      expect(byId.get(died)).toMatchObject({ status: "interrupted", error: expect.stringContaining("resumes") });
      expect(byId.get(died)?.finished_at).not.toBeNull();
      expect(byId.get(live)?.status).toBe("running");
      expect((await shown(died)).error).toContain("stopped before the run finished");
    } finally {
      await pool.query("delete from public.import_runs where id = any($1::uuid[])", [[died, live]]);
    }
  }, 60_000);
});
