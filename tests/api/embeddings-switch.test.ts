import { describe, expect, it } from "vitest";
import { Browser, signedInBrowser } from "../helpers/http";

/**
 * PUT /api/settings/embeddings over HTTP: admin only, the id checked against what this server
 * offers. The re-embed itself (completes and swaps while searches answer; a failure keeps the old index) is proven in
 * tests/db/embedder-switch.test.ts on its own index, so this suite never switches the shared test app's index.
 */
const PATH = "/api/settings/embeddings";

describe("PUT /api/settings/embeddings", () => {
  it("401 without a session, 403 for a user who is not an admin", async () => {
    expect((await new Browser().request("PUT", PATH, { id: "local-hash-768" })).status).toBe(401);
    const { browser } = await signedInBrowser();
    const res = await browser.request("PUT", PATH, { id: "local-hash-768" });
    expect(res.status).toBe(403);
    expect((await browser.get(PATH)).status).toBe(200);
  });

  it("admin: an id the server does not offer → 422 EMBEDDER_UNAVAILABLE; a malformed body → 422 VALIDATION_ERROR", async () => {
    const { browser } = await signedInBrowser({ admin: true });
    const bad = await browser.request("PUT", PATH, { id: "text-embedding-3-small" });
    expect(bad.status).toBe(422);
    expect((await bad.json()).detail.code).toBe("EMBEDDER_UNAVAILABLE");
    for (const body of [{}, { id: "" }, { id: 5 }, { id: "local-hash", extra: 1 }]) {
      const res = await browser.request("PUT", PATH, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect((await res.json()).detail.code).toBe("VALIDATION_ERROR");
    }
  });

  it("admin: the options include the wider lexical embedder; switching to the active one starts nothing", async () => {
    const { browser } = await signedInBrowser({ admin: true });
    const before = await (await browser.get(PATH)).json();
    expect(before.available.map((e: { id: string }) => e.id)).toEqual(expect.arrayContaining(["local-hash", "local-hash-768"]));
    expect(before.available.find((e: { id: string }) => e.id === "local-hash-768")).toMatchObject({ dimensions: 768 });
    const res = await browser.request("PUT", PATH, { id: before.active.id });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.active).toEqual(before.active);
    expect(body.reembed).toEqual(before.reembed);
  });
});
