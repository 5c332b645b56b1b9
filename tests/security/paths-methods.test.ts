import http from "node:http";
import { createChunks, stringToBase64URL } from "@supabase/ssr";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessionCookieName } from "@/lib/api/token-claims";
import { Browser } from "../helpers/http";
import { judgmentIds, makeVictim, ownerSnapshot, sameOrigin, type Victim } from "../helpers/security-fixtures";
import { apiRoutes, effectiveAuth, fillPath, isCatchAll, key, type Method } from "../helpers/security-routes";
import { adminPool, stackEnv } from "../helpers/stack";

/**
 * The request line attacked: path tricks (trailing slash, case, `//`, encoded `/`, dot segments,
 * `;`, NUL, backslash, a public prefix walked back with `..`) on every signed-in-only GET route; the
 * `x-middleware-subrequest` header (CVE-2025-29927) on every gated route and page; HEAD and OPTIONS on every route;
 * methods a route does not export and method-override headers; a forged session cookie on pages. An anonymous caller
 * must never get a 2xx from a gated handler (a redirect may only end at the sign-in page), nothing may change, and
 * nothing may answer 5xx.
 */

const pool = adminPool();
const ROUTES = apiRoutes();
const PLACEHOLDER = { id: "00000000-0000-4000-8000-000000000000" };
const gatedGets = ROUTES.filter((h) => h.method === "GET" && !isCatchAll(h) && effectiveAuth(h, fillPath(h.template, PLACEHOLDER)) === "user");
const gatedAll = ROUTES.filter((h) => !isCatchAll(h) && effectiveAuth(h, fillPath(h.template, PLACEHOLDER)) === "user");
const publicGets = ROUTES.filter((h) => h.method === "GET" && !isCatchAll(h) && !h.apiKeyRequired && effectiveAuth(h, fillPath(h.template, PLACEHOLDER)) === "public");
const templates = [...new Set(ROUTES.filter((h) => !isCatchAll(h)).map((h) => h.template))];
const GATED_PAGES = ["/collections", "/search/extractions", "/collections/[id]"];

let victim: Victim;
let judgment: string;
let before: unknown;

beforeAll(async () => {
  victim = await makeVictim(pool, "paths");
  [judgment] = await judgmentIds(pool, 1);
  before = await ownerSnapshot(pool, victim.id);
}, 60_000);

afterAll(async () => {
  expect(await ownerSnapshot(pool, victim.id)).toEqual(before);
  await pool.end();
});

/** Fill [id] with the victim's collection for collection routes, a real judgment for document routes. */
const fill = (template: string) => fillPath(template, { id: template.startsWith("/api/documents") || template.startsWith("/api/v1/documents") ? judgment : victim.collectionId });

/**
 * One request with the path sent verbatim (Browser resolves paths with `new URL`, which would normalise the very
 * tricks under test: `//`, `..`, `\\`), from a loopback address of its own.
 */
