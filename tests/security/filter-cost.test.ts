import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { config } from "@/lib/config";
import { FILTERABLE_ATTRIBUTES } from "@/lib/search/index-settings";
import { Browser } from "../helpers/http";
import { adminPool, stackEnv } from "../helpers/stack";
import { rebuildAppIndex } from "../helpers/app-index";

/**
 * "the worst filter" (security review H1: an anonymous filter of 4 × 1,000 IN values blocked the
 * event loop for 4.5 s per request). The contract: at most FILTER_MAX_LIST_VALUES values per IN list (default 100) and
 * FILTER_MAX_TOTAL_VALUES per request over `filter` + `filters` (default 500), each list compiled once into a Set,
 * and `jurisdiction` in the `filters` JSON checked against its enum. Over a cap → 4xx on the anonymous routes
 * /api/search/autocomplete and /api/search/documents (`filter` and `filters`); the worst filter still allowed (at the
 * caps, q="") answers 200 quickly and does not stall a concurrent GET /api/auth/me.
 *
 * The two timed assertions are the ones the issue asks for, with generous bounds; the figures are logged.
 */

const pool = adminPool();
const dataDir = stackEnv().searchDataDir ?? process.env.SEARCH_DATA_DIR;

/** The caps from lib/config.ts, or the contract's defaults while the setting does not exist yet. */
const settings = config() as unknown as Record<string, unknown>;
const LIST_CAP = typeof settings.FILTER_MAX_LIST_VALUES === "number" ? settings.FILTER_MAX_LIST_VALUES : 100;
const TOTAL_CAP = typeof settings.FILTER_MAX_TOTAL_VALUES === "number" ? settings.FILTER_MAX_TOTAL_VALUES : 500;
const PROCESSING_BOUND_MS = 500;
const STALL_BOUND_MS = 1000;

/** The costliest attributes to test: tag arrays (every element of every document is compared), then scalars. */
const ATTRS = ["base_convict_offences", "base_sentences_received", "base_appeal_ground", "base_agg_fact_sent", "base_mit_fact_sent", "case_type", "court_level"]
  .filter((a) => FILTERABLE_ATTRIBUTES.includes(a));

/** n values that match nothing, so no document short-circuits the scan. */
const values = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `"${tag}${i.toString(36)}"`);
const inList = (attr: string, n: number) => `${attr} IN [${values(n, attr.slice(0, 2)).join(",")}]`;
/** Lists OR-ed so that every one is evaluated for every document. */
const orOf = (lists: [string, number][]) => lists.map(([a, n]) => inList(a, n)).join(" OR ");

/** `total` values spread over lists of at most LIST_CAP each, across ATTRS. */
function spread(total: number): [string, number][] {
  const out: [string, number][] = [];
  for (let left = total, i = 0; left > 0; i++) {
    const n = Math.min(LIST_CAP, left);
    out.push([ATTRS[i % ATTRS.length], n]);
    left -= n;
  }
  return out;
}

const tagArrays = ["base_convict_offences", "base_sentences_received", "base_appeal_ground", "base_agg_fact_sent", "base_mit_fact_sent"];
/** The structured filter object with `total` values over lists of at most `perList` (tag-array keys, no base_ prefix). */
function structured(total: number, perList = LIST_CAP): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (let left = total, i = 0; left > 0; i++) {
    const n = Math.min(perList, left);
    const k = tagArrays[i % tagArrays.length].replace(/^base_/, "");
    out[k] = [...(out[k] ?? []), ...values(n, `s${i}`).map((v) => JSON.parse(v) as string)];
    left -= n;
  }
  return out;
}

const q = (params: Record<string, string>) => new URLSearchParams(params).toString();

/** The conditions cap of one `filter` expression (FILTER_MAX_CONDITIONS). */
const CONDITIONS_CAP = config().FILTER_MAX_CONDITIONS;
/** `n` comparisons that match nothing, joined by `join`: `=` OR-ed (the review's chain) or `!=` AND-ed. */
const chain = (n: number, op: "=" | "!=", join: " OR " | " AND ") =>
  Array.from({ length: n }, (_, i) => `${ATTRS[i % ATTRS.length]} ${op} "v${i}"`).join(join);

beforeAll(async () => {
  if (!dataDir) throw new Error("the test stack has no searchDataDir");
  expect(ATTRS.length).toBeGreaterThanOrEqual(3);
  await rebuildAppIndex(pool, dataDir);
}, 180_000);

afterAll(async () => {
  await pool.end();
});

async function expect4xx(res: Response, what: string) {
  expect(res.status, what).toBeGreaterThanOrEqual(400);
  expect(res.status, what).toBeLessThan(500);
  const body = (await res.json()) as { detail?: { code?: string; message?: string } };
  expect(body.detail?.code, what).toBeTruthy();
}

