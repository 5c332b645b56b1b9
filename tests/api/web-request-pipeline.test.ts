import http from "node:http";
import { beforeAll, describe, expect, it } from "vitest";
import { Browser, createUser, signedInBrowser } from "../helpers/http";
import { stackEnv } from "../helpers/stack";
import { startInOneWindow } from "../helpers/rate-window";

/**
 * The request pipeline over real HTTP: body caps (security review H2), deep JSON (L1), CSRF (M1), HEAD on
 * public routes (L6), security headers (M2), the per-user rate limit (spec audit defect 6, R-AUTH-007) and the
 * reference error shape under /api/v1 (defect 8, R-ERR-003).
 */

const appUrl = () => new URL(stackEnv().appUrl as string);
const OWN_ORIGIN = () => appUrl().origin;
const EVIL = { origin: "https://evil.example", "sec-fetch-site": "cross-site" };

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/**
 * POST a body in chunks with Transfer-Encoding: chunked and no Content-Length. The server may answer (413) before the
 * whole body is sent; what it answered is the result.
 */
function postChunked(from: string, path: string, chunks: string[], headers: Record<string, string>): Promise<Raw> {
  const url = appUrl();
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = http.request(
      { host: url.hostname, port: url.port, path, method: "POST", localAddress: from, headers: { "content-type": "application/json", ...headers } },
      (res) => {
        answered = true;
        let text = "";
        res.on("data", (c) => (text += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      },
    );
    req.on("error", (e) => {
      if (!answered) reject(e);
    });
    expect(req.getHeader("content-length")).toBeUndefined();
    let i = 0;
    const next = () => {
      if (i >= chunks.length) return req.end();
      if (req.destroyed) return;
      req.write(chunks[i++], () => setImmediate(next));
    };
    next();
  });
}

async function detail(res: Response) {
  return ((await res.json()) as { detail: Record<string, unknown> }).detail;
}

describe("request bodies are capped while they stream in (H2)", () => {
  it("a credentials body over 1 KB with Content-Length is 413 BODY_TOO_LARGE (it used to be read whole and answered 422)", async () => {
    const b = new Browser();
    const user = await createUser();
    const res = await b.post("/api/auth/sign-in", { email: user.email, password: user.password, pad: "x".repeat(5_000) });
    expect(res.status).toBe(413);
    expect(await detail(res)).toMatchObject({ code: "BODY_TOO_LARGE", message: expect.any(String) });
    expect(b.cookieNames().some((n) => n.includes("auth-token"))).toBe(false);
  });

  it("a 5 MB body declared by Content-Length is answered 413 at once (the review's probe: it was read and parsed in full)", async () => {
    const b = new Browser();
    const res = await b.post("/api/auth/sign-in", { email: "a@b.example", password: "x", pad: "p".repeat(5 * 1024 * 1024) });
    expect(res.status).toBe(413);
    expect(await detail(res)).toMatchObject({ code: "BODY_TOO_LARGE" });
  });

  it("a chunked body with no Content-Length is refused once past the cap: sign-in (1 KB) and collections (64 KB default)", async () => {
    const anon = new Browser();
    const signIn = await postChunked(anon.address, "/api/auth/sign-in", ['{"email":"a@b.example","pad":"', ...Array.from({ length: 40 }, () => "y".repeat(256)), '"}'], {});
    expect(signIn.status).toBe(413);
    expect(JSON.parse(signIn.text)).toMatchObject({ detail: { code: "BODY_TOO_LARGE" } });

    const { browser } = await signedInBrowser();
    const cookie = browser.cookieNames().map((n) => `${n}=${browser.cookie(n)}`).join("; ");
    const before = (await (await browser.get("/api/collections")).json()).total as number;
    const big = Array.from({ length: 40 }, () => "z".repeat(4096)); // 160 KB, over the 64 KB default
    const col = await postChunked(browser.address, "/api/collections", ['{"name":"too big","description":"', ...big, '"}'], { cookie, origin: OWN_ORIGIN() });
    expect(col.status).toBe(413);
    expect(JSON.parse(col.text)).toMatchObject({ detail: { code: "BODY_TOO_LARGE" } });
    expect((await (await browser.get("/api/collections")).json()).total).toBe(before);
  });

  it("a body nested deeper than 32 levels is 400 JSON_TOO_DEEP, never parsed", async () => {
    const b = new Browser();
    const deep = `{"events":[{"name":"search_submitted","properties":{"x":${"[".repeat(40)}1${"]".repeat(40)}}}]}`;
    const res = await b.request("POST", "/api/events", deep);
    expect(res.status).toBe(400);
    expect(await detail(res)).toMatchObject({ code: "JSON_TOO_DEEP" });
  });
});

