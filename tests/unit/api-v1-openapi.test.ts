import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openApiDocument, V1_OPERATIONS } from "@/lib/backend/api-v1/openapi";

/**
 * The OpenAPI document and the route files agree both ways. Every method exported by an
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
    const urlPath = ["/api/v1", ...rel.map((seg) => seg.replace(/^\[(?:\.\.\.)?(\w+)\]$/, "{$1}"))].join("/");
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

  it("marks no capability as not built: every route answers for real, none documents a 501", () => {
    const ops = Object.entries(doc.paths).flatMap(([p, ms]) => Object.entries(ms).map(([m, op]) => ({ name: `${m} ${p}`, op })));
    expect(ops.filter(({ op }) => op["x-not-implemented"]).map((o) => o.name)).toEqual([]);
    expect(ops.filter(({ op }) => "501" in op.responses).map((o) => o.name)).toEqual([]);
  });

  it("documents the schema list (paged, Link, 403 for a userless key) and the generator (503 without a model) with their answer shapes", () => {
    type Op = { parameters?: { name: string }[]; responses: Record<string, { headers?: Record<string, unknown>; content?: { "application/json": { schema: { properties?: Record<string, unknown>; required?: string[] } } } }> };
    const list = doc.paths["/api/v1/schemas"].get as unknown as Op;
    expect(list.parameters?.map((p) => p.name)).toEqual(["limit", "offset"]);
    expect(list.responses["200"].headers).toHaveProperty("Link");
    expect(list.responses).toHaveProperty("403");
    const listShape = list.responses["200"].content?.["application/json"].schema;
    expect(listShape?.required).toEqual(expect.arrayContaining(["schemas", "total"]));
    expect(Object.keys((listShape?.properties?.schemas as { items: { properties: Record<string, unknown> } }).items.properties).sort()).toEqual(["created_at", "description", "id", "name", "version"]);

    const generate = doc.paths["/api/v1/schemas/generate"].post as unknown as Op & { requestBody: { content: { "application/json": { schema: { required: string[] } } } } };
    expect(generate.requestBody.content["application/json"].schema.required).toEqual(["description"]);
    expect(Object.keys(generate.responses).sort()).toEqual(["200", "401", "404", "422", "429", "502", "503", "504"]);
    expect(generate.responses["200"].content?.["application/json"].schema.required).toContain("schema");
  });
});
