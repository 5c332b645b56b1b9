import { describe, expect, it } from "vitest";
import { deprecated, deprecationHeaders, MIN_DEPRECATION_NOTICE_DAYS } from "@/lib/api/v1";

/**
 * The deprecation mechanism of /api/v1 (docs/releasing.md): a deprecated route answers with Deprecation (RFC 9745),
 * Sunset (RFC 8594) and a deprecation Link, on every answer, and a notice shorter than the policy cannot be declared.
 */
const notice = { since: "2027-03-01", sunset: "2027-09-01", link: "https://example.org/docs/api#v2" };

describe("deprecated() on a /api/v1 handler", () => {
  it("adds Deprecation, Sunset and a deprecation Link to a success, keeping body, status and other headers", async () => {
    const handler = deprecated(notice, async (n: number) => Response.json({ n }, { status: 201, headers: { "X-RateLimit-Limit": "100" } }));
    const res = await handler(7);
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ n: 7 });
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(res.headers.get("x-ratelimit-limit")).toBe("100");
    expect(res.headers.get("deprecation")).toBe(`@${Date.UTC(2027, 2, 1) / 1000}`);
    expect(res.headers.get("sunset")).toBe("Wed, 01 Sep 2027 00:00:00 GMT");
    expect(res.headers.get("link")).toBe('<https://example.org/docs/api#v2>; rel="deprecation"');
  });

  it("appends to a list page's Link header and marks errors too", async () => {
    const list = deprecated(notice, () => Response.json([], { headers: { Link: '</api/v1/x?limit=20&offset=0>; rel="first"' } }));
    expect((await list()).headers.get("link")).toBe('</api/v1/x?limit=20&offset=0>; rel="first", <https://example.org/docs/api#v2>; rel="deprecation"');
    const failing = deprecated({ since: notice.since, sunset: notice.sunset }, async () => Response.json({ error: "Unauthorized" }, { status: 401 }));
    const res = await failing();
    expect(res.status).toBe(401);
    expect(res.headers.get("sunset")).toBe("Wed, 01 Sep 2027 00:00:00 GMT");
    expect(res.headers.has("link")).toBe(false);
  });

  it("works on a response whose headers are immutable", async () => {
    const handler = deprecated(notice, async () => Response.redirect("https://example.org/elsewhere", 308));
    const res = await handler();
    expect(res.status).toBe(308);
    expect(res.headers.get("location")).toBe("https://example.org/elsewhere");
    expect(res.headers.get("deprecation")).toMatch(/^@\d+$/);
  });

  it("refuses a notice shorter than the policy's minimum, or a date that is not a day", () => {
    expect(MIN_DEPRECATION_NOTICE_DAYS).toBe(180);
    expect(() => deprecationHeaders({ since: "2027-03-01", sunset: "2027-08-27" })).toThrow(/shorter than the policy's 180 days/);
    expect(() => deprecated({ since: "2027-03-01", sunset: "2027-03-02" }, async () => new Response(null))).toThrow(/shorter/);
    expect(deprecationHeaders({ since: "2027-03-01", sunset: "2027-08-28" }).Sunset).toBe("Sat, 28 Aug 2027 00:00:00 GMT");
    expect(() => deprecationHeaders({ since: "March 2027", sunset: "2027-09-01" })).toThrow(/ISO date/);
  });
});
