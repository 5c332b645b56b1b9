import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ERRORS } from "@/lib/errors/catalogue";
import {
  errorCodeOf,
  HOSTILE_BODIES,
  HOSTILE_QUERY_SHAPES,
  HOSTILE_QUERY_VALUES,
  HOSTILE_SEGMENTS,
  HOSTILE_VALUES,
  prng,
  routeVocabulary,
  sendRaw,
  skeleton,
  toJsonText,
  type FuzzAnswer,
  type JsonSchema,
  type Rng,
} from "../helpers/fuzz";
import { Browser, signedInBrowser } from "../helpers/http";
import { bodyFor, judgmentIds, ownOrigin } from "../helpers/security-fixtures";
import { apiRoutes, effectiveAuth, fillPath, key } from "../helpers/security-routes";
import { adminPool, stackEnv } from "../helpers/stack";

/**
 * A bounded, deterministic fuzzer over every route handler of app/api (read from the code by security-routes.ts), every
 * operation of the served OpenAPI document, and the dynamic pages: malformed %-escapes, NUL and lone surrogates in
 * path segments, query values and JSON strings; huge and odd numbers (1e400, 2^64, -0, "NaN"); 10,000 levels of
 * nesting; wrong types; `__proto__` and `constructor` keys; over-long strings. Sent as an anonymous visitor, as
 * signed-in users (and admins on admin routes), and with API keys on /api/v1. Nothing may answer 5xx (a 503
 * LLM_NOT_CONFIGURED is the test stack having no model, not a fault), nothing may go unanswered, and every API error is
 * JSON carrying a catalogue code.
 *
 * A poison pass comes first (a NUL and a lone surrogate in every string field the fuzzer can name for sure); the rest
 * are drawn from a PRNG with a fixed seed, so every run sends the same requests in the same order. REQUESTS
 * bounds the count and CAP_MS the wall clock: past the cap nothing more is sent (a bound on the test, not a timing
 * assertion). The summary (requests sent, statuses) is printed for the record.
 */

/** Fixed, so every run sends the same requests; FUZZ_SEED explores other draws by hand (npm test never sets it). */
const SEED = Number(process.env.FUZZ_SEED ?? 20261207);
const REQUESTS = 2_400;
const CAP_MS = 90_000;
const CONCURRENCY = 4;
const REQUEST_TIMEOUT_MS = 30_000;
/** Signed-in users and API keys to spread the requests over: each stays well under the per-user limit (100/min). */
const USERS = 16;
const KEYS = 6;
const ADMINS = 2;
/** A fresh anonymous address this often, so the per-address limit (100/min) does not answer most of them. */
const ANON_PER_ADDRESS = 40;
/** 5xx answers that report the test stack's configuration rather than a fault: no language model is configured. */
const CONFIGURED_ABSENCE = new Set(["LLM_NOT_CONFIGURED"]);

type Who = "anonymous" | "user" | "apiKey" | "admin";
type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

interface Target {
  what: string;
  kind: "route" | "openapi" | "page";
  method: Method;
  /** Path template with [name] segments. */
  template: string;
  who: Who;
  /** Field names for query and body mutations. */
  fields: string[];
  /** A plausible body (writes only). */
  base?: () => unknown;
  /** Property names of objects inside the base body that a field may be planted into (e.g. filters). */
  nestedInto: string[];
  /** Rounds it takes part in, of every 3: an anonymous caller on a signed-in-only route meets 401 first, so 1. */
  weight: 1 | 3;
  /** Documented query parameters and string body properties (OpenAPI operations), each poisoned once up front. */
  queryParams?: string[];
  stringProps?: string[];
}

interface Planned {
  target: Target;
  cls: string;
  method: Method;
  path: string;
  body?: string;
  /** Which identity of its kind sends it (index into the pool). */
  slot: number;
}

interface Outcome {
  planned: Planned;
  answer: FuzzAnswer;
}

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const pool = adminPool();
const ROUTES = apiRoutes();
const PLACEHOLDER = "00000000-0000-4000-8000-000000000000";
const CATALOGUE = new Set(Object.keys(ERRORS));

