import http from "node:http";
import { beforeAll, describe, expect, it } from "vitest";
import { Browser, signedInBrowser } from "../helpers/http";

/**
 * A write without a body needs no Content-Type: `fetch(url, { method: "DELETE" })` and `curl -X DELETE` send none, and
 * the web tier used to refuse them 415. CSRF stays closed: another site's bodiless DELETE is still refused before it
 * reaches the handler.
 */
let alice: Browser;
let cookie = "";

beforeAll(async () => {
  ({ browser: alice } = await signedInBrowser());
  cookie = alice.cookieNames().map((n) => `${n}=${alice.cookie(n)}`).join("; ");
});

async function newCollection(): Promise<string> {
  const res = await alice.post("/api/collections", { name: "Bodiless delete" });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

/** A raw request with exactly these headers (curl's: Host, User-Agent, Accept), no body. */
function rawRequest(method: string, path: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const url = new URL(path, alice.baseUrl);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, path: url.pathname, method, localAddress: alice.address, headers: { "user-agent": "curl/8.5.0", accept: "*/*", ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

describe("bodiless writes", () => {
  it("fetch(url, { method: 'DELETE' }) deletes: 204, and the collection is gone", async () => {
    const id = await newCollection();
    const res = await fetch(new URL(`/api/collections/${id}`, alice.baseUrl), { method: "DELETE", headers: { cookie } });
    expect(res.status).toBe(204);
    expect((await alice.get(`/api/collections/${id}`)).status).toBe(404);
  });

  it("curl -X DELETE semantics (no Content-Type, no Content-Length) delete too", async () => {
    const id = await newCollection();
    const res = await rawRequest("DELETE", `/api/collections/${id}`, { cookie });
    expect(res.status).toBe(204);
    expect((await alice.get(`/api/collections/${id}`)).status).toBe(404);
  });

  it("another site's bodiless DELETE is refused 403 CSRF_REJECTED and deletes nothing", async () => {
    const id = await newCollection();
    const crossSite: Record<string, string>[] = [{ origin: "https://evil.example" }, { "sec-fetch-site": "cross-site" }];
    for (const headers of crossSite) {
      const res = await rawRequest("DELETE", `/api/collections/${id}`, { cookie, ...headers });
      expect(res.status).toBe(403);
      const body = JSON.parse(res.body) as { detail?: { code?: string } };
      expect(body.detail?.code).toBe("CSRF_REJECTED");
    }
    expect((await alice.get(`/api/collections/${id}`)).status).toBe(200);
  });

  it("a body still needs application/json (415), bodiless or not", async () => {
    const id = await newCollection();
    const res = await alice.request("DELETE", `/api/collections/${id}`, "x", { "content-type": "text/plain" });
    expect(res.status).toBe(415);
    expect((await alice.get(`/api/collections/${id}`)).status).toBe(200);
  });

  it("the reference API: a bodiless POST with a key is judged by its body schema (422), not refused as a media type", async () => {
    const made = await alice.post("/api/settings/api-keys", { name: "bodiless" });
    expect(made.status).toBe(201);
    const { key } = (await made.json()) as { key: string };
    const res = await rawRequest("POST", "/api/v1/collections", { "x-api-key": key });
    expect(res.status).toBe(422);
    expect(JSON.parse(res.body)).toMatchObject({ status_code: 422, details: { code: "VALIDATION_ERROR" } });
  });
});