describe(`over the caps (${LIST_CAP} per list, ${TOTAL_CAP} per request) → 4xx before any document is scanned`, () => {
  it.each([
    ["autocomplete ?filter=, one list of cap + 1", "/api/search/autocomplete", { q: "", filter: inList(ATTRS[0], LIST_CAP + 1) }],
    ["autocomplete ?filters= (alias), one list of cap + 1", "/api/search/autocomplete", { q: "", filters: inList(ATTRS[0], LIST_CAP + 1) }],
    ["autocomplete ?filter=, lists at the cap totalling cap + 1", "/api/search/autocomplete", { q: "", filter: orOf(spread(TOTAL_CAP + 1)) }],
    ["documents ?filter=, one list of cap + 1", "/api/search/documents", { q: "", filter: inList(ATTRS[0], LIST_CAP + 1) }],
    ["documents ?filter=, NOT IN of cap + 1", "/api/search/documents", { q: "", filter: `${ATTRS[0]} NOT IN [${values(LIST_CAP + 1, "n").join(",")}]` }],
    ["documents ?filter=, lists totalling cap + 1", "/api/search/documents", { q: "", filter: orOf(spread(TOTAL_CAP + 1)) }],
    ["documents ?filters=, one list of cap + 1", "/api/search/documents", { q: "", filters: JSON.stringify(structured(LIST_CAP + 1, LIST_CAP + 1)) }],
    ["documents ?filters=, lists totalling cap + 1", "/api/search/documents", { q: "", filters: JSON.stringify(structured(TOTAL_CAP + 1)) }],
    [
      "documents ?filter= + ?filters= together over the total",
      "/api/search/documents",
      { q: "", filter: orOf(spread(Math.ceil(TOTAL_CAP / 2))), filters: JSON.stringify(structured(Math.floor(TOTAL_CAP / 2) + 1)) },
    ],
    ["autocomplete ?filter=, the review's 319 OR-ed `=` comparisons (no IN list)", "/api/search/autocomplete", { q: "", filter: Array.from({ length: 319 }, (_, i) => `base_keywords = "v${i}"`).join(" OR ") }],
    ["autocomplete ?filter=, conditions cap + 1 `=` OR-ed", "/api/search/autocomplete", { q: "", filter: chain(CONDITIONS_CAP + 1, "=", " OR ") }],
    ["documents ?filter=, conditions cap + 1 `!=` AND-ed", "/api/search/documents", { q: "", filter: chain(CONDITIONS_CAP + 1, "!=", " AND ") }],
    ["documents ?filters= jurisdiction outside its enum", "/api/search/documents", { q: "", filters: JSON.stringify({ jurisdiction: ["XX"] }) }],
    ["documents ?filters= jurisdiction list of cap + 1", "/api/search/documents", { q: "", filters: JSON.stringify({ jurisdiction: Array.from({ length: LIST_CAP + 1 }, () => "PL") }) }],
  ] as const)("%s", async (what, path, params) => {
    await expect4xx(await new Browser().get(`${path}?${q(params)}`), what);
  });
});

describe("the worst filter still allowed (at the caps, q=\"\") answers fast and stalls nobody", () => {
  const worstExpr = orOf(spread(TOTAL_CAP));

  it(`autocomplete: 200 with processing_time_ms under ${PROCESSING_BOUND_MS} ms`, async () => {
    expect(worstExpr.length).toBeLessThanOrEqual(8192);
    const res = await new Browser().get(`/api/search/autocomplete?${q({ q: "", filter: worstExpr })}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { processing_time_ms: number };
    console.log(`[filter-cost] autocomplete worst allowed filter (${TOTAL_CAP} values): processing_time_ms=${body.processing_time_ms}`);
    expect(body.processing_time_ms).toBeLessThan(PROCESSING_BOUND_MS);
  });

  it(`documents, filter + filters sharing the total: 200 with processing_time_ms under ${PROCESSING_BOUND_MS} ms`, async () => {
    const half = Math.floor(TOTAL_CAP / 2);
    const params = { q: "", filter: orOf(spread(half)), filters: JSON.stringify(structured(TOTAL_CAP - half)) };
    const res = await new Browser().get(`/api/search/documents?${q(params)}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { processing_time_ms: number };
    console.log(`[filter-cost] documents worst allowed filter + filters (${TOTAL_CAP} values): processing_time_ms=${body.processing_time_ms}`);
    expect(body.processing_time_ms).toBeLessThan(PROCESSING_BOUND_MS);
  });

  it.each([
    ["`=` OR-ed", chain(CONDITIONS_CAP, "=", " OR ")],
    ["`!=` AND-ed", chain(CONDITIONS_CAP, "!=", " AND ")],
  ])(`autocomplete, %s at the conditions cap: 200 with processing_time_ms under ${PROCESSING_BOUND_MS} ms`, async (what, filter) => {
    const res = await new Browser().get(`/api/search/autocomplete?${q({ q: "", filter })}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { processing_time_ms: number };
    console.log(`[filter-cost] autocomplete ${CONDITIONS_CAP} comparisons ${what}: processing_time_ms=${body.processing_time_ms}`);
    expect(body.processing_time_ms).toBeLessThan(PROCESSING_BOUND_MS);
  });

  it(`a concurrent GET /api/auth/me answers within ${STALL_BOUND_MS} ms`, async () => {
    // Vary one value per request, as an attacker would, so no filter memo can serve it.
    const heavy = Array.from({ length: 3 }, (_, i) => new Browser().get(`/api/search/autocomplete?${q({ q: "", filter: orOf(spread(TOTAL_CAP)).replace(/"ba0"/, `"ba0${i}"`) })}`));
    await new Promise((r) => setTimeout(r, 20));
    const started = performance.now();
    const me = await new Browser().get("/api/auth/me");
    const took = performance.now() - started;
    const statuses = (await Promise.all(heavy)).map((r) => r.status);
    console.log(`[filter-cost] GET /api/auth/me beside 3 worst allowed filters: ${took.toFixed(0)} ms (heavy: ${statuses.join(", ")})`);
    expect(me.status).toBe(200);
    expect(statuses).toEqual([200, 200, 200]);
    expect(took).toBeLessThan(STALL_BOUND_MS);
  });
});