/** The dynamic pages (app/**\/page.tsx with a [segment]), attacked through their path only. */
function dynamicPages(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory() && e.name !== "api") walk(p);
      else if (e.name === "page.tsx") {
        const route = "/" + path.relative(path.join(repo, "app"), dir).split(path.sep).filter((s) => !/^\(.*\)$/.test(s)).join("/");
        if (/\[\w+\]/.test(route)) out.push(route);
      }
    }
  };
  walk(path.join(repo, "app"));
  return out.sort();
}

let ids: { judgment: string; collection: string };
let anon: { address: string; used: number };
let users: Browser[] = [];
let admins: Browser[] = [];
let keys: { key: string; address: string }[] = [];
let openapi: { paths: Record<string, Record<string, { parameters?: { name: string; in: string; schema: JsonSchema }[]; requestBody?: { content: { "application/json": { schema: JsonSchema } } } }>> };
let targets: Target[] = [];

/** Plausible bodies of writes that keep text, where the shared bodyFor has none: a poisoned field then gets past zod. */
const MORE_BODIES: Record<string, unknown> = {
  "POST /api/saved-searches": { name: "fuzz search", kind: "search", query: "robbery" },
  "PATCH /api/settings/profile": { display_name: "Fuzz" },
  "POST /api/settings/api-keys": { name: "fuzz key" },
  "POST /api/extractions/base-schema/filter": { filters: {}, text_query: "robbery" },
  "POST /api/extractions/base-schema/aggregate": { filters: {}, fields: ["decision_date"], text_query: "robbery" },
};

/** Every (handler or operation, identity) pair the fuzzer attacks. */
function buildTargets(): Target[] {
  const out: Target[] = [];
  for (const h of ROUTES) {
    const level = effectiveAuth(h, fillPath(h.template, { id: PLACEHOLDER }));
    const base = h.readsBody || h.method !== "GET" ? () => MORE_BODIES[key(h)] ?? bodyFor(h.method, h.template, { documentIds: [ids.judgment], collectionId: ids.collection }) : undefined;
    const fields = routeVocabulary(h);
    const nestedInto = ["filters", "context_filters", "alert", "properties", "fields", "context"];
    const common = { kind: "route" as const, method: h.method, template: h.template, fields, base, nestedInto };
    const whos: Who[] = ["anonymous"];
    if (h.apiKeyRequired) whos.push("apiKey");
    // Signing out as a fuzzed user would end the session the next requests rely on; anonymous sign-outs are sent.
    else if (h.template !== "/api/auth/sign-out") whos.push("user");
    // Admin writes without an id in the path change shared state (settings, mail runs, posts): only reads and
    // writes to an id the fuzzer fills (never a real row of another test) are sent as an admin.
    if (level === "admin" && (h.method === "GET" || /\[\w+\]/.test(h.template))) whos.push("admin");
    for (const who of whos) out.push({ ...common, who, what: `${key(h)} as ${who}`, weight: who === "anonymous" && level !== "public" ? 1 : 3 });
  }
  for (const [p, methods] of Object.entries(openapi.paths)) {
    for (const [m, op] of Object.entries(methods)) {
      const method = m.toUpperCase() as Method;
      const template = p.replace(/\{(\w+)\}/g, "[$1]");
      const bodySchema = op.requestBody?.content["application/json"].schema;
      const fields = [...(op.parameters ?? []).filter((x) => x.in === "query").map((x) => x.name), ...Object.keys(bodySchema?.properties ?? {})];
      const base = bodySchema ? () => skeleton(bodySchema, ids) : undefined;
      const queryParams = (op.parameters ?? []).filter((x) => x.in === "query").map((x) => x.name);
      const isString = (x: JsonSchema): boolean => x.type === "string" || (Array.isArray(x.type) && x.type.includes("string")) || !!(x.anyOf ?? x.oneOf)?.some(isString);
      const stringProps = Object.entries(bodySchema?.properties ?? {}).filter(([, x]) => isString(x)).map(([k]) => k);
      for (const who of ["apiKey", "anonymous"] as const) {
        out.push({ kind: "openapi", method, template, who, fields: fields.length > 0 ? fields : ["limit", "offset"], base, nestedInto: ["filters", "context_filters", "context"], what: `openapi ${method} ${p} as ${who}`, weight: who === "anonymous" && p !== "/api/v1/openapi.json" ? 1 : 3, queryParams, stringProps });
      }
    }
  }
  for (const page of dynamicPages()) out.push({ kind: "page", method: "GET", template: page, who: "anonymous", fields: ["next", "q", "page"], nestedInto: [], what: `page ${page}`, weight: 3 });
  return out;
}

