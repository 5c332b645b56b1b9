/**
 * The `merged` status of reasoning lines (docs/analytics.md "Reasoning lines: lifecycle"). The spec's
 * access table is the whole web surface, so merging is done by the admin operation that detects it:
 * POST /detect-events absorbs the smaller of two lines sharing at least half of its members into the other.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, signedInBrowser } from "../helpers/http";
import { adminPool } from "../helpers/stack";

const pool = adminPool();
let docs: string[] = [];
afterAll(async () => {
  await pool.query("delete from public.reasoning_lines where label = any($1)", [["merge survivor", "merge absorbed"]]);
  await pool.end();
});

let user: Browser;
let admin: Browser;
let big: string;
let small: string;

beforeAll(async () => {
  ({ browser: user } = await signedInBrowser());
  ({ browser: admin } = await signedInBrowser({ admin: true }));
  // Judgments no other reasoning-line suite uses (they take the first ids).
  docs = (await pool.query<{ id: string }>("select id::text from public.judgments where base_extraction_status = 'completed' order by id desc limit 6")).rows.map((r) => r.id);
  const create = async (label: string, ids: string[]) => {
    const res = await admin.post("/api/reasoning-lines/create", { label, keywords: ["merge"], judgment_ids: ids });
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: string }).id;
  };
  big = await create("merge survivor", docs.slice(0, 4));
  // Shares 2 of its 3 members with the bigger line: absorbed.
  small = await create("merge absorbed", [docs[2], docs[3], docs[4]]);
});

describe("reasoning lines: merge", () => {
  it("detect-events absorbs the smaller line: members moved, status merged, a merge event on both", async () => {
    expect((await user.post("/api/reasoning-lines/detect-events", { line_ids: [big, small] })).status).toBe(403);
    const res = await admin.post("/api/reasoning-lines/detect-events", { line_ids: [big, small] });
    expect(res.status).toBe(200);
    const body = await res.json();
    const merges = body.events.filter((e: { kind: string }) => e.kind === "merge");
    expect(merges).toHaveLength(2);

    const survivor = await (await user.get(`/api/reasoning-lines/${big}`)).json();
    expect(survivor.status).toBe("active");
    expect(survivor.members.map((m: { judgment_id: string }) => m.judgment_id).sort()).toEqual(docs.slice(0, 5).sort());
    expect(survivor.members.filter((m: { role: string }) => m.role === "origin")).toHaveLength(1);
    expect(survivor.members.map((m: { position: number }) => m.position)).toEqual([0, 1, 2, 3, 4]);
    expect(survivor.events.find((e: { kind: string }) => e.kind === "merge").details).toMatchObject({ absorbed: small, shared_members: 2, moved_members: 1 });

    // The absorbed line keeps its members and says where it went; an old link still opens it.
    const gone = await user.get(`/api/reasoning-lines/${small}`);
    expect(gone.status).toBe(200);
    const absorbed = await gone.json();
    expect(absorbed).toMatchObject({ status: "merged", member_count: 3 });
    expect(absorbed.events.find((e: { kind: string }) => e.kind === "merge").details).toMatchObject({ merged_into: big });
  });

  it("lists, search and the DAG skip merged lines; admins see them with include_deleted", async () => {
    const ids = (list: { lines: { id: string }[] }) => list.lines.map((l) => l.id);
    expect(ids(await (await user.get("/api/reasoning-lines?limit=100")).json())).not.toContain(small);
    expect(ids(await (await user.get("/api/reasoning-lines?limit=100&include_deleted=true")).json())).not.toContain(small);
    expect(ids(await (await admin.get("/api/reasoning-lines?limit=100&include_deleted=true")).json())).toContain(small);
    const dag = await (await user.get("/api/reasoning-lines/dag")).json();
    expect(JSON.stringify(dag)).not.toContain(small);
    const found = await (await user.post("/api/reasoning-lines/search", { q: "merge absorbed" })).json();
    expect(JSON.stringify(found)).not.toContain(small);
  });

  it("a merge happens once: running detection again stores no new merge and is audited once", async () => {
    const again = await (await admin.post("/api/reasoning-lines/detect-events", { line_ids: [big, small] })).json();
    expect(again.events.filter((e: { kind: string }) => e.kind === "merge")).toEqual([]);
    const { rows } = await pool.query("select before, after from public.admin_audit_log where action = 'reasoning_line.merge' and target_id = $1", [small]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ before: { status: "active" }, after: { status: "merged", into: big } });
  });
});
