import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedInVisitor, Visitor } from "./structured-visitor";
import { adminPool } from "../helpers/stack";

const pool = adminPool();
afterAll(() => pool.end());

let alice: Visitor;
let bob: Visitor;
let docs: string[] = [];

beforeAll(async () => {
  ({ visitor: alice } = await signedInVisitor());
  ({ visitor: bob } = await signedInVisitor());
  docs = (await pool.query<{ id: string }>("select id::text from public.judgments order by id limit 120")).rows.map((r) => r.id);
});

async function detail(res: Response) {
  return ((await res.json()) as { detail: Record<string, unknown> }).detail;
}

async function createAs(b: Visitor, name = "Cohort") {
  const res = await b.post("/api/collections", { name, description: "for tests" });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; name: string; document_count: number; user_id: string };
}

describe("collections need a session (401, D-03)", () => {
  it("every collections route answers 401 without one", async () => {
    const anon = new Visitor();
    const id = randomUUID();
    const calls = [
      anon.get("/api/collections"),
      anon.post("/api/collections", { name: "x" }),
      anon.get(`/api/collections/${id}`),
      anon.patch(`/api/collections/${id}`, { name: "x" }),
      anon.delete(`/api/collections/${id}`),
      anon.get(`/api/collections/${id}/documents`),
      anon.post(`/api/collections/${id}/documents`, { document_id: docs[0] }),
      anon.delete(`/api/collections/${id}/documents`, { document_ids: [docs[0]] }),
      anon.post(`/api/collections/${id}/documents/batch`, { document_ids: [docs[0]] }),
      anon.post("/api/collections/from-filter", { name: "x", filters: {} }),
    ];
    for (const res of await Promise.all(calls)) expect([res.url, res.status]).toEqual([res.url, 401]);
  });
});

describe("collections CRUD", () => {
  it("creates, lists, reads, renames, clears the description, deletes", async () => {
    const col = await createAs(alice, "  Burglary 2019  ");
    expect(col).toMatchObject({ name: "Burglary 2019", document_count: 0 });
    const list = await (await alice.get("/api/collections")).json();
    expect(list.total).toBe(list.collections.length);
    expect(list.collections.map((c: { id: string }) => c.id)).toContain(col.id);

    expect(await (await alice.get(`/api/collections/${col.id}`)).json()).toMatchObject({ id: col.id, description: "for tests" });
    const patched = await alice.patch(`/api/collections/${col.id}`, { name: "Renamed", description: null });
    expect(patched.status).toBe(200);
    expect(await patched.json()).toMatchObject({ name: "Renamed", description: null });

    expect((await alice.delete(`/api/collections/${col.id}`)).status).toBe(204);
    const gone = await alice.get(`/api/collections/${col.id}`);
    expect([gone.status, (await detail(gone)).code]).toEqual([404, "COLLECTION_NOT_FOUND"]);
  });

  it("another user's collection is a plain 404 everywhere, and stays untouched", async () => {
    const col = await createAs(alice, "Private");
    await alice.post(`/api/collections/${col.id}/documents`, { document_id: docs[0] });
    const calls = [
      bob.get(`/api/collections/${col.id}`),
      bob.patch(`/api/collections/${col.id}`, { name: "pwned" }),
      bob.delete(`/api/collections/${col.id}`),
      bob.get(`/api/collections/${col.id}/documents`),
      bob.post(`/api/collections/${col.id}/documents`, { document_id: docs[1] }),
      bob.delete(`/api/collections/${col.id}/documents`, { document_ids: [docs[0]] }),
      bob.post(`/api/collections/${col.id}/documents/batch`, { document_ids: [docs[1]] }),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(404);
      const d = await detail(res);
      expect(d.code).toBe("COLLECTION_NOT_FOUND");
      expect(JSON.stringify(d)).not.toContain(col.id);
    }
    expect((await (await bob.get("/api/collections")).json()).collections.map((c: { id: string }) => c.id)).not.toContain(col.id);
    expect(await (await alice.get(`/api/collections/${col.id}`)).json()).toMatchObject({ name: "Private", document_count: 1 });
  });

  it("a path id that is not a UUID is 400 INVALID_COLLECTION_ID before any lookup", async () => {
    for (const res of [await alice.get("/api/collections/not-a-uuid"), await alice.get("/api/collections/123/documents")]) {
      expect([res.status, (await detail(res)).code]).toEqual([400, "INVALID_COLLECTION_ID"]);
    }
  });

  it("validates names (1-255), descriptions (≤1000) and patches (422)", async () => {
    // Changed on purpose (spec audit defect 12): create now accepts tags[] (R-END-142), so `tags: []`
    // is no longer refused; an invalid tag (longer than 50 characters) is, and so is an unknown key.
    const bad = [
      { name: "" },
      { name: "   " },
      { name: "x".repeat(256) },
      { name: "ok", description: "d".repeat(1001) },
      {},
      { name: "ok", tags: ["t".repeat(51)] },
      { name: "ok", colour: "red" },
    ];
    for (const body of bad) {
      const res = await alice.post("/api/collections", body);
      expect([JSON.stringify(body).slice(0, 40), res.status]).toEqual([JSON.stringify(body).slice(0, 40), 422]);
      expect((await detail(res)).code).toBe("VALIDATION_ERROR");
    }
    expect((await alice.post("/api/collections", { name: "x".repeat(255), description: "d".repeat(1000) })).status).toBe(201);
    const col = await createAs(alice);
    expect((await alice.patch(`/api/collections/${col.id}`, {})).status).toBe(422);
    expect((await alice.patch(`/api/collections/${col.id}`, { name: "" })).status).toBe(422);
  });
});