/** A path segment: usually an id that exists or might, hostile when the class attacks the path. */
function segmentValue(rng: Rng, name: string, template: string, hostile: boolean): string {
  if (hostile) return rng.pick(HOSTILE_SEGMENTS)[1];
  if (name === "n") return rng.pick(["1", "2"]);
  if (name === "name") return rng.pick(["Smith", "Kowalski%20Jan"]);
  const valid = template.includes("/documents") ? ids.judgment : ids.collection;
  return rng.pick([valid, PLACEHOLDER, valid]);
}

/** The concrete path of `t`: its [segments] filled, and for the "path" class one of them (or a static one) hostile. */
function pathFor(rng: Rng, t: Target, attackPath: boolean): { path: string; cls?: string } {
  const dynamic = [...t.template.matchAll(/\[(?:\.\.\.)?(\w+)\]/g)].map((m) => m[1]);
  const hostileAt = attackPath && dynamic.length > 0 ? rng.int(dynamic.length) : -1;
  let i = 0;
  let cls: string | undefined;
  let p = t.template.replace(/\[(\.\.\.)?(\w+)\]/g, (_, rest: string | undefined, name: string) => {
    const hostile = i++ === hostileAt;
    if (!hostile) return rest ? "no-such-route" : segmentValue(rng, name, t.template, false);
    const [label, value] = rng.pick(HOSTILE_SEGMENTS);
    cls = `path segment: ${label}`;
    return value;
  });
  if (attackPath && hostileAt < 0) {
    // A static path: a hostile segment after it, or a malformed escape inside one of its segments.
    const [label, value] = rng.pick(HOSTILE_SEGMENTS);
    if (rng.chance(0.5)) {
      p = `${p}/${value}`;
      cls = `extra segment: ${label}`;
    } else {
      const segs = p.split("/");
      // Past "/api" for a route: a path that leaves /api is a page address (answered as one).
      const first = segs[1] === "api" && segs.length > 2 ? 2 : 1;
      const at = first + rng.int(segs.length - first);
      const cut = rng.int(segs[at].length + 1);
      segs[at] = segs[at].slice(0, cut) + value + segs[at].slice(cut);
      p = segs.join("/");
      cls = `inside a static segment: ${label}`;
    }
  }
  return { path: p, cls };
}

/** `base` with `field` set to `value`, at the top or inside one of its object members. */
function plant(rng: Rng, base: unknown, t: Target, field: string, value: unknown): unknown {
  const obj: Record<string, unknown> = base && typeof base === "object" && !Array.isArray(base) ? { ...(base as Record<string, unknown>) } : {};
  const into = t.nestedInto.filter((k) => k in obj || rng.chance(0.1));
  if (into.length > 0 && rng.chance(0.3)) {
    const k = rng.pick(into);
    const inner = obj[k] && typeof obj[k] === "object" && !Array.isArray(obj[k]) ? { ...(obj[k] as Record<string, unknown>) } : {};
    inner[field] = value;
    obj[k] = inner;
  } else obj[field] = value;
  return obj;
}

