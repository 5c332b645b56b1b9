import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminPool } from "../helpers/stack";
import { Browser, signedInBrowser } from "../helpers/http";

/**
 * A schemathesis-style property test. Requests generated at random from the served OpenAPI document (each
 * operation's query parameters and JSON body, valid by the document's schemas) never answer 5xx, except the 501 an
 * operation documents as not implemented and the 503 LLM_NOT_CONFIGURED an operation that needs a language model
 * documents (the test app has none); every error is in the reference shape.
 */
type Schema = {
  type?: string;
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  maxItems?: number;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
};
type Operation = {
  parameters?: { name: string; in: "query" | "path"; required: boolean; schema: Schema }[];
  requestBody?: { content: { "application/json": { schema: Schema } } };
  "x-not-implemented"?: boolean;
  security?: unknown[];
  responses: Record<string, unknown>;
};

const isoDay = fc.date({ min: new Date("1990-01-01"), max: new Date("2030-12-31"), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));

/** A fast-check arbitrary of the values a JSON Schema (the subset zod emits for our requests) accepts. */
function arb(s: Schema, ids: string[]): fc.Arbitrary<unknown> {
  if (s.anyOf) return fc.oneof(...s.anyOf.map((x) => arb(x, ids)));
  if (s.enum) return fc.constantFrom(...s.enum);
  if (s.const !== undefined) return fc.constant(s.const);
  switch (s.type) {
    case "string": {
      if (s.format === "uuid") return fc.oneof(fc.uuid(), fc.constantFrom(...ids));
      if (s.pattern === "^\\d{4}-\\d{2}-\\d{2}$") return isoDay;
      const str = fc.string({ minLength: s.minLength ?? 0, maxLength: Math.min(s.maxLength ?? 40, 40) });
      if (!s.pattern) return str;
      // Drawn from the pattern itself: filtering random strings by a pattern few of them match (a `cites` provision
      // id) spun this process for seconds, starving its own keep-alive sockets, which the app then closed as idle.
      const re = new RegExp(s.pattern, "u");
      return fc.stringMatching(re).filter((v) => v.length <= (s.maxLength ?? Infinity));
    }
    case "integer":
      return fc.integer({ min: s.minimum ?? -1000, max: s.maximum ?? 100_000 });
    case "number":
      return fc.double({ min: s.minimum ?? -1000, max: s.maximum ?? 1000, noNaN: true, noDefaultInfinity: true });
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array":
      return fc.array(s.items ? arb(s.items, ids) : fc.constant("x"), { maxLength: Math.min(s.maxItems ?? 4, 4) });
    case "object": {
      const props = s.properties ?? {};
      const model = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, arb(v, ids)]));
      return fc.record(model, { requiredKeys: (s.required ?? []).filter((k) => k in props) });
    }
    default:
      return fc.constant({}); // an unconstrained value (e.g. the filter object, checked by its own parser)
  }
}

/** details.code of an error body, or undefined when it is not the reference JSON (the shape check then reports it). */
function errorCode(text: string): string | undefined {
  try {
    return (JSON.parse(text) as { details?: { code?: string } }).details?.code;
  } catch {
    return undefined;
  }
}

const pool = adminPool();
let key = "";
let doc: { paths: Record<string, Record<string, Operation>> };
let ids: string[] = [];

beforeAll(async () => {
  const { browser } = await signedInBrowser();
  const res = await browser.post("/api/settings/api-keys", { name: "property test" });
  key = ((await res.json()) as { key: string }).key;
  doc = (await (await new Browser().get("/api/v1/openapi.json")).json()) as typeof doc;
  ids = (await pool.query<{ id: string }>("select id::text from public.judgments order by id limit 3")).rows.map((r) => r.id);
}, 60_000);

afterAll(() => pool.end());

describe("random valid requests from the OpenAPI document never answer 5xx", () => {
  it("holds for every operation", async () => {
    const ops = Object.entries(doc.paths).flatMap(([p, methods]) => Object.entries(methods).map(([m, op]) => ({ path: p, method: m.toUpperCase(), op })));
    expect(ops.length).toBeGreaterThan(15);
    for (const { path, method, op } of ops) {
      const client = new Browser(); // an address of its own per operation: the per-address limit is not under test
      const params = op.parameters ?? [];
      const query = fc.record(
        Object.fromEntries(params.filter((p) => p.in === "query").map((p) => [p.name, arb(p.schema, ids)])),
        { requiredKeys: params.filter((p) => p.in === "query" && p.required).map((p) => p.name) },
      );
      const id = fc.oneof(fc.constantFrom(...ids), fc.uuid());
      const body = op.requestBody ? arb(op.requestBody.content["application/json"].schema, ids) : fc.constant(undefined);
      await fc.assert(
        fc.asyncProperty(query, id, body, async (q, docId, b) => {
          const qs = new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)])).toString();
          const url = path.replace("{id}", docId) + (qs ? `?${qs}` : "");
          const res = await client.request(method, url, b, { "x-api-key": key });
          const text = await res.text();
          const code = res.status >= 400 ? errorCode(text) : undefined;
          const noModel = res.status === 503 && "503" in op.responses && code === "LLM_NOT_CONFIGURED";
          const allowed = res.status < 500 || noModel;
          if (!allowed) throw new Error(`${method} ${url} ${JSON.stringify(b)} → ${res.status} ${text}`);
          if (res.status >= 400) expect(JSON.parse(text)).toMatchObject({ error: expect.any(String), status_code: res.status });
        }),
        { numRuns: 6 },
      );
    }
  }, 240_000);
});
