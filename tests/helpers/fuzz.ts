import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { RouteHandler } from "./security-routes";

/**
 * Parts of the bounded fuzzer (tests/security/fuzz.test.ts): a seeded PRNG, the hostile values it sends, the field
 * names each route may read (taken from its source), minimal valid bodies of OpenAPI operations, and a raw sender that
 * puts a path on the wire exactly as built (no URL normalisation, so `%ZZ`, `%00` and `..` arrive as sent).
 */

/** mulberry32: a small seeded PRNG, so every run sends the same requests in the same order. */
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick<T>(xs: readonly T[]): T {
      if (xs.length === 0) throw new Error("pick from nothing");
      return xs[Math.floor(next() * xs.length)];
    },
    chance: (p: number) => next() < p,
  };
}
export type Rng = ReturnType<typeof prng>;

/**
 * A JSON value written as raw text: what JSON.stringify cannot produce (1e400, -0, 2^64 beyond double precision,
 * 10,000 levels of nesting) or what must reach the server byte for byte (a lone surrogate escape).
 */
export interface Raw {
  raw: string;
}
const raw = (text: string): Raw => ({ raw: text });
const nested = (depth: number, open: string, close: string, inner = "1") => open.repeat(depth) + inner + close.repeat(depth);

/** Hostile JSON values for a body field, by class (the class names go into the summary). */
export const HOSTILE_VALUES: readonly [string, unknown][] = [
  ["NUL in a string", "a\u0000b"],
  ["lone surrogate (JSON \\ud800)", raw('"x\\ud800y"')],
  ["lone low surrogate (JSON \\udfff)", raw('"\\udfff"')],
  ["%-escape of a surrogate as text", "%ED%A0%80"],
  ["malformed %-escape as text", "%E0%A4%A"],
  ["huge number 1e400", raw("1e400")],
  ["negative huge number -1e400", raw("-1e400")],
  ["2^64", raw("18446744073709551616")],
  ["2^53+1", raw("9007199254740993")],
  ["-0", raw("-0")],
  ["tiny 5e-324", raw("5e-324")],
  ["negative", -1],
  ["fraction", 1.5],
  ["NaN as a string", "NaN"],
  ["Infinity as a string", "Infinity"],
  ["-0 as a string", "-0"],
  ["1e400 as a string", "1e400"],
  ["array for a scalar", ["a", "b"]],
  ["empty array", []],
  ["object for a scalar", { $gt: "" }],
  ["null", null],
  ["boolean", true],
  ["empty string", ""],
  ["whitespace", " \t\n "],
  ["over-long string (70,000)", "x".repeat(70_000)],
  ["long string (5,000)", "ż".repeat(5_000)],
  ["__proto__ object", raw('{"__proto__":{"polluted":true,"isAdmin":true}}')],
  ["constructor.prototype object", { constructor: { prototype: { polluted: true } } }],
  ["array of 10,000 items", Array.from({ length: 10_000 }, (_, i) => i)],
  ["nested 30 levels (under the cap)", raw(nested(30, '{"a":', "}"))],
  ["SQL and filter syntax", "' OR 1=1 --\"; AND (a:1 OR b:2) NOT"],
  ["control and format characters", "\u202e\u200b\u0007\u001b[31m\ufeff"],
  ["astral characters", "𝔘𝔫𝔦😀"],
  ["uuid-like but not", "00000000-0000-0000-0000-00000000000g"],
];

/** Hostile raw bodies, sent instead of a JSON object. */
export const HOSTILE_BODIES: readonly [string, string][] = [
  ["10,000 nested arrays", nested(10_000, "[", "]")],
  ["10,000 nested objects", nested(10_000, '{"a":', "}")],
  ["top-level array", "[1,2,3]"],
  ["top-level null", "null"],
  ["top-level string", '"x"'],
  ["top-level 1e400", "1e400"],
  ["truncated JSON", '{"a":'],
  ["not JSON", "name=x&y=1"],
  ["lone surrogate key", '{"\\ud800":1}'],
  ["__proto__ at top level", '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}'],
  ["duplicate keys", '{"name":"a","name":["b"],"limit":1,"limit":{"x":1}}'],
  ["empty body", ""],
  ["NUL bytes", "{\u0000}"],
];