/** One request for `t`, drawn from `rng`. */
function plan(rng: Rng, t: Target, slot: number): Planned {
  const writes = t.method !== "GET";
  const classes = t.kind === "page" ? ["path", "path", "query"] : writes ? ["path", "query", "field", "field", "field", "body"] : ["path", "query", "query", "query"];
  const kind = rng.pick(classes);
  const { path: p, cls: pathCls } = pathFor(rng, t, kind === "path");
  let cls = pathCls ?? kind;
  let query = "";
  if (kind === "query") {
    const n = 1 + rng.int(2);
    const parts: string[] = [];
    const labels: string[] = [];
    for (let i = 0; i < n; i++) {
      const [shapeLabel, shape] = rng.pick(HOSTILE_QUERY_SHAPES);
      // A quarter NUL: URLSearchParams keeps it, so it is the query value that can reach the database as text.
      const [valueLabel, value] = rng.chance(0.25) ? ["NUL", "a%00b"] : rng.pick(HOSTILE_QUERY_VALUES);
      parts.push(shape(rng.pick(t.fields), value));
      labels.push(`${shapeLabel}: ${valueLabel}`);
    }
    query = `?${parts.join("&")}`;
    cls = `query ${labels[0]}`;
  }
  let body: string | undefined;
  if (writes) {
    const base = t.base?.() ?? {};
    if (kind === "body") {
      const [label, text] = rng.pick(HOSTILE_BODIES);
      body = text;
      cls = `body: ${label}`;
    } else if (kind === "field") {
      // About 40 % of the time a poisoned string (NUL, lone surrogate): the class that reaches the database as text.
      const [label, value] = rng.chance(0.35) ? rng.pick(HOSTILE_VALUES.slice(0, 3)) : rng.pick(HOSTILE_VALUES);
      // A field the plausible body already has is one the route surely reads; else any name the route's schemas know.
      const own = base && typeof base === "object" && !Array.isArray(base) ? Object.keys(base) : [];
      const field = own.length > 0 && rng.chance(0.6) ? rng.pick(own) : rng.pick(t.fields);
      body = toJsonText(plant(rng, base, t, field, value));
      cls = `field: ${label}`;
    } else body = toJsonText(base);
  }
  return { target: t, cls, method: t.method, path: p + query, body, slot };
}

/** The poisoned strings every field gets once: Postgres stores neither a NUL nor a lone surrogate as text. */
const POISON: readonly [string, unknown, string][] = [
  ["NUL", "a\u0000b", "a%00b"],
  ["lone surrogate", { raw: '"x\\ud800y"' }, "x%ED%A0%80y"],
];

/**
 * Not drawn: every string field the fuzzer can name for sure, poisoned once per POISON entry, by the identity that
 * gets past authentication (a signed-in user, or an API key under /api/v1): each key of a route's plausible body, and
 * each documented query parameter and string body property of an OpenAPI operation.
 */
function poisonPass(counters: Record<Who, number>): Planned[] {
  const out: Planned[] = [];
  for (const t of targets.filter((x) => x.who === "user" || x.who === "apiKey")) {
    const filled = t.template.replace(/\[(\.\.\.)?(\w+)\]/g, (_, rest: string | undefined, name: string) => (rest ? "no-such-route" : name === "n" ? "1" : t.template.includes("/documents") ? ids.judgment : ids.collection));
    for (const [label, value, encoded] of POISON) {
      for (const q of t.queryParams ?? []) out.push({ target: t, cls: `poisoned query ${q}: ${label}`, method: t.method, path: `${filled}?${q}=${encoded}`, slot: counters[t.who]++ });
      if (t.method === "GET") continue;
      const base = t.base?.();
      const own = base && typeof base === "object" && !Array.isArray(base) ? Object.keys(base) : [];
      for (const f of new Set([...own, ...(t.stringProps ?? [])])) {
        const body = toJsonText({ ...(base as Record<string, unknown>), [f]: value });
        out.push({ target: t, cls: `poisoned field ${f}: ${label}`, method: t.method, path: filled, body, slot: counters[t.who]++ });
      }
    }
  }
  return out;
}

/**
 * The whole run, in order: the poison pass, then rounds over the targets, each target in `weight` rounds of every 3
 * (the first round covers every one), REQUESTS in all.
 */
