import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openApiDocument, V1_OPERATIONS } from "@/lib/backend/api-v1/openapi";

/**
 * Issue 19 item 3: the OpenAPI document and the route files agree both ways. Every method exported by an
 * `app/api/v1/**\/route.ts` is a documented operation, and every documented operation has its route file and method.
 */
const V1_DIR = path.join(process.cwd(), "app/api/v1");

function routeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return routeFiles(full);
    return name === "route.ts" ? [full] : [];
  });
}

/** "GET /api/v1/documents/{id}" for each method a route file exports. */
function routesInCode(): string[] {
  return routeFiles(V1_DIR).flatMap((file) => {
    const rel = path.relative(V1_DIR, path.dirname(file)).split(path.sep).filter(Boolean);
    const urlPath = ["/api/v1", ...rel.map((seg) => seg.replace(/^\[(\w+)\]$/, "{$1}"))].join("/");
    const source = readFileSync(file, "utf8");
    return [...source.matchAll(/export const (GET|POST|PUT|PATCH|DELETE)\b/g)].map((m) => `${m[1]} ${urlPath}`);
  });
}

describe("the OpenAPI document of /api/v1", () => {
  const doc = openApiDocument() as { openapi: string; paths: Record<string, Record<string, { responses: Record<string, unknown>; "x-not-implemented"?: boolean }>> };
  const documented = Object.entries(doc.paths).flatMap(([p, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${p}`));

  it("documents every route in app/api/v1 and nothing else", () => {
    expect(documented.sort()).toEqual(routesInCode().sort());
    expect(documented.length).toBe(V1_OPERATIONS.length);
  });

  it("is OpenAPI 3.1 with request schemas generated from zod and the reference error shapes", () => {
    expect(doc.openapi).toBe("3.1.0");
    const search = doc.paths["/api/v1/documents/search"].post as unknown as { requestBody: { content: { "application/json": { schema: { required: string[]; properties: Record<string, { enum?: string[] }> } } } } };
    const schema = search.requestBody.content["application/json"].schema;
    expect(schema.required).toEqual(["query"]);
    expect(schema.properties.search_type.enum).toEqual(["text", "semantic", "hybrid"]);
    expect(doc.paths["/api/v1/documents/search"].post.responses).toHaveProperty("429");
  });

  it("marks the capabilities not built yet, and only them, as 501", () => {
    const marked = Object.entries(doc.paths).flatMap(([p, ms]) => Object.entries(ms).filter(([, op]) => op["x-not-implemented"]).map(([m]) => `${m} ${p}`));
    expect(marked.sort()).toEqual(["get /api/v1/schemas", "post /api/v1/schemas/generate"]);
    for (const m of marked) {
      const [method, p] = m.split(" ");
      expect(doc.paths[p][method].responses).toHaveProperty("501");
    }
  });
});