/** Hostile path segments (already %-encoded as they go on the wire). */
export const HOSTILE_SEGMENTS: readonly [string, string][] = [
  ["malformed %-escape %ZZ", "%ZZ"],
  ["truncated %-escape %E0%A4%A", "%E0%A4%A"],
  ["lone %", "%"],
  ["trailing %4", "abc%4"],
  ["encoded lone surrogate %ED%A0%80", "%ED%A0%80"],
  ["overlong encoding %C0%AF", "%C0%AF"],
  ["invalid UTF-8 %FF", "%FF%FE"],
  ["NUL %00", "%00"],
  ["NUL inside a%00b", "a%00b"],
  ["1e400", "1e400"],
  ["2^64", "18446744073709551616"],
  ["-0", "-0"],
  ["NaN", "NaN"],
  ["__proto__", "__proto__"],
  ["constructor", "constructor"],
  ["over-long segment (4,000)", "x".repeat(4_000)],
  ["encoded slash and dots", "..%2F..%2Fetc%2Fpasswd"],
  ["astral %F0%9F%98%80", "%F0%9F%98%80"],
  ["quotes and angle brackets", "%27%22%3Cscript%3E"],
  ["uuid with NUL", "00000000-0000-4000-8000-000000000000%00"],
];

/** Hostile query values (already %-encoded). */
export const HOSTILE_QUERY_VALUES: readonly [string, string][] = [
  ["malformed %-escape", "%ZZ"],
  ["truncated %-escape", "%E0%A4%A"],
  ["lone %", "%"],
  ["encoded lone surrogate", "%ED%A0%80"],
  ["NUL", "a%00b"],
  ["1e400", "1e400"],
  ["2^64", "18446744073709551616"],
  ["-0", "-0"],
  ["NaN", "NaN"],
  ["Infinity", "Infinity"],
  ["hex number", "0x10"],
  ["negative", "-1"],
  ["fraction", "1.5"],
  ["empty", ""],
  ["over-long (3,000)", "y".repeat(3_000)],
  ["JSON object text", "%7B%22__proto__%22%3A%7B%22x%22%3A1%7D%7D"],
  ["SQL and filter syntax", "%27%20OR%201%3D1%20--%20AND%20(a%3A1"],
  ["bad date", "2019-02-30"],
];

/** Query shapes beyond one value: repeated keys (an array), bracket keys, prototype keys. */
export const HOSTILE_QUERY_SHAPES: readonly [string, (name: string, value: string) => string][] = [
  ["one value", (n, v) => `${n}=${v}`],
  ["repeated key (array)", (n, v) => `${n}=${v}&${n}=2&${n}=x`],
  ["bracket key", (n, v) => `${n}[]=${v}&${n}[a]=1`],
  ["__proto__ key", (n, v) => `__proto__=${v}&__proto__[${n}]=1&${n}=${v}`],
  ["constructor key", (n, v) => `constructor[prototype][${n}]=${v}&${n}=${v}`],
  ["key without value", (n) => `${n}&${n}=`],
];

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

/** Fallback names, for routes whose schemas the source scan finds no field of. */
const COMMON_FIELDS = ["q", "query", "name", "limit", "offset", "page", "per_page", "filters", "id", "ids", "document_ids", "text", "message", "sort", "from", "to"];

const fieldCache = new Map<string, string[]>();

/** Field names a zod object in `file` declares (`name: z.…`, `name: schemaOf(…)`): the vocabulary of the route. */
function fieldsOf(file: string): string[] {
  const cached = fieldCache.get(file);
  if (cached) return cached;
  let src = "";
  try {
    src = fs.readFileSync(file, "utf8");
  } catch {
    // an import the scan cannot resolve to a file: it adds no names
  }
  const names = new Set<string>();
  for (const m of src.matchAll(/^\s+(\w+)\??:\s*(?:z\.|\w+(?:Schema|Query|Body)\b|\w+\()/gm)) names.add(m[1]);
  const out = [...names];
  fieldCache.set(file, out);
  return out;
}

function resolveImport(spec: string): string | null {
  if (!spec.startsWith("@/lib/")) return null;
  const base = path.join(repo, spec.slice(2));
  for (const f of [`${base}.ts`, path.join(base, "index.ts")]) if (fs.existsSync(f)) return f;
  return null;
}

/**
 * The field names a route may read: those declared in its own file and in the lib/schema modules it imports. A superset
 * (a module declares other schemas too), which suits a fuzzer: a name it does not read is ignored.
 */
export function routeVocabulary(h: RouteHandler): string[] {
  const file = path.join(repo, h.file);
  const src = fs.readFileSync(file, "utf8");
  const names = new Set(fieldsOf(file));
  for (const m of src.matchAll(/from\s+"(@\/lib\/schema\/[^"]+)"/g)) {
    const f = resolveImport(m[1]);
    if (f) for (const n of fieldsOf(f)) names.add(n);
  }
  return names.size > 0 ? [...names].sort() : COMMON_FIELDS;
}