function planAll(): Planned[] {
  const rng = prng(SEED);
  const counters: Record<Who, number> = { anonymous: 0, user: 0, apiKey: 0, admin: 0 };
  const out: Planned[] = poisonPass(counters).slice(0, REQUESTS / 4);
  for (let round = 0; out.length < REQUESTS; round++) {
    for (const t of targets) {
      if (out.length >= REQUESTS) break;
      if (t.weight > round % 3) out.push(plan(rng, t, counters[t.who]++));
    }
  }
  return out;
}

function headersFor(p: Planned): { headers: Record<string, string>; localAddress: string } {
  const headers: Record<string, string> = { accept: "application/json, text/html;q=0.9" };
  if (p.method !== "GET") Object.assign(headers, { "content-type": "application/json", origin: ownOrigin(), "sec-fetch-site": "same-origin" });
  const cookieOf = (b: Browser) => b.cookieNames().map((n) => `${n}=${b.cookie(n)}`).join("; ");
  switch (p.target.who) {
    case "user": {
      const b = users[p.slot % users.length];
      return { headers: { ...headers, cookie: cookieOf(b) }, localAddress: b.address };
    }
    case "admin": {
      const b = admins[p.slot % admins.length];
      return { headers: { ...headers, cookie: cookieOf(b) }, localAddress: b.address };
    }
    case "apiKey": {
      const k = keys[p.slot % keys.length];
      return { headers: { ...headers, "x-api-key": k.key }, localAddress: k.address };
    }
    default:
      if (anon.used++ >= ANON_PER_ADDRESS) anon = { address: new Browser().address, used: 1 };
      return { headers, localAddress: anon.address };
  }
}

/** What is wrong with an answer, or null when it is acceptable. */
function problemOf(o: Outcome): string | null {
  const { answer: a, planned: p } = o;
  if (a.status === 0) return `no answer: ${a.text}`;
  const api = p.path === "/api" || p.path.startsWith("/api/") || p.path.startsWith("/api?");
  const { code, problem } = a.status >= 400 && api ? errorCodeOf(a) : { code: undefined, problem: undefined };
  if (a.status >= 500 && !(a.status === 503 && code && CONFIGURED_ABSENCE.has(code))) return `${a.status} ${code ?? ""}`.trim();
  // Next's own answer to a method the route does not export (an extra segment can land on a route with other methods).
  if (a.status === 405 && a.text === "") return null;
  if (a.status >= 400 && api) {
    if (problem) return `${a.status} error answer ${problem}`;
    if (!code || !CATALOGUE.has(code)) return `${a.status} error code ${code} is not in the catalogue`;
  }
  // A page refused for its path is the app server's small HTML page, never Next's plain text.
  if (!api && a.status === 400 && !a.contentType.includes("text/html")) return `400 page answer is ${a.contentType}`;
  return null;
}

const clip = (s: string | undefined, n: number) => (s === undefined ? "" : s.length > n ? `${s.slice(0, n)}…(${s.length})` : s);

beforeAll(async () => {
  const [judgment] = await judgmentIds(pool, 1);
  openapi = (await (await new Browser().get("/api/v1/openapi.json")).json()) as typeof openapi;
  const signIn = async (admin: boolean) => (await signedInBrowser({ admin })).browser;
  users = [];
  for (let i = 0; i < USERS; i++) users.push(await signIn(false));
  admins = [];
  for (let i = 0; i < ADMINS; i++) admins.push(await signIn(true));
  keys = [];
  for (let i = 0; i < KEYS; i++) {
    const b = await signIn(false);
    const res = await b.post("/api/settings/api-keys", { name: "fuzz" }, { origin: ownOrigin(), "sec-fetch-site": "same-origin" });
    if (res.status !== 201 && res.status !== 200) throw new Error(`api key: ${res.status} ${await res.text()}`);
    keys.push({ key: ((await res.json()) as { key: string }).key, address: new Browser().address });
  }
  const made = await users[0].post("/api/collections", { name: "fuzz collection", document_ids: [judgment] }, { origin: ownOrigin(), "sec-fetch-site": "same-origin" });
  if (made.status !== 201) throw new Error(`collection: ${made.status} ${await made.text()}`);
  ids = { judgment, collection: ((await made.json()) as { id: string }).id };
  anon = { address: new Browser().address, used: 0 };
  targets = buildTargets();
  // Warm-up, not counted: one plain request per distinct route and page, so a development server has compiled them
  // all before the capped run starts (a production build answers these at once).
  const warm = [...new Map(targets.map((t) => [`${t.method} ${t.template}`, t])).values()];
  let warmer = new Browser();
  for (let i = 0; i < warm.length; i += 2) {
    if (i % ANON_PER_ADDRESS === 0) warmer = new Browser();
    await Promise.all(
      warm.slice(i, i + 2).map((t) => {
        const p = fillPath(t.template.replace(/\[\.\.\.\w+\]/, "[id]"), { id: PLACEHOLDER, slug: "warm-up", name: "Smith" });
        const headers: Record<string, string> = t.method === "GET" ? {} : { "content-type": "application/json", origin: ownOrigin(), "sec-fetch-site": "same-origin" };
        return sendRaw(stackEnv().appUrl as string, { method: t.method, path: p, headers, body: t.method === "GET" ? undefined : "{}", localAddress: warmer.address }, 300_000);
      }),
    );
  }
}, 900_000);

