import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminPool } from "../helpers/stack";
import { Browser, signedInBrowser } from "../helpers/http";

/**
 * Collection create takes document_ids[] and tags[] atomically
 * (R-END-142), get embeds the first members (R-END-143), and the list is paged (R-LIM-028, R-END-151).
 */
const pool = adminPool();

let alice: Browser;
let aliceId: string;
let bob: Browser;
let docs: string[] = [];

beforeAll(async () => {
  ({ browser: alice, user: { id: aliceId } } = await signedInBrowser());
  ({ browser: bob } = await signedInBrowser());
  docs = (await pool.query<{ id: string }>("select id::text from public.judgments order by id limit 110")).rows.map((r) => r.id);
});

afterAll(async () => {
  await pool.end();
});

const json = async (res: Response) => (await res.json()) as Record<string, unknown>;
const collectionsOf = async (userId: string) =>
  Number((await pool.query<{ n: string }>("select count(*) as n from public.collections where user_id = $1", [userId])).rows[0].n);

describe("POST /api/collections with document_ids[] and tags[] (R-END-142)", () => {
  it("creates the collection with its documents and tags in one call", async () => {
    const res = await alice.post("/api/collections", { name: "Seeded", description: "two to start", document_ids: [docs[0], docs[1], docs[0]], tags: [" appeals ", "2019", "appeals"] });
    expect(res.status).toBe(201);
    const col = await json(res);
    expect(col).toMatchObject({ name: "Seeded", description: "two to start", document_count: 2, tags: ["appeals", "2019"] });
    for (const k of ["id", "name", "description", "document_count", "created_at"]) expect(col).toHaveProperty(k);
    const { rows } = await pool.query<{ judgment_id: string }>(
      "select judgment_id::text from public.collection_documents where collection_id = $1 order by judgment_id",
      [col.id],
    );
    expect(rows.map((r) => r.judgment_id)).toEqual([docs[0], docs[1]].sort());
    const listed = await json(await alice.get(`/api/collections/${col.id}`));
    expect(listed).toMatchObject({ document_count: 2, tags: ["appeals", "2019"] });
  });

  it("an unknown document id is 404 DOCUMENT_NOT_FOUND naming it, and nothing is created", async () => {
    const before = await collectionsOf(aliceId);
    const unknown = "00000000-0000-4000-8000-00000000abcd";
    const res = await alice.post("/api/collections", { name: "Half good", document_ids: [docs[0], unknown], tags: ["x"] });
    expect(res.status).toBe(404);
    expect((await json(res)).detail).toMatchObject({ code: "DOCUMENT_NOT_FOUND", document_ids: [unknown] });
    expect(await collectionsOf(aliceId)).toBe(before);
  });

  it("validates ids and tags with 422 VALIDATION_ERROR naming the field, creating nothing", async () => {
    const before = await collectionsOf(aliceId);
    const cases: [Record<string, unknown>, string][] = [
      [{ name: "x", document_ids: ["not-a-uuid"] }, "document_ids.0"],
      [{ name: "x", document_ids: docs.slice(0, 101) }, "document_ids"],
      [{ name: "x", tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }, "tags"],
      [{ name: "x", tags: ["t".repeat(51)] }, "tags.0"],
      [{ name: "x", tags: ["   "] }, "tags.0"],
      [{ name: "x", tags: "appeals" }, "tags"],
    ];
    for (const [body, field] of cases) {
      const res = await alice.post("/api/collections", body);
      expect([field, res.status]).toEqual([field, 422]);
      const detail = (await json(res)).detail as { code: string; fields: { field: string }[] };
      expect(detail.code).toBe("VALIDATION_ERROR");
      expect(detail.fields.map((f) => f.field)).toContain(field);
    }
    expect(await collectionsOf(aliceId)).toBe(before);
  });

  it("100 ids (MAX_BATCH_DOCUMENT_IDS) are accepted", async () => {
    const res = await alice.post("/api/collections", { name: "Hundred", document_ids: docs.slice(0, 100) });
    expect(res.status).toBe(201);
    expect((await json(res)).document_count).toBe(100);
  });
});

describe("GET /api/collections/{id} embeds documents[{id, case_number, title, added_at}] (R-END-143)", () => {
  it("lists the newest 20 members with exactly those keys; the rest stay on /documents", async () => {
    const created = await json(await alice.post("/api/collections", { name: "Embedded", document_ids: docs.slice(0, 25) }));
    const body = await json(await alice.get(`/api/collections/${created.id}`));
    expect(body).toMatchObject({ id: created.id, name: "Embedded", document_count: 25 });
    const documents = body.documents as Record<string, unknown>[];
    expect(documents).toHaveLength(20);
    for (const d of documents) expect(Object.keys(d).sort()).toEqual(["added_at", "case_number", "id", "title"]);
    const page = await json(await alice.get(`/api/collections/${created.id}/documents?limit=20`));
    expect(documents.map((d) => d.id)).toEqual((page.documents as { id: string }[]).map((d) => d.id));
    const empty = await json(await alice.get(`/api/collections/${(await json(await alice.post("/api/collections", { name: "Empty" }))).id}`));
    expect(empty.documents).toEqual([]);
    // Still a plain 404 for another user.
    expect((await bob.get(`/api/collections/${created.id}`)).status).toBe(404);
  });
});

describe("GET /api/collections is paged: default 20, max 100, offset 0 (R-LIM-028, R-END-151)", () => {
  it("pages the caller's collections with a total", async () => {
    const { browser: carol } = await signedInBrowser();
    for (let i = 0; i < 23; i++) expect((await carol.post("/api/collections", { name: `c${String(i).padStart(2, "0")}` })).status).toBe(201);
    const first = await json(await carol.get("/api/collections"));
    expect((first.collections as unknown[]).length).toBe(20);
    expect(first).toMatchObject({ total: 23, limit: 20, offset: 0, has_more: true });
    const names = (r: Record<string, unknown>) => (r.collections as { name: string }[]).map((c) => c.name);
    // Newest first.
    expect(names(first)[0]).toBe("c22");
    const second = await json(await carol.get("/api/collections?limit=5&offset=20"));
    expect(names(second)).toEqual(["c02", "c01", "c00"]);
    expect(second).toMatchObject({ total: 23, limit: 5, offset: 20, has_more: false });
    const one = await json(await carol.get("/api/collections?limit=1&offset=1"));
    expect(names(one)).toEqual(["c21"]);
    expect((await carol.get("/api/collections?limit=101")).status).toBe(422);
    expect((await carol.get("/api/collections?offset=-1")).status).toBe(422);
    // Another user's list is their own.
    expect((await json(await bob.get("/api/collections"))).total).toBe(0);
  });
});
