import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addressKey, clientAddressOf, FORWARDED_FOR, NO_PROXY, parseCidrs, proxyTrustOf, type ProxyTrust } from "@/lib/api/client-address";
import { ApiError } from "@/lib/errors";
import { errorResponse, isJsonContentType, isOwnOrigin, readBodyText, referenceErrorName, writeVerdict } from "@/lib/api/route";
import { isPublicRoute, routeAuthLevel } from "@/lib/auth/public-routes";

/**
 * The request pipeline's pure parts (security review H2, M1, M5, L6; spec audit defect 8): the capped body
 * reader, the CSRF decision of a write, X-Forwarded-For trust, the reference error shape and HEAD on public routes.
 * The same behaviour is checked over real HTTP in tests/api/web-request-pipeline.test.ts.
 */

const enc = new TextEncoder();

/** A body stream of the given chunks; counts how many chunks were pulled and whether the reader cancelled it. */
function chunked(chunks: Uint8Array[]) {
  const seen = { pulled: 0, cancelled: false };
  let i = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i >= chunks.length) return controller.close();
      seen.pulled++;
      controller.enqueue(chunks[i++]);
    },
    cancel() {
      seen.cancelled = true;
    },
  });
  return { stream, seen };
}

async function refusal(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error("expected a refusal");
}

describe("capped body reader (security review H2)", () => {
  it("accepts a body of exactly the cap, in several chunks, and decodes UTF-8 split across chunks", async () => {
    const bytes = enc.encode(`{"name":"Zoë ${"x".repeat(80)}"}`);
    const split = bytes.indexOf(0xc3) + 1; // between the two bytes of "ë"
    const { stream } = chunked([bytes.slice(0, split), bytes.slice(split, 40), bytes.slice(40)]);
    expect(await readBodyText(stream, bytes.byteLength)).toBe(new TextDecoder().decode(bytes));
  });

  it("refuses one byte over the cap with 413 BODY_TOO_LARGE", async () => {
    const { stream } = chunked([enc.encode("a".repeat(100)), enc.encode("b")]);
    const e = await refusal(readBodyText(stream, 100));
    expect(e.status).toBe(413);
    expect(e.code).toBe("BODY_TOO_LARGE");
  });

  it("stops reading an endless chunked body soon after the cap and cancels it (never buffers it all)", async () => {
    const seen = { pulled: 0, cancelled: false };
    const chunk = enc.encode("x".repeat(1024));
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        seen.pulled++;
        controller.enqueue(chunk);
      },
      cancel() {
        seen.cancelled = true;
      },
    });
    const e = await refusal(readBodyText(endless, 10 * 1024));
    expect(e.code).toBe("BODY_TOO_LARGE");
    // 11 chunks cross the cap; the stream may have pulled one more ahead (its high-water mark), never the rest.
    expect(seen.pulled).toBeLessThanOrEqual(12);
    expect(seen.cancelled).toBe(true);
  });

  it("drains (reads and discards) up to drainBytes past the cap, then answers 413; beyond that it gives up", async () => {
    const chunk = enc.encode("y".repeat(1024));
    // 50 KB against a 10 KB cap with 64 KB of drain: read to the end, so the client can read its answer.
    const finite = chunked(Array.from({ length: 50 }, () => chunk));
    expect((await refusal(readBodyText(finite.stream, 10 * 1024, 64 * 1024))).code).toBe("BODY_TOO_LARGE");
    expect(finite.seen.pulled).toBe(50);
    expect(finite.seen.cancelled).toBe(false);
    // 500 KB with the same drain: abandoned after cap + drain.
    const long = chunked(Array.from({ length: 500 }, () => chunk));
    expect((await refusal(readBodyText(long.stream, 10 * 1024, 64 * 1024))).code).toBe("BODY_TOO_LARGE");
    expect(long.seen.pulled).toBeLessThanOrEqual(76);
    expect(long.seen.cancelled).toBe(true);
  });

  it("a missing body reads as empty; a failing stream is REQUEST_ABORTED, not a 500", async () => {
    expect(await readBodyText(null, 10)).toBe("");
    const broken = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.error(new Error("socket hang up"));
      },
    });
    const e = await refusal(readBodyText(broken, 10));
    expect(e.status).toBe(400);
    expect(e.code).toBe("REQUEST_ABORTED");
  });
});