afterAll(() => pool.end());

describe("bounded fuzzing of every route, OpenAPI operation and dynamic page", () => {
  it("answers every hostile request without 5xx, and every API error as JSON with a catalogue code", async () => {
    const planned = planAll();
    const outcomes: Outcome[] = [];
    const started = Date.now();
    let next = 0;
    let capped = false;
    const appUrl = stackEnv().appUrl as string;
    const worker = async () => {
      for (;;) {
        if (next >= planned.length) return;
        if (Date.now() - started > CAP_MS) {
          capped = true;
          return;
        }
        const p = planned[next++];
        const { headers, localAddress } = headersFor(p);
        const answer = await sendRaw(appUrl, { method: p.method, path: p.path, headers, body: p.body, localAddress }, REQUEST_TIMEOUT_MS);
        outcomes.push({ planned: p, answer });
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const seconds = (Date.now() - started) / 1000;

    const statuses = new Map<number, number>();
    for (const o of outcomes) statuses.set(o.answer.status, (statuses.get(o.answer.status) ?? 0) + 1);
    const failures = outcomes.flatMap((o) => {
      const problem = problemOf(o);
      return problem ? [{ problem, o }] : [];
    });
    const histogram = [...statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`).join(" ");
    const fivexx = outcomes.filter((o) => o.answer.status >= 500);
    const allowed = fivexx.filter((o) => problemOf(o) === null).length;
    // Failures grouped by what went wrong and where, so a class of defect reads as one line with its count.
    const groups = new Map<string, { n: number; example: Outcome; problem: string }>();
    for (const { problem, o } of failures) {
      const g = `${problem} ← ${o.planned.method} ${o.planned.target.template} as ${o.planned.target.who}`;
      const seen = groups.get(g);
      if (seen) seen.n++;
      else groups.set(g, { n: 1, example: o, problem });
    }
    const byWho = (["anonymous", "user", "admin", "apiKey"] as const).map((who) => {
      const mine = outcomes.filter((o) => o.planned.target.who === who);
      const counts = new Map<number, number>();
      for (const o of mine) counts.set(o.answer.status, (counts.get(o.answer.status) ?? 0) + 1);
      return `${who} ${mine.length} (${[...counts].sort(([a], [b]) => a - b).map(([st, n]) => `${st}×${n}`).join(" ")})`;
    });
    const lines = [
      `[fuzz] seed ${SEED}: ${outcomes.length} of ${planned.length} requests sent in ${seconds.toFixed(1)} s${capped ? " (stopped at the cap)" : ""} over ${targets.length} targets (${ROUTES.length} route handlers, ${Object.values(openapi.paths).reduce((n, m) => n + Object.keys(m).length, 0)} OpenAPI operations, ${dynamicPages().length} dynamic pages)`,
      `[fuzz] statuses: ${histogram}`,
      `[fuzz] by identity: ${byWho.join("; ")}`,
      `[fuzz] 5xx: ${fivexx.length} (${allowed} × 503 ${[...CONFIGURED_ABSENCE].join(", ")}, ${fivexx.length - allowed} unexpected); failing answers: ${failures.length} in ${groups.size} groups`,
      ...[...groups].map(([g, { n, example: o }]) => `[fuzz] ${n} × ${g}; e.g. [${o.planned.cls}] ${clip(o.planned.path, 160)} ${clip(o.planned.body, 160)} → ${clip(o.answer.text, 200)}`),
    ];
    console.log(lines.join("\n"));
    // Every request and answer, one JSON line each, for reading a run by hand (npm test never sets it).
    if (process.env.FUZZ_DUMP) {
      const dump = outcomes.map((o) => JSON.stringify({ who: o.planned.target.who, what: o.planned.target.what, cls: o.planned.cls, method: o.planned.method, path: clip(o.planned.path, 300), body: clip(o.planned.body, 300), status: o.answer.status, answer: clip(o.answer.text, 300) }));
      fs.writeFileSync(process.env.FUZZ_DUMP, dump.join("\n") + "\n");
    }

    // Every target was attacked at least once (the first round covers them all, long before the cap).
    const covered = new Set(outcomes.map((o) => o.planned.target.what));
    expect(targets.filter((t) => !covered.has(t.what)).map((t) => t.what)).toEqual([]);
    expect(failures.map(({ problem, o }) => `${problem} ← ${o.planned.target.what} [${o.planned.cls}] ${o.planned.method} ${clip(o.planned.path, 120)}`)).toEqual([]);
  }, 1_200_000);
});

describe("a path that does not decode is the app server's 400, not Next's plain-text 500", () => {
  const send = (method: string, p: string, headers: Record<string, string> = {}) =>
    sendRaw(stackEnv().appUrl as string, { method, path: p, headers, localAddress: new Browser().address }, REQUEST_TIMEOUT_MS);

  it.each(["/api/collections/%E0%A4%A", "/api/blog/posts/%ZZ", "/api/documents/%ED%A0%80/html", "/api/no-such-route/%", "/api/collections%C0%AF", "/api/blog/posts/%00"])(
    "%s → 400 INVALID_PATH in the envelope",
    async (p) => {
      const a = await send("GET", p);
      expect(a.status).toBe(400);
      expect(JSON.parse(a.text)).toEqual({ detail: { code: "INVALID_PATH", message: ERRORS.INVALID_PATH.message } });
    },
  );

  it("under /api/v1 → 400 INVALID_PATH in the reference shape", async () => {
    const a = await send("GET", "/api/v1/documents/%ZZ");
    expect(a.status).toBe(400);
    expect(JSON.parse(a.text)).toMatchObject({ error: "BadRequest", details: { code: "INVALID_PATH" }, status_code: 400 });
  });

  it("a page → a small HTML page in the visitor's language, with the security headers", async () => {
    // Browser resolves with `new URL`, which keeps a malformed escape as it is.
    const res = await new Browser().get("/documents/%");
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
    const html = await res.text();
    expect(html).toContain('<html lang="en">');
    expect(html).toContain("Malformed address");
    const nul = await send("GET", "/blog/%00");
    expect(nul.status).toBe(400);
    expect(nul.contentType).toContain("text/html");
    const pl = await send("GET", "/collections/%ZZ", { cookie: "locale=pl" });
    expect(pl.status).toBe(400);
    expect(pl.text).toContain('<html lang="pl">');
    expect(pl.text).toContain("Błędny adres");
  });

  it("HEAD gets the status without a body, and a write is refused before its handler", async () => {
    const head = await send("HEAD", "/api/collections/%ZZ");
    expect(head.status).toBe(400);
    expect(head.text).toBe("");
    const write = await send("DELETE", "/api/collections/%ZZ", { origin: ownOrigin(), "content-type": "application/json" });
    expect(write.status).toBe(400);
    expect(JSON.parse(write.text)).toMatchObject({ detail: { code: "INVALID_PATH" } });
  });
});