describe("CSRF: writes must be JSON and from our own origin (M1)", () => {
  it("login CSRF: the body a <form enctype=text/plain> sends to sign-in is refused (403 cross-site, 415 same-site)", async () => {
    const user = await createUser({ password: "attacker-password=" });
    // name='{"email":"…","password":"attacker-password' value='"}' → exactly this text.
    const form = `{"email":"${user.email}","password":"attacker-password="}`;
    const victim = new Browser();
    const cross = await victim.request("POST", "/api/auth/sign-in", form, { "content-type": "text/plain", ...EVIL });
    expect(cross.status).toBe(403);
    expect(await detail(cross)).toMatchObject({ code: "CSRF_REJECTED", message: expect.any(String) });
    expect(cross.headers.get("set-cookie")).toBeNull();
    // The same JSON with a JSON content type but a foreign Origin: still refused.
    const json = await victim.request("POST", "/api/auth/sign-in", form, { "content-type": "application/json", origin: "https://evil.example" });
    expect(json.status).toBe(403);
    const sameSite = await victim.request("POST", "/api/auth/sign-in", form, { "content-type": "text/plain", origin: OWN_ORIGIN() });
    expect(sameSite.status).toBe(415);
    expect(await detail(sameSite)).toMatchObject({ code: "UNSUPPORTED_MEDIA_TYPE" });
    expect(victim.cookieNames().some((n) => n.includes("auth-token"))).toBe(false);
    // Our own page signs in (JSON, own Origin).
    const own = await victim.request("POST", "/api/auth/sign-in", { email: user.email, password: user.password }, { origin: OWN_ORIGIN(), "sec-fetch-site": "same-origin" });
    expect(own.status).toBe(200);
  });

  it("a signed-in user's collections cannot be created, renamed or deleted cross-site; our own client can, DELETE without a body included", async () => {
    const { browser } = await signedInBrowser();
    const made = await browser.post("/api/collections", { name: "Mine" }, { origin: OWN_ORIGIN(), "sec-fetch-site": "same-origin" });
    expect(made.status).toBe(201);
    const id = ((await made.json()) as { id: string }).id;

    const create = await browser.request("POST", "/api/collections", '{"name":"planted"}', { "content-type": "text/plain", ...EVIL });
    const rename = await browser.request("PATCH", `/api/collections/${id}`, { name: "pwned" }, { origin: "https://evil.example" });
    const remove = await browser.request("DELETE", `/api/collections/${id}`, undefined, { "sec-fetch-site": "cross-site" });
    for (const res of [create, rename, remove]) {
      expect(res.status).toBe(403);
      expect(await detail(res)).toMatchObject({ code: "CSRF_REJECTED" });
    }
    const list = (await (await browser.get("/api/collections")).json()) as { collections: { id: string; name: string }[] };
    expect(list.collections.map((c) => c.name)).toEqual(["Mine"]);

    // Same-site but not JSON: 415, nothing changed.
    const plain = await browser.request("PATCH", `/api/collections/${id}`, '{"name":"x"}', { "content-type": "text/plain" });
    expect(plain.status).toBe(415);

    const del = await browser.request("DELETE", `/api/collections/${id}`, undefined, { origin: OWN_ORIGIN(), "sec-fetch-site": "same-origin" });
    expect(del.status).toBe(204);
    expect((await browser.get(`/api/collections/${id}`)).status).toBe(404);
  });
});

