/**
 * The fake Meilisearch server itself: it must hold to the documented contract the adapter tests rely on (task
 * lifecycle, error bodies, filter grammar), or the adapter tests would prove nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeMeilisearch, __filterForTests } from "@/tests/helpers/fake-meilisearch";

const KEY = "k";
let fake: FakeMeilisearch;
const req = async (method: string, path: string, body?: unknown, key: string | null = KEY) => {
  const res = await fetch(fake.url + path, {
    method,
    headers: { "content-type": "application/json", ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
};

beforeAll(async () => {
  fake = await new FakeMeilisearch(KEY).start();
});
afterAll(async () => {
  await fake.close();
});

describe("fake Meilisearch", () => {
  it("enqueues writes (202 summarized task) and applies them only through GET /tasks/:uid, in order", async () => {
    const created = await req("POST", "/indexes", { uid: "movies", primaryKey: "id" });
    expect(created.status).toBe(202);
    expect(created.body).toEqual({ taskUid: 0, indexUid: "movies", status: "enqueued", type: "indexCreation", enqueuedAt: expect.any(String) });
    expect((await req("GET", "/indexes/movies")).status).toBe(404);
    const add = await req("POST", "/indexes/movies/documents", [{ id: 1, title: "Captain Marvel" }]);
    expect((await req("GET", "/tasks/1")).body.status).toBe("processing");
    const done = await req("GET", "/tasks/1");
    expect(done.body).toMatchObject({ uid: add.body.taskUid, status: "succeeded", type: "documentAdditionOrUpdate", details: { receivedDocuments: 1, indexedDocuments: 1 }, error: null });
    expect((await req("GET", "/tasks/0")).body.status).toBe("succeeded");
    expect((await req("GET", "/indexes/movies")).body).toMatchObject({ uid: "movies", primaryKey: "id" });
  });

  it("answers documented error bodies", async () => {
    expect(await req("GET", "/indexes/nope")).toEqual({
      status: 404,
      body: { message: "Index `nope` not found.", code: "index_not_found", type: "invalid_request", link: "https://docs.meilisearch.com/errors#index_not_found" },
    });
    expect((await req("GET", "/indexes", undefined, null)).body.code).toBe("missing_authorization_header");
    expect((await req("GET", "/indexes", undefined, "bad")).status).toBe(403);
    expect((await req("GET", "/health", undefined, null)).body).toEqual({ status: "available" });
    const hybrid = await req("POST", "/indexes/movies/search", { q: "x", hybrid: { embedder: "default", semanticRatio: 0.5 }, vector: [1, 2] });
    expect(hybrid.body).toMatchObject({ code: "invalid_search_embedder", message: "Cannot find embedder with name `default`." });
    const filter = await req("POST", "/indexes/movies/search", { q: "", filter: "title = x" });
    expect(filter.body.code).toBe("invalid_search_filter");
    expect(filter.body.message).toContain("Attribute `title` is not filterable");
  });

  it("fails a task with a documented error (invalid document id)", async () => {
    const t = await req("POST", "/indexes/movies/documents", [{ id: "a:b", title: "x" }]);
    await req("GET", `/tasks/${t.body.taskUid}`);
    const failed = (await req("GET", `/tasks/${t.body.taskUid}`)).body;
    expect(failed.status).toBe("failed");
    expect(failed.error.code).toBe("invalid_document_id");
  });

  it("parses the documented filter grammar", () => {
    const doc = { year: 2010, genres: ["drama", "crime"], rating: null, title: "Ąb" };
    const yes = ["year 2000 TO 2010", "year >= 2010 AND NOT year > 2010", "genres IN [Crime, comedy]", "rating IS NULL", "rating EXISTS",
      "missing NOT EXISTS", "(year = 1 OR year = '2010') AND genres != horror", 'title = "ab"', "genres IS NOT EMPTY"];
    for (const f of yes) expect(__filterForTests.evaluate(f, doc), f).toBe(true);
    const no = ["year < 2010", "genres NOT IN [drama]", "rating IS NOT NULL", "missing EXISTS"];
    for (const f of no) expect(__filterForTests.evaluate(f, doc), f).toBe(false);
    for (const bad of ["year =", "year IN [1, 2", "(year = 1", "year = 1 year = 2", "year ~ 3"]) {
      expect(() => __filterForTests.parse(bad), bad).toThrow();
    }
  });
});