function rawRequest(method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Response> {
  const url = new URL(stackEnv().appUrl as string);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, path, method, localAddress: new Browser().address, headers: { ...(body !== undefined ? { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) } : {}), ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const out = new Headers();
          for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) out.set(k, Array.isArray(v) ? v.join(", ") : v);
          const status = res.statusCode ?? 0;
          resolve(new Response(status === 204 || status === 304 ? null : Buffer.concat(chunks), { status, headers: out }));
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** Follow up to 4 redirects as a browser would; the last answer and where it came from. */
async function follow(method: string, path: string): Promise<{ res: Response; at: string; hops: number }> {
  let at = path;
  for (let hops = 0; ; hops++) {
    const res = await rawRequest(method, at);
    const location = res.headers.get("location");
    if (res.status < 300 || res.status >= 400 || !location || hops >= 4) return { res, at, hops };
    const next = new URL(location, stackEnv().appUrl as string);
    at = next.pathname + next.search;
    method = res.status === 307 || res.status === 308 ? method : "GET";
  }
}

/** An anonymous request ended well: refused (4xx), or at the sign-in page; never a 2xx of the gated handler, never 5xx. */
function expectRefused(out: { res: Response; at: string }, what: string) {
  const { res, at } = out;
  expect(res.status, what).toBeLessThan(500);
  if (res.status >= 200 && res.status < 300) {
    expect(new URL(at, "http://x.invalid").pathname, `${what} answered ${res.status} at ${at}`).toBe("/sign-in");
  }
}

const TRICKS: [string, (p: string) => string][] = [
  ["trailing slash", (p) => `${p}/`],
  ["upper case", (p) => p.toUpperCase()],
  ["capitalised last segment", (p) => p.replace(/\/([a-z])([^/]*)$/, (_, a: string, b: string) => `/${a.toUpperCase()}${b}`)],
  ["leading //", (p) => `/${p}`],
  ["inner //", (p) => p.replace("/api/", "/api//")],
  ["encoded / (%2F)", (p) => p.replace("/api/", "/api%2F")],
  ["encoded / (%2f) before the last segment", (p) => p.replace(/\/([^/]+)$/, "%2f$1")],
  ["dot segment /./", (p) => p.replace("/api/", "/api/./")],
  ["public prefix walked back with ..", (p) => p.replace("/api/", "/api/health/status/../../")],
  ["public prefix walked back with %2e%2e", (p) => p.replace("/api/", "/api/health/status/%2e%2e/%2e%2e/")],
  ["public prefix walked back with %2e%2e%2f", (p) => p.replace("/api/", "/api/search/documents%2f%2e%2e%2f%2e%2e%2f")],
  ["matrix parameter ;", (p) => `${p};.json`],
  ["encoded NUL", (p) => `${p}%00`],
  ["backslash", (p) => p.replace("/api/", "/api\\")],
  ["trailing encoded space", (p) => `${p}%20`],
  ["trailing dot", (p) => `${p}.`],
  ["a public path in the query", (p) => `${p}?next=/api/health/status&/api/health/status`],
];

describe("path tricks on every signed-in-only GET route (anonymous) → refused, never 2xx, never 5xx", () => {
  const cases = gatedGets.flatMap((h) => TRICKS.map(([name, trick]) => [`${key(h)}: ${name}`, h.template, trick] as const));
  it.each(cases)("%s", async (what, template, trick) => {
    expectRefused(await follow("GET", trick(fill(template))), what);
  });
});

describe("path tricks on writes (anonymous, from our own origin) → refused, nothing created", () => {
  const writes: [Method, string][] = [["POST", "/api/collections"], ["DELETE", "/api/collections/[id]"], ["PATCH", "/api/collections/[id]"]];
  const cases = writes.flatMap(([m, t]) => TRICKS.map(([name, trick]) => [`${m} ${t}: ${name}`, m, t, trick] as const));
  it.each(cases)("%s", async (what, method, template, trick) => {
    const res = await rawRequest(method, trick(fill(template)), sameOrigin(), JSON.stringify({ name: "planted" }));
    expect(res.status, what).toBeGreaterThanOrEqual(300);
    expect(res.status, what).toBeLessThan(500);
  });
});

const SUBREQUEST = ["middleware", "middleware:middleware:middleware:middleware:middleware", "src/middleware:src/middleware:src/middleware:src/middleware:src/middleware", "pages/_middleware"];

describe("x-middleware-subrequest (CVE-2025-29927) on every gated route and page", () => {
  const cases = gatedAll.flatMap((h) => SUBREQUEST.map((v) => [`${key(h)} with "${v.slice(0, 24)}"`, h.method, h.template, v] as const));
  it.each(cases)("%s → 401", async (_, method, template, value) => {
    const res = await new Browser().request(method, fill(template), method === "GET" ? undefined : {}, { ...sameOrigin(), "x-middleware-subrequest": value });
    expect(res.status).toBe(401);
  });

  const pages = GATED_PAGES.flatMap((p) => SUBREQUEST.map((v) => [`${p} with "${v.slice(0, 24)}"`, p, v] as const));
  it.each(pages)("page %s → 307 to sign-in", async (_, page, value) => {
    const res = await new Browser().get(fill(page), { "x-middleware-subrequest": value });
    expect(res.status).toBe(307);
    expect(new URL(res.headers.get("location") as string, "http://x.invalid").pathname).toBe("/sign-in");
  });
});

describe("HEAD", () => {
  it.each(publicGets.map((h) => [key(h), h.template] as const))("HEAD %s answers as GET does, without a body", async (_, template) => {
    const b = new Browser();
    const get = await b.get(fill(template));
    const head = await b.request("HEAD", fill(template));
    expect(head.status).toBe(get.status);
    expect(await head.text()).toBe("");
  });

  it.each(gatedGets.map((h) => [key(h), h.template] as const))("HEAD %s anonymously → 401, no body", async (_, template) => {
    const head = await new Browser().request("HEAD", fill(template));
    expect(head.status).toBe(401);
    expect(await head.text()).toBe("");
  });
});

describe("OPTIONS and CORS preflight from another site", () => {
  it.each(templates.map((t) => [t]))("OPTIONS %s: no data, no CORS grant to evil.example", async (template) => {
    const res = await new Browser().request("OPTIONS", fill(template), undefined, {
      origin: "https://evil.example",
      "access-control-request-method": "POST",
      "access-control-request-headers": "content-type, authorization",
    });
    expect(res.status).toBeLessThan(500);
    expect(res.status === 204 || res.status === 405 || res.status === 200, `status ${res.status}`).toBe(true);
    expect(await res.text()).toBe("");
    const acao = res.headers.get("access-control-allow-origin");
    expect(acao === null || (acao !== "*" && acao !== "https://evil.example"), `ACAO ${acao}`).toBe(true);
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
  });
});

describe("methods a route does not export, and method overrides", () => {
  const ALL: Method[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];
  const cases = templates.flatMap((t) => {
    const exported = new Set(ROUTES.filter((h) => h.template === t).map((h) => h.method));
    return ALL.filter((m) => !exported.has(m)).map((m) => [`${m} ${t}`, m, t] as const);
  });
  it.each(cases)("%s (with the victim's session) → 405, nothing changed", async (_, method, template) => {
    const b = new Browser();
    for (const n of victim.browser.cookieNames()) b.setCookie(n, victim.browser.cookie(n));
    const res = await b.request(method, fill(template), method === "GET" ? undefined : {}, sameOrigin());
    expect(res.status).toBe(405);
  });

  it.each(["x-http-method-override", "x-http-method", "x-method-override"])("POST /api/collections/{id} with %s: DELETE → 405, the collection stays", async (header) => {
    const b = new Browser();
    for (const n of victim.browser.cookieNames()) b.setCookie(n, victim.browser.cookie(n));
    const res = await b.request("POST", `/api/collections/${victim.collectionId}`, {}, { ...sameOrigin(), [header]: "DELETE" });
    expect(res.status).toBe(405);
    expect((await victim.browser.get(`/api/collections/${victim.collectionId}`)).status).toBe(200);
  });
});

describe("a forged session cookie on pages", () => {
  /** The victim's claims under alg NONE with the genuine kid: supabase-js cannot process it (it used to throw → 500). */
  function forgedCookieBrowser(): Browser {
    const [h, p, s] = victim.token.split(".");
    const header = JSON.parse(Buffer.from(h, "base64url").toString()) as { kid: string };
    const token = `${Buffer.from(JSON.stringify({ alg: "NONE", typ: "JWT", kid: header.kid })).toString("base64url")}.${p}.${s}`;
    const session = { access_token: token, refresh_token: "none", expires_at: Math.floor(Date.now() / 1000) + 3600, token_type: "bearer", user: { id: victim.id } };
    const b = new Browser();
    for (const c of createChunks(sessionCookieName(stackEnv().supabaseUrl as string), `base64-${stringToBase64URL(JSON.stringify(session))}`)) b.setCookie(c.name, c.value);
    return b;
  }

  it.each(["/", "/search", "/status"])("public page %s renders (200) as a signed-out visitor", async (page) => {
    const res = await forgedCookieBrowser().get(page);
    expect(res.status).toBe(200);
    expect(await res.text()).not.toContain(victim.email);
  });

  it.each(GATED_PAGES.map((p) => [p]))("gated page %s → 307 to sign-in", async (page) => {
    const res = await forgedCookieBrowser().get(fill(page));
    expect(res.status).toBe(307);
    expect(new URL(res.headers.get("location") as string, "http://x.invalid").pathname).toBe("/sign-in");
  });
});