describe("HEAD on a public GET route (L6)", () => {
  it("answers like GET without a body (it used to be 401)", async () => {
    const b = new Browser();
    const head = await b.request("HEAD", "/api/health/status");
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    expect(head.headers.get("content-type")).toContain("application/json");
    // A route that needs sign-in stays closed to HEAD.
    expect((await b.request("HEAD", "/api/collections")).status).toBe(401);
  });
});

describe("security headers (M2)", () => {
  const common = (h: Headers) => {
    expect(h.get("x-content-type-options")).toBe("nosniff");
    expect(h.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(h.get("permissions-policy")).toContain("camera=()");
    expect(h.get("x-frame-options")).toBe("DENY");
  };

  it("every page carries a nonce CSP equal to the nonce on each of its scripts, and framing is refused", async () => {
    const b = new Browser();
    const nonces = new Set<string>();
    for (const path of ["/", "/search"]) {
      const res = await b.get(path);
      expect(res.status).toBe(200);
      common(res.headers);
      const csp = res.headers.get("content-security-policy") ?? "";
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      const nonce = csp.match(/'nonce-([^']+)'/)?.[1];
      expect(nonce).toBeTruthy();
      nonces.add(nonce as string);
      const html = await res.text();
      const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
      expect(scripts.length).toBeGreaterThan(0);
      for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
    }
    // A fresh nonce per response.
    expect(nonces.size).toBe(2);
  }, 180_000); // the dev server compiles both pages on first request

  it("API answers carry a deny-all CSP and the same headers, errors included", async () => {
    const b = new Browser();
    for (const res of [await b.get("/api/health/status"), await b.get("/api/collections")]) {
      common(res.headers);
      expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
    }
  });
});

describe("per-user rate limit (R-AUTH-007)", () => {
  it("one user rotating between two addresses is refused before either address reaches its own limit", async () => {
    await startInOneWindow(60, 40);
    const { browser: a } = await signedInBrowser();
    const b = new Browser();
    for (const name of a.cookieNames()) b.setCookie(name, a.cookie(name));
    expect(a.address).not.toBe(b.address);
    const first = await a.get("/api/auth/me");
    expect(first.status).toBe(200);
    const limit = Number(first.headers.get("x-ratelimit-limit"));
    expect(limit).toBeGreaterThan(0);
    // Alternate the two addresses, each staying below its own per-address limit (limit - 1 requests each). The
    // window is sliding, so count requests rather than expect the refusal at an exact one.
    let sent = 1;
    let refused: Response | null = null;
    while (sent < 2 * (limit - 1) && !refused) {
      const res = await (sent % 2 ? b : a).get("/api/auth/me");
      sent++;
      if (res.status === 429) refused = res;
      else expect(res.status).toBe(200);
    }
    expect(refused).not.toBeNull();
    expect(sent).toBeGreaterThan(limit); // the user had their whole allowance first
    expect(await (refused as Response).json()).toMatchObject({ error: "RateLimitExceeded", status_code: 429 });
    // The same address signed out is still within its per-address allowance: the refusal was the user's.
    a.clearCookies();
    expect((await a.get("/api/auth/me")).status).toBe(200);
  }, 120_000);
});

describe("reference error shape under /api/v1 (R-ERR-003)", () => {
  let anon: Browser;
  beforeAll(() => {
    anon = new Browser();
  });

  it("a missing API key is 401 {error, message, details, status_code}; service routes keep {detail}", async () => {
    const res = await anon.get("/api/v1/health");
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({
      error: "Unauthorized",
      message: expect.any(String),
      details: { code: "API_KEY_REQUIRED" },
      status_code: 401,
    });
    const unknown = await anon.get("/api/v1/no-such-thing", { "x-api-key": "not-a-key" });
    expect(await unknown.json()).toMatchObject({ error: "Unauthorized", status_code: 401, details: { code: "INVALID_API_KEY" } });
    const service = await anon.get("/api/collections");
    expect(await service.json()).toEqual({ detail: { code: "UNAUTHORIZED", message: expect.any(String) } });
  });
});
