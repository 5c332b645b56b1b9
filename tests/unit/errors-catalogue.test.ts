/**
 * One error catalogue. The catalogue's own rules (one status per code, the doc generated from it,
 * INVALID_FILTER gone), how ApiError and the renderer use it, and the layering (no error import from the
 * HTTP layer below lib/api).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { errorResponse, RateLimitError } from "@/lib/api/errors";
import { ApiError, ERRORS, isErrorCode, STATUS_NAMES, statusName, statusOf, type ErrorCode } from "@/lib/errors";
import { DOC_PATH, renderErrorsDoc, ROOT } from "../../server/cli/gen-errors-doc";

const codes = Object.keys(ERRORS) as ErrorCode[];

function filesUnder(rel: string): string[] {
  const full = path.join(ROOT, rel);
  if (statSync(full).isFile()) return /\.(ts|tsx)$/.test(rel) ? [rel] : [];
  return readdirSync(full).flatMap((n) => filesUnder(path.posix.join(rel, n)));
}

describe("the catalogue", () => {
  it("gives every code an HTTP error status with a reference name, a message, and names the code after itself", () => {
    expect(codes.length).toBeGreaterThan(50);
    for (const code of codes) {
      const { status, message } = ERRORS[code];
      expect(code).toMatch(/^[A-Z][A-Z0-9_]*$/);
      expect(status, code).toBeGreaterThanOrEqual(400);
      expect(status, code).toBeLessThan(600);
      expect(Object.keys(STATUS_NAMES).map(Number), code).toContain(status);
      expect(message.trim().length, code).toBeGreaterThan(0);
      expect(isErrorCode(code)).toBe(true);
    }
    expect(isErrorCode("NOT_A_CODE")).toBe(false);
    expect(isErrorCode("toString")).toBe(false);
  });

  it("holds one code per meaning for invalid filters: FILTER_INVALID 422 (D-06); INVALID_FILTER (400) is gone", () => {
    expect(statusOf("FILTER_INVALID")).toBe(422);
    expect(isErrorCode("INVALID_FILTER")).toBe(false);
  });

  it("keeps the statuses the spec's Errors table names", () => {
    const spec: [ErrorCode, number][] = [
      ["COLLECTION_IDS_NOT_ALLOWED", 400],
      ["INVALID_COLLECTION_ID", 400],
      ["COLLECTION_NOT_FOUND", 404],
      ["FILTER_EMPTY", 400],
      ["FILTER_TOO_LARGE", 413],
      ["FIELD_NOT_AGGREGABLE", 422],
      ["AGGREGATE_FAILED", 500],
      ["DATABASE_UNAVAILABLE", 503],
      ["NL_FILTER_INVALID", 422],
      ["NL_FILTER_FAILED", 502],
      ["SEMANTIC_UNAVAILABLE", 502],
      ["UPSTREAM_TIMEOUT", 504],
      ["VALIDATION_ERROR", 422],
    ];
    expect(spec.map(([c]) => [c, statusOf(c)])).toEqual(spec);
  });
});

describe("docs/errors.md", () => {
  it("is what server/cli/gen-errors-doc.ts generates from the catalogue (run `npm run errors:doc` when this fails)", () => {
    expect(readFileSync(DOC_PATH, "utf8")).toBe(renderErrorsDoc());
  });

  it("lists every code with its status", () => {
    const doc = renderErrorsDoc();
    for (const code of codes) expect(doc).toMatch(new RegExp(`\\| \`${code}\`[^|]* \\| ${ERRORS[code].status} \\|`));
  });
});

describe("ApiError", () => {
  it("takes its status from the code, the catalogue's message unless given one, extra and headers", () => {
    const plain = new ApiError("COLLECTION_NOT_FOUND");
    expect([plain.status, plain.code, plain.message]).toEqual([404, "COLLECTION_NOT_FOUND", "Collection not found."]);
    const own = new ApiError("FILTER_INVALID", "jurisdiction must be a list", { field: "jurisdiction" }, { "X-A": "1" });
    expect([own.status, own.message, own.extra, own.headers]).toEqual([422, "jurisdiction must be a list", { field: "jurisdiction" }, { "X-A": "1" }]);
    expect(own).toBeInstanceOf(Error);
  });

  it("renders every code as the envelope, and under /api/v1 as the reference shape named from the catalogue", async () => {
    for (const code of codes) {
      const e = new ApiError(code);
      const envelope = errorResponse(e, "/api/collections");
      expect(envelope.status).toBe(ERRORS[code].status);
      expect(await envelope.json()).toEqual({ detail: { code, message: ERRORS[code].message } });
      if (e.status === 429) continue;
      const ref = errorResponse(e, "/api/v1/search");
      expect(await ref.json()).toEqual({ error: statusName(e.status), message: ERRORS[code].message, details: { code }, status_code: e.status });
    }
    expect(statusName(504)).toBe("GatewayTimeout");
    expect(statusName(418)).toBe("BadRequest");
  });

  it("keeps the reference 429 body for rate limits, and the guest 429 envelope with upgrade_url everywhere", async () => {
    const limited = errorResponse(new RateLimitError(7, { "X-RateLimit-Limit": "60" }), "/api/v1/search");
    expect(await limited.json()).toEqual({ error: "RateLimitExceeded", message: ERRORS.RATE_LIMITED.message, retry_after: 7, status_code: 429 });
    expect(limited.headers.get("retry-after")).toBe("7");
    const guest = errorResponse(new ApiError("GUEST_LIMIT_REACHED", undefined, { upgrade_url: "/sign-up" }), "/api/v1/search");
    expect(guest.status).toBe(429);
    expect(await guest.json()).toEqual({ detail: { code: "GUEST_LIMIT_REACHED", message: ERRORS.GUEST_LIMIT_REACHED.message, upgrade_url: "/sign-up" } });
  });
});

describe("layering", () => {
  it("lib/backend, lib/schema, lib/llm, lib/search and lib/supabase take errors from lib/errors, never from lib/api", () => {
    const offenders = ["lib/backend", "lib/schema", "lib/llm", "lib/search", "lib/supabase"]
      .flatMap(filesUnder)
      .filter((f) => /from\s+["'](@\/lib\/api\/errors|(\.\.\/)+api\/errors)["']/.test(readFileSync(path.join(ROOT, f), "utf8")));
    expect(offenders).toEqual([]);
  });

  it("lib/errors imports nothing from the HTTP layer", () => {
    const imports = filesUnder("lib/errors").flatMap((f) =>
      [...readFileSync(path.join(ROOT, f), "utf8").matchAll(/from\s+["']([^"']+)["']/g)].map((m) => m[1]),
    );
    expect(imports.filter((i) => /lib\/api|^next|\/route/.test(i))).toEqual([]);
  });

  it("no call site passes a status to ApiError any more: the code carries it", () => {
    const offenders = ["app", "components", "lib", "bench", "tests"]
      .flatMap(filesUnder)
      .filter((f) => /new ApiError\(\s*\d/.test(readFileSync(path.join(ROOT, f), "utf8")));
    expect(offenders).toEqual([]);
  });
});