describe("collection documents", () => {
  it("adds one, adds a batch (upsert), lists with paging, removes", async () => {
    const col = await createAs(alice, "Docs");
    const one = await alice.post(`/api/collections/${col.id}/documents`, { document_id: docs[0] });
    expect([one.status, await one.json()]).toEqual([200, { added_count: 1 }]);
    const again = await alice.post(`/api/collections/${col.id}/documents`, { document_id: docs[0] });
    expect(await again.json()).toEqual({ added_count: 0 });

    const batch = await alice.post(`/api/collections/${col.id}/documents/batch`, { document_ids: docs.slice(0, 100) });
    expect([batch.status, await batch.json()]).toEqual([200, { added_count: 99, requested: 100 }]);

    const page = await (await alice.get(`/api/collections/${col.id}/documents?limit=30&offset=90`)).json();
    expect(page).toMatchObject({ total: 100, limit: 30, offset: 90, has_more: false });
    expect(page.documents.length).toBe(10);
    expect(Object.keys(page.documents[0]).sort()).toEqual(["added_at", "case_number", "decision_date", "id", "jurisdiction", "title"]);

    const removed = await alice.delete(`/api/collections/${col.id}/documents`, { document_ids: docs.slice(0, 10) });
    expect(await removed.json()).toEqual({ removed_count: 10 });
    expect((await (await alice.get(`/api/collections/${col.id}`)).json()).document_count).toBe(90);
  });

  it("batch takes 1 to 100 ids (MAX_BATCH_DOCUMENT_IDS), UUIDs only: 422 otherwise", async () => {
    const col = await createAs(alice, "Limits");
    for (const document_ids of [[], docs.slice(0, 101), ["nope"]]) {
      const res = await alice.post(`/api/collections/${col.id}/documents/batch`, { document_ids });
      expect([document_ids.length, res.status]).toEqual([document_ids.length, 422]);
      expect((await detail(res)).code).toBe("VALIDATION_ERROR");
    }
    expect((await (await alice.get(`/api/collections/${col.id}`)).json()).document_count).toBe(0);
  });

  it("unknown judgments: 404 DOCUMENT_NOT_FOUND listing them, nothing added", async () => {
    const col = await createAs(alice, "Unknown docs");
    const missing = randomUUID();
    const res = await alice.post(`/api/collections/${col.id}/documents/batch`, { document_ids: [docs[0], missing] });
    expect(res.status).toBe(404);
    expect(await detail(res)).toMatchObject({ code: "DOCUMENT_NOT_FOUND", document_ids: [missing] });
    expect((await (await alice.get(`/api/collections/${col.id}`)).json()).document_count).toBe(0);
  });
});
