import { describe, expect, it } from "vitest";
import { carryDirectText, directScope, inDirectScope, textResponse, type DirectScope } from "@/lib/request-scope";

function scope(): DirectScope {
  return { after: [], cookies: { getAll: () => [], set: () => undefined }, texts: new WeakMap() };
}

describe("textResponse", () => {
  it("is an ordinary Response with its text as the body outside a direct request", async () => {
    expect(directScope()).toBeUndefined();
    const res = textResponse('{"a":"ż"}', { status: 201, headers: { "content-type": "application/json" } });
    expect(res.status).toBe(201);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(await res.text()).toBe('{"a":"ż"}');
  });

  it("inside a direct request hands its text to the dispatcher beside a Response without a body stream", async () => {
    const s = scope();
    const res = await inDirectScope(s, async () => textResponse('{"a":"ż"}', { headers: { "content-type": "application/json" } }));
    expect(res.body).toBeNull();
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(s.texts.get(res)).toBe('{"a":"ż"}');
  });

  it("a copy made with other headers keeps the text (carryDirectText)", async () => {
    const s = scope();
    const copy = await inDirectScope(s, async () => {
      const res = textResponse("[1,2]", { headers: { "content-type": "application/json" } });
      return carryDirectText(res, new Response(res.body, { status: res.status, headers: res.headers }));
    });
    expect(s.texts.get(copy)).toBe("[1,2]");
    // Outside a direct request there is nothing to carry: the copy has the body stream.
    const plain = textResponse("[3]", {});
    const plainCopy = carryDirectText(plain, new Response(plain.body, { headers: plain.headers }));
    expect(await plainCopy.text()).toBe("[3]");
  });
});