describe("CSRF decision of a write (security review M1)", () => {
  const h = (headers: Record<string, string>) => new Headers({ host: "127.0.0.1:3111", ...headers });
  const json = { "content-type": "application/json" };

  it("JSON from our own page (same Host), or with no Origin at all, is accepted; charset parameters are fine", () => {
    expect(writeVerdict(h({ ...json, origin: "http://127.0.0.1:3111", "sec-fetch-site": "same-origin" }), undefined)).toBe("ok");
    expect(writeVerdict(h({ "content-type": "application/json; charset=utf-8" }), undefined)).toBe("ok");
    expect(isJsonContentType("Application/JSON ; charset=UTF-8")).toBe(true);
  });

  it("a cross-site request is refused whatever its content type", () => {
    expect(writeVerdict(h({ ...json, origin: "https://evil.example" }), undefined)).toBe("cross-site");
    expect(writeVerdict(h({ "content-type": "text/plain", origin: "https://evil.example" }), undefined)).toBe("cross-site");
    expect(writeVerdict(h({ ...json, "sec-fetch-site": "cross-site" }), undefined)).toBe("cross-site");
    // Another port or scheme-less garbage is another origin; "null" (sandboxed frames) is never ours.
    expect(writeVerdict(h({ ...json, origin: "http://127.0.0.1:9999" }), undefined)).toBe("cross-site");
    expect(writeVerdict(h({ ...json, origin: "null" }), undefined)).toBe("cross-site");
  });

  it("a same-site write that is not JSON is a media-type refusal (415), not CSRF", () => {
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/jsonp"]) {
      expect(writeVerdict(h({ "content-type": type, origin: "http://127.0.0.1:3111" }), undefined)).toBe("not-json");
    }
    // A body with no media type, or a media type on an empty body, is still judged by its type.
    expect(writeVerdict(h({ "content-length": "5" }), undefined)).toBe("not-json");
    expect(writeVerdict(h({ "transfer-encoding": "chunked" }), undefined)).toBe("not-json");
    expect(writeVerdict(h({ "content-type": "text/plain", "content-length": "0" }), undefined)).toBe("not-json");
  });

  it("a write without a body needs no Content-Type (curl -X DELETE, fetch with method DELETE)", () => {
    expect(writeVerdict(h({}), undefined)).toBe("ok");
    expect(writeVerdict(h({ "content-length": "0" }), undefined)).toBe("ok");
    expect(writeVerdict(h({ origin: "http://127.0.0.1:3111", host: "127.0.0.1:3111" }), undefined)).toBe("ok");
    // ...and stays closed to other sites.
    expect(writeVerdict(h({ origin: "https://evil.example" }), undefined)).toBe("cross-site");
    expect(writeVerdict(h({ "sec-fetch-site": "cross-site" }), undefined)).toBe("cross-site");
  });

  it("with APP_URL the whole origin (scheme, host, port) must match, whatever Host says", () => {
    const app = "https://judgments.example";
    expect(isOwnOrigin("https://judgments.example", h({}), app)).toBe(true);
    expect(isOwnOrigin("http://judgments.example", h({}), app)).toBe(false);
    expect(isOwnOrigin("http://127.0.0.1:3111", h({}), app)).toBe(false);
    // Without APP_URL, a proxy's X-Forwarded-Host is our host too (a cross-site page cannot add that header).
    expect(isOwnOrigin("https://judgments.example", h({ "x-forwarded-host": "judgments.example" }), undefined)).toBe(true);
  });

  it("a server caller with X-API-Key and no session cookie is not judged by Origin, but still needs JSON", () => {
    expect(writeVerdict(h({ ...json, "x-api-key": "jsk_x", origin: "https://partner.example" }), undefined)).toBe("ok");
    expect(writeVerdict(h({ "content-type": "text/plain", "x-api-key": "jsk_x" }), undefined)).toBe("not-json");
    // With a session cookie it is a browser: judged like any other.
    expect(writeVerdict(h({ ...json, "x-api-key": "jsk_x", origin: "https://evil.example", cookie: "sb-127-auth-token=abc" }), undefined)).toBe(
      "cross-site",
    );
  });
});

