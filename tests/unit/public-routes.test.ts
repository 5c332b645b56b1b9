import { describe, expect, it } from "vitest";
import { isApiKeyRoute, isPublicRoute, PUBLIC_ROUTES } from "@/lib/auth/public-routes";

const ID = "0b5f8f0e-6a53-4f0c-9d1e-2f5d8b1a7c11";

// Spec: Authentication item 4, plus D-16's additions.
const PUBLIC: Array<[string, string]> = [
  ["GET", "/"],
  ["GET", "/about"],
  ["GET", "/blog"],
  ["GET", "/blog/first-post"],
  ["GET", "/search"],
  ["GET", `/documents/${ID}`],
  ["GET", "/cite/[2015] EWCA Crim 1390"],
  ["GET", "/cite/II AKa 516/19"],
  ["GET", "/status"],
  ["GET", "/dashboard"],
  ["GET", "/c/Ab3dEf9hJk2m"],
  ["GET", "/api/cohorts/Ab3dEf9hJk2m"],
  ["GET", "/sign-in"],
  ["GET", "/sign-up"],
  ["GET", "/api/search/documents"],
  ["GET", "/api/search/suggest"],
  ["GET", "/api/search/autocomplete"],
  ["GET", `/api/documents/${ID}/metadata`],
  ["GET", `/api/documents/${ID}/similar`],
  ["GET", `/api/documents/${ID}/html`],
  ["GET", `/api/documents/${ID}/references`],
  ["GET", `/api/documents/${ID}/cited-by`],
  ["GET", `/api/documents/${ID}/download`],
  ["GET", "/legislation/PL/kk/279/%C2%A71"],
  ["GET", "/api/legislation"],
  ["GET", "/api/legislation/UK/ukpga/1861/100/s18"],
  ["POST", "/api/events"],
  ["GET", "/api/health/status"],
  ["GET", "/api/dashboard/stats"],
  ["GET", "/api/llm/status"],
  ["POST", "/api/search/topic-click"],
  ["GET", "/api/search/topics/meta"],
  ["GET", "/api/search/topics/trending"],
  ["GET", "/api/blog/posts"],
  ["GET", "/api/blog/posts/abc"],
  ["POST", "/api/contact"],
  // Content area.
  ["GET", "/blog/rss.xml"],
  ["GET", "/publications"],
  ["GET", "/contact"],
  ["GET", "/api/blog/categories"],
  ["GET", "/api/publications"],
  ["GET", `/api/publications/${ID}`],
  ["POST", "/api/auth/sign-in"],
  ["POST", "/api/auth/sign-up"],
  ["POST", "/api/auth/sign-out"],
  ["GET", "/api/auth/me"],
  // api-v1 area: the API documentation page and the OpenAPI document.
  ["GET", "/developers"],
  ["GET", "/api/v1/openapi.json"],
  // Accounts: a digest's unsubscribe link.
  ["GET", "/unsubscribe"],
  ["POST", "/api/unsubscribe"],
];

// Lookalikes and sign-in-required routes (spec item 5) that must stay gated.
const GATED: Array<[string, string]> = [
  // Content area: writes and admin pages stay gated.
  ["POST", "/api/publications"],
  ["PATCH", `/api/publications/${ID}`],
  ["DELETE", `/api/publications/${ID}`],
  ["GET", "/api/blog/admin/posts"],
  ["GET", "/admin/blog"],
  ["GET", "/publications/x"],
  ["GET", "/search/extractions"],
  ["GET", "/saved"],
  ["GET", "/settings"],
  ["GET", "/admin/mail"],
  ["GET", "/api/unsubscribe"],
  ["GET", "/api/saved-searches"],
  ["GET", "/searchx"],
  ["GET", "/search/"],
  ["GET", "/SEARCH"],
  ["GET", "//search"],
  ["GET", "/search/extractions/x"],
  ["GET", "/developers/x"],
  ["GET", "/api/settings/api-keys"],
  ["POST", "/search"],
  ["POST", "/api/search/documents"],
  ["DELETE", "/api/search/documents"],
  ["GET", "/api/search/documents/extra"],
  ["GET", "/api/search/documentsx"],
  ["POST", "/api/documents/search"],
  ["POST", "/api/documents/batch"],
  ["POST", `/api/documents/${ID}/metadata`],
  ["GET", `/api/documents/${ID}/metadata/extra`],
  ["GET", `/api/documents/${ID}/versions`],
  ["GET", `/documents/${ID}/edit`],
  ["GET", "/api/events"],
  ["GET", "/api/health/status/extra"],
  ["GET", "/api/health"],
  ["GET", "/aboutx"],
  ["GET", "/collections"],
  ["GET", `/collections/${ID}`],
  ["GET", "/api/collections"],
  ["POST", "/api/collections/from-filter"],
  ["POST", "/api/extractions/base-schema/filter"],
  ["POST", "/api/extractions/base-schema/aggregate"],
  ["POST", "/api/extractions/base-schema/nl-filter"],
  ["GET", "/api/search/analytics/history"],
  ["DELETE", "/api/search/analytics/history"],
  ["POST", "/api/cohorts"],
  ["POST", "/api/cohorts/compare"],
  ["GET", "/api/cohorts/Ab3dEf9hJk2m/x"],
  ["GET", "/c/short"],
  ["GET", "/cohorts/compare"],
  ["GET", "/history"],
  ["GET", "/api/search/topics/my-clicks"],
  ["GET", "/api/saved-searches"],
  ["GET", "/chat"],
  ["GET", "/api/blog/admin/posts"],
  ["POST", "/api/dashboard/stats"],
  ["POST", "/api/dashboard/refresh"],
  ["GET", "/dashboard/x"],
  ["GET", "/admin"],
  ["GET", "/api/admin/stats"],
  ["POST", "/api/blog/posts"],
  ["GET", "/api/admin/stats"],
  ["POST", "/api/guest/convert"],
];

describe("public-route allowlist", () => {
  it.each(PUBLIC)("%s %s is public", (method, path) => {
    expect(isPublicRoute(method, path)).toBe(true);
  });

  it.each(GATED)("%s %s is gated", (method, path) => {
    expect(isPublicRoute(method, path)).toBe(false);
  });

  it("covers every entry of the allowlist with a positive case", () => {
    for (const r of PUBLIC_ROUTES) {
      expect(PUBLIC.some(([m, p]) => r.methods.includes(m as never) && r.pattern.test(p)), r.note).toBe(true);
    }
  });

  it("method matching is case-insensitive but otherwise exact", () => {
    expect(isPublicRoute("get", "/search")).toBe(true);
    expect(isPublicRoute("PUT", "/api/events")).toBe(false);
  });

  it("treats only /api/v1 paths as API-key routes", () => {
    expect(isApiKeyRoute("/api/v1/documents")).toBe(true);
    expect(isApiKeyRoute("/api/v1")).toBe(true);
    expect(isApiKeyRoute("/api/v10/documents")).toBe(false);
    expect(isApiKeyRoute("/api/v1x")).toBe(false);
  });
});