/** The subset of JSON Schema that zod emits for our request schemas (the OpenAPI document's bodies and parameters). */
export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  format?: string;
  pattern?: string;
  minLength?: number;
  minimum?: number;
  exclusiveMinimum?: number;
  minItems?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  default?: unknown;
}

/** A small value the schema accepts (required properties only), the base a fuzzed field is planted into. */
export function skeleton(s: JsonSchema, ids: { judgment: string }): unknown {
  if (s.const !== undefined) return s.const;
  if (s.enum && s.enum.length > 0) return s.enum[0];
  const alt = s.anyOf ?? s.oneOf;
  if (alt) return skeleton(alt.find((x) => x.type !== "null") ?? alt[0], ids);
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== "null") : s.type;
  switch (type) {
    case "string":
      if (s.format === "uuid") return ids.judgment;
      if (s.format === "date" || s.pattern?.includes("\\d{4}-\\d{2}-\\d{2}")) return "2019-01-01";
      if (s.format === "email") return "fuzz@example.org";
      return "robbery".padEnd(s.minLength ?? 0, "x");
    case "integer":
    case "number":
      return s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : 1);
    case "boolean":
      return false;
    case "null":
      return null;
    case "array":
      return (s.minItems ?? 0) > 0 && s.items ? [skeleton(s.items, ids)] : [];
    case "object": {
      const out: Record<string, unknown> = {};
      for (const k of s.required ?? []) if (s.properties?.[k]) out[k] = skeleton(s.properties[k], ids);
      return out;
    }
    default:
      return {};
  }
}

/** JSON text of `value`, with every Raw spliced in as written. */
export function toJsonText(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_k, v: unknown) => {
    if (v && typeof v === "object" && "raw" in v && typeof (v as Raw).raw === "string" && Object.keys(v).length === 1) {
      raws.push((v as Raw).raw);
      return `\u0001RAW${raws.length - 1}\u0001`;
    }
    return v;
  });
  return text.replace(/"\\u0001RAW(\d+)\\u0001"/g, (_, i: string) => raws[Number(i)]);
}

/** An answer as the fuzzer records it. */
export interface FuzzAnswer {
  status: number;
  contentType: string;
  text: string;
}

/**
 * One request with the path sent verbatim from `localAddress`. A request that gets no answer within `timeoutMs`
 * resolves as status 0 (the test reports it: a hang is a defect too).
 */
export function sendRaw(
  appUrl: string,
  req: { method: string; path: string; headers: Record<string, string>; body?: string; localAddress: string },
  timeoutMs: number,
): Promise<FuzzAnswer> {
  const url = new URL(appUrl);
  return new Promise((resolve) => {
    const headers = { ...req.headers, ...(req.body !== undefined ? { "content-length": String(Buffer.byteLength(req.body)) } : {}) };
    const r = http.request({ host: url.hostname, port: url.port, path: req.path, method: req.method, localAddress: req.localAddress, headers, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, contentType: String(res.headers["content-type"] ?? ""), text: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", (e) => resolve({ status: 0, contentType: "", text: `response error: ${e.message}` }));
    });
    r.on("timeout", () => r.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    r.on("error", (e) => resolve({ status: 0, contentType: "", text: `request error: ${e.message}` }));
    r.end(req.body);
  });
}

/**
 * The catalogue code of an error answer, or why it has none: the envelope `{detail: {code}}`, the reference shape
 * `{error, details: {code}, status_code}` under /api/v1, or the rate-limit body `{error: "RateLimitExceeded",
 * retry_after}` every 429 of the limiter carries (D-15).
 */
export function errorCodeOf(a: FuzzAnswer): { code?: string; problem?: string } {
  if (!a.contentType.includes("application/json")) return { problem: `not JSON (${a.contentType || "no content type"})` };
  let body: unknown;
  try {
    body = JSON.parse(a.text);
  } catch {
    return { problem: "JSON content type, unparsable body" };
  }
  if (!body || typeof body !== "object") return { problem: "not an object" };
  const b = body as { detail?: { code?: unknown }; details?: { code?: unknown }; error?: unknown; retry_after?: unknown };
  const code = b.detail?.code ?? b.details?.code;
  if (typeof code === "string") return { code };
  if (a.status === 429 && b.error === "RateLimitExceeded" && typeof b.retry_after === "number") return { code: "RATE_LIMITED" };
  return { problem: "no error code" };
}