describe("client address behind proxies (security review M5)", () => {
  /** Headers as a route handler sees them after our server appended the socket peer (`stamped`). */
  const resolve = (xff: string[], trust: ProxyTrust | boolean) => clientAddressOf(new Headers({ [FORWARDED_FOR]: xff.join(", ") }), trust);

  it("TRUSTED_PROXY_HOPS=N takes the entry N places left of the peer; TRUSTED_PROXY=1 means one hop", () => {
    expect(proxyTrustOf({ TRUSTED_PROXY: true }).hops).toBe(1);
    expect(proxyTrustOf({ TRUSTED_PROXY: true, TRUSTED_PROXY_HOPS: 2 }).hops).toBe(2);
    expect(proxyTrustOf({}).hops).toBe(0);
    // Unstamped (a platform's own server): the list ends with what the nearest proxy saw.
    expect(resolve(["6.6.6.6", "203.0.113.9"], true).address).toBe("203.0.113.9");
    expect(resolve(["6.6.6.6", "203.0.113.9", "10.0.0.2"], { hops: 2, cidrs: null }).address).toBe("203.0.113.9");
    expect(resolve(["203.0.113.9"], { hops: 3, cidrs: null }).address).toBe("203.0.113.9");
  });

  it("TRUSTED_PROXY_CIDRS takes the right-most address outside the trusted ranges (IPv4 and IPv6)", () => {
    const trust: ProxyTrust = { hops: 0, cidrs: parseCidrs("10.0.0.0/8, fd00::/8, 192.0.2.7") };
    expect(resolve(["6.6.6.6", "198.51.100.4", "10.1.2.3", "192.0.2.7"], trust).address).toBe("198.51.100.4");
    expect(resolve(["1.1.1.1", "2001:db8:aa:bb:1:2:3:4", "fd12::1"], trust).address).toBe("2001:db8:aa:bb::/64");
    expect(() => parseCidrs("10.0.0.0/33")).toThrow(/TRUSTED_PROXY_CIDRS/);
    expect(() => parseCidrs("proxy.internal")).toThrow(/TRUSTED_PROXY_CIDRS/);
  });

  it("IPv6 clients are keyed by their /64", () => {
    expect(addressKey("2001:db8:1:2:aaaa:bbbb:cccc:dddd")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:db8:1:2::1")).toBe(addressKey("2001:db8:1:2:ffff::9"));
    expect(addressKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressKey("::1")).toBe("0:0:0:0::/64");
    expect(addressKey("203.0.113.5")).toBe("203.0.113.5");
  });

  const ipv4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((o) => o.join("."));
  const junk = fc.oneof(ipv4, fc.ipV6(), fc.constantFrom("unknown", "garbage", "", "[::1]:80", "::ffff:6.6.6.6"));

  it("property: no prefix the client writes changes the key (hops)", () => {
    fc.assert(
      fc.property(fc.array(junk, { maxLength: 6 }), fc.integer({ min: 1, max: 3 }), fc.array(ipv4, { minLength: 4, maxLength: 4 }), (prefix, hops, chain) => {
        // What the proxies append: the client they saw, then each proxy in turn (the last one unstamped here).
        const honest = chain.slice(0, hops);
        const trust: ProxyTrust = { hops, cidrs: null };
        expect(resolve([...prefix, ...honest], trust)).toEqual(resolve(honest, trust));
        expect(resolve([...prefix, ...honest], trust).address).toBe(honest[0]);
      }),
    );
  });

  it("property: no prefix the client writes changes the key (CIDRs)", () => {
    const trust: ProxyTrust = { hops: 0, cidrs: parseCidrs("10.0.0.0/8") };
    const proxy = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255)).map((o) => `10.${o.join(".")}`);
    const client = ipv4.filter((a) => !a.startsWith("10."));
    fc.assert(
      fc.property(fc.array(junk, { maxLength: 6 }), client, fc.array(proxy, { maxLength: 3 }), (prefix, who, proxies) => {
        expect(resolve([...prefix, who, ...proxies], trust).address).toBe(who);
      }),
    );
  });

  it("without a trusted proxy an unstamped header is never believed", () => {
    expect(resolve(["6.6.6.6"], NO_PROXY).source).toBe("unverified");
  });
});

describe("reference error shape under /api/v1 (spec audit defect 8)", () => {
  it("renders {error, message, details, status_code} under /api/v1 and {detail} elsewhere", async () => {
    const e = new ApiError("VALIDATION_ERROR", "Invalid body: q: Required", { fields: [{ field: "q", message: "Required" }] });
    const v1 = errorResponse(e, "/api/v1/health");
    expect(v1.status).toBe(422);
    expect(await v1.json()).toEqual({
      error: "ValidationError",
      message: "Invalid body: q: Required",
      details: { code: "VALIDATION_ERROR", fields: [{ field: "q", message: "Required" }] },
      status_code: 422,
    });
    expect(await errorResponse(e, "/api/collections").json()).toEqual({ detail: { code: "VALIDATION_ERROR", message: "Invalid body: q: Required", fields: [{ field: "q", message: "Required" }] } });
    expect(await errorResponse(e, "/api/v1x").json()).toHaveProperty("detail");
    expect(referenceErrorName(401)).toBe("Unauthorized");
    expect(referenceErrorName(413)).toBe("PayloadTooLarge");
    expect(referenceErrorName(599)).toBe("InternalServerError");
  });
});

describe("HEAD on public routes (security review L6)", () => {
  it("a public GET API route is public for HEAD too; writes and non-public routes are not", () => {
    expect(isPublicRoute("HEAD", "/api/health/status")).toBe(true);
    expect(routeAuthLevel("public", "HEAD", "/api/health/status")).toBe("public");
    expect(isPublicRoute("HEAD", "/api/events")).toBe(false);
    expect(isPublicRoute("HEAD", "/api/collections")).toBe(false);
  });
});
