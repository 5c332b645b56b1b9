/**
 * bench/web: Largest Contentful Paint of /search with results and of /search/extractions with the aggregate panel,
 * and the JavaScript shipped to /search (gzip bytes), measured in headless Chromium against a running app (
 * Acceptance). Prints JSON.
 *
 *   npx tsx bench/web.ts [--url http://127.0.0.1:3000] [--runs 5] [--q rozbój] [--cpu-slowdown 1]
 *
 * Needs a running `npm start` (production build) and the service-role key (SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY
 * from the environment or `.env.local`): it creates a throwaway confirmed user through the admin API, signs in through
 * the app's own POST /api/auth/sign-in inside a browser context (so the session cookies are the app's), measures, and
 * deletes the user. Signed-in contexts also keep /search clear of the guest allowance (5 searches per guest cookie).
 *
 * Each timed run uses a fresh browser context (cold HTTP cache, cookies copied from the signing-in context) against
 * a warm server: one untimed warm-up visit per page runs first, and the /search warm-up is also where the scripts are
 * collected for the size figure. Keep --runs modest: /api/search/documents is limited to 60 requests a minute per IP.
 */
import fs from "node:fs";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import type { Browser, BrowserContext, Page } from "playwright";
import { encodeFilter } from "../lib/client/filter-codec";
import { launchBenchBrowser, requireApp, signedInCookies, type SessionCookies } from "./lib/browser-bench";
import { createThrowawayUser, deleteUser } from "./lib/throwaway-user";

const { values } = parseArgs({
  options: {
    url: { type: "string", default: "http://127.0.0.1:3000" },
    runs: { type: "string", default: "5" },
    /** A query that returns hits on the demo corpus; the bench fails if it shows none. */
    q: { type: "string", default: "rozbój" },
    /** Chromium CPU throttling factor (1 = none; Lighthouse's mobile profile uses 4). */
    "cpu-slowdown": { type: "string", default: "1" },
    /** Also print every run (LCP element, time to results, each layout shift with the nodes that moved) under `detail`. */
    verbose: { type: "boolean", default: false },
  },
});
const APP_URL = values.url.replace(/\/+$/, "");
const RUNS = Math.max(1, Number(values.runs) || 5);
const CPU_SLOWDOWN = Math.max(1, Number(values["cpu-slowdown"]) || 1);

// Targets: LCP ≤ 1500 ms; with results rendered on the server: /search ≤ 300 ms, /search/extractions ≤ 450 ms,
// and no layout shift (CLS ≤ 0.02).
const TARGETS = { lcp_ms_p50_max: 1500, search_lcp_ms_p50_max: 300, extractions_lcp_ms_p50_max: 450, cls_p50_max: 0.02, js_gzip_bytes_max: 200 * 1024 };

/** What marks each page as done: /search shows its result cards; /search/extractions its rows and a drawn chart. */
const SEARCH_READY = 'section[aria-labelledby="results-h"] ol > li';
/** An error notice (role=alert, e.g. a 429) or the /search "no results" box: the bench stops with its text. */
const PAGE_FAILED = 'main [role="alert"], main [role="status"].border-dashed';
const EXTR_READY = '[data-testid="result-link"]';
const EXTR_CHART = "[data-chart] svg.recharts-surface";

// ---------- the throwaway user's session ----------

/** Sign in through the app inside a browser context and return its cookies (the session), for later contexts. */
// ---------- one visit ----------

interface LcpEntry {
  ms: number;
  element: string;
  size: number;
}

interface Visit {
  lcp: LcpEntry | null;
  /** Layout shift: the sum of `layout-shift` entries without recent input, from navigation to CLS_SETTLE_MS after ready. */
  cls: number;
  ready_ms: number;
  ttfb_ms: number;
  /** The page's own API calls (path, start, end in ms since navigation start): where the wait for data goes. */
  api: { path: string; start: number; end: number }[];
  /** Every layout shift and what moved (printed with --verbose only). */
  shifts: Shift[];
}

/**
 * Wait until `selector` is in the DOM and return the page's clock at that moment (ms since navigation start). Fails at
 * once, with the message shown, when the page shows an error (a rate limit, say) or no results instead.
 */
async function readyAt(page: Page, selector: string): Promise<number> {
  const handle = await page
    .waitForFunction(
      ([sel, fail]) => {
        const failed = document.querySelector(fail);
        if (failed) return { failed: (failed.textContent ?? "").trim().slice(0, 200) };
        return document.querySelector(sel) ? { at: performance.now() } : false;
      },
      [selector, PAGE_FAILED] as const,
      { polling: "raf", timeout: 60_000 },
    )
    .catch(async (e: Error) => {
      const shown = await page.locator("main").innerText().catch(() => "");
      throw new Error(`${page.url()}: ${selector} did not appear (${e.message.split("\n")[0]}); the page shows: ${shown.slice(0, 300)}`);
    });
  const r = (await handle.jsonValue()) as { at: number } | { failed: string };
  if ("failed" in r) throw new Error(`${page.url()} showed no results: ${r.failed}`);
  return r.at;
}

/**
 * The last `largest-contentful-paint` entry (buffered). Read after the content is in the DOM, once entries have stopped
 * coming for LCP_SETTLE_MS; nothing is clicked or typed, since input ends LCP recording. An entry is reported only
 * when its frame is presented, which can be well after the content is in the DOM (the server-rendered results are
 * there as soon as the HTML is parsed, the paint waits for the stylesheet, fonts and any script that runs first):
 * reading after a fixed two frames found no entry yet on fast-parsing visits, and such visits were left out of p50.
 */
async function readLcp(page: Page): Promise<LcpEntry | null> {
  return page.evaluate(
    ([settleMs, maxMs]) =>
      new Promise<LcpEntry | null>((resolve) => {
        requestAnimationFrame(() =>
          requestAnimationFrame(() => {
            let last: PerformanceEntry | null = null;
            const started = performance.now();
            let lastAt = started;
            // No named helper functions in here: tsx's keepNames would wrap them in a __name() the page does not have.
            const po = new PerformanceObserver((list) => {
              const entries = list.getEntries();
              if (entries.length) {
                last = entries[entries.length - 1];
                lastAt = performance.now();
              }
            });
            po.observe({ type: "largest-contentful-paint", buffered: true });
            // Wait for a first entry (up to maxMs), then until none has come for settleMs.
            const poll = setInterval(() => {
              const now = performance.now();
              if (last ? now - lastAt < settleMs : now - started < maxMs) return;
              clearInterval(poll);
              po.disconnect();
              const e = last as (PerformanceEntry & { element?: Element | null; size?: number; renderTime?: number; loadTime?: number }) | null;
              if (!e) return resolve(null);
              const el = e.element;
              const describe = el
                ? `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}${el.getAttribute("data-testid") ? `[data-testid=${el.getAttribute("data-testid")}]` : ""} "${(el.textContent ?? "").trim().slice(0, 60)}"`
                : "(element removed)";
              resolve({ ms: Math.round(e.startTime), element: describe, size: Math.round(e.size ?? 0) });
            }, 20);
          }),
        );
      }),
    [LCP_SETTLE_MS, LCP_MAX_WAIT_MS] as const,
  );
}

/** How long no new LCP entry must come before the last one is taken, and how long to wait for a first one at most. */
const LCP_SETTLE_MS = 100;
const LCP_MAX_WAIT_MS = 5000;

/** How long after the page is ready layout shifts are still collected (late chunks, fonts, charts). */
const CLS_SETTLE_MS = 500;

interface ShiftSource {
  /** The node that moved: tag#id[data-testid] "text…", or "(node removed)". */
  node: string;
  /** Its box before and after the shift, in CSS px of the viewport: [x, y, width, height]. */
  previous: [number, number, number, number];
  current: [number, number, number, number];
}

interface Shift {
  /** ms since navigation start, and the shift's score. */
  at_ms: number;
  value: number;
  sources: ShiftSource[];
}

/**
 * Cumulative layout shift so far (buffered `layout-shift` entries, those after user input excluded as CLS does).
 * Summed over the whole visit rather than per session window: an upper bound of the CLS a browser would report. With
 * --verbose each shift is listed with what moved (LayoutShift.sources: the node, its previous and current rect), so a
 * regression points at its cause.
 */
async function readCls(page: Page): Promise<{ cls: number; shifts: Shift[] }> {
  await page.waitForTimeout(CLS_SETTLE_MS);
  return page.evaluate(
    () =>
      new Promise<{ cls: number; shifts: Shift[] }>((resolve) => {
        type Rect = { x: number; y: number; width: number; height: number };
        type Entry = PerformanceEntry & { value: number; hadRecentInput: boolean; sources?: { node?: Node | null; previousRect: Rect; currentRect: Rect }[] };
        // No named helper functions in here: tsx's keepNames would wrap them in a __name() the page does not have.
        let sum = 0;
        const shifts: Shift[] = [];
        const po = new PerformanceObserver((list) => {
          for (const e of list.getEntries() as Entry[]) {
            if (e.hadRecentInput) continue;
            sum += e.value;
            shifts.push({
              at_ms: Math.round(e.startTime),
              value: Number(e.value.toFixed(4)),
              sources: (e.sources ?? []).map((src) => {
                const n = src.node;
                const el = n ? (n instanceof Element ? n : n.parentElement) : null;
                const tid = el?.getAttribute("data-testid");
                const cls = el?.getAttribute("class");
                const node = !n
                  ? "(node removed)"
                  : !el
                    ? n.nodeName
                    : `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}${tid ? `[data-testid=${tid}]` : ""}${!el.id && !tid && cls ? `.${cls.split(/\s+/).slice(0, 3).join(".")}` : ""} "${(n.textContent ?? "").trim().slice(0, 40)}"`;
                const [p, c] = [src.previousRect, src.currentRect].map((r): [number, number, number, number] => [Math.round(r.x), Math.round(r.y), Math.round(r.width), Math.round(r.height)]);
                return { node, previous: p, current: c };
              }),
            });
          }
        });
        po.observe({ type: "layout-shift", buffered: true });
        setTimeout(() => {
          po.disconnect();
          resolve({ cls: Number(sum.toFixed(4)), shifts });
        }, 50);
      }),
  );
}

async function newContext(browser: Browser, cookies: SessionCookies): Promise<BrowserContext> {
  return browser.newContext({ baseURL: APP_URL, storageState: { cookies, origins: [] }, viewport: { width: 1280, height: 800 } });
}

/** A visit that met a 429 from the app's API (the per-IP limits are shared with whoever else uses this app). */
class RateLimited extends Error {
  constructor(readonly retryAfterS: number, cause: Error) {
    super(`rate limited (retry after ${retryAfterS} s): ${cause.message}`);
  }
}

async function visitOnce(
  browser: Browser,
  cookies: SessionCookies,
  target: string,
  waitFor: { ready: string; also?: string },
  /** Called before the navigation; the function it returns is awaited once the page is measured. */
  watch?: (page: Page) => () => Promise<void>,
): Promise<Visit> {
  const context = await newContext(browser, cookies);
  try {
    const page = await context.newPage();
    if (CPU_SLOWDOWN > 1) {
      const cdp = await context.newCDPSession(page);
      await cdp.send("Emulation.setCPUThrottlingRate", { rate: CPU_SLOWDOWN });
    }
    let retryAfterS: number | null = null;
    page.on("response", (r) => {
      if (r.status() === 429 && new URL(r.url()).pathname.startsWith("/api/")) retryAfterS = Math.max(retryAfterS ?? 1, Number(r.headers()["retry-after"]) || 10);
    });
    const finish = watch ? watch(page) : null;
    const res = await page.goto(target, { waitUntil: "commit" });
    if (!res || res.status() !== 200) throw new Error(`${target} answered ${res?.status()}`);
    if (new URL(page.url()).pathname.startsWith("/sign-in")) throw new Error(`${target} redirected to sign-in: the session did not take`);
    let ready: number;
    try {
      ready = await readyAt(page, waitFor.ready);
      if (waitFor.also) ready = Math.max(ready, await readyAt(page, waitFor.also));
    } catch (e) {
      if (retryAfterS !== null) throw new RateLimited(retryAfterS, e as Error);
      throw e;
    }
    const lcp = await readLcp(page);
    const { cls, shifts } = await readCls(page);
    const { ttfb, api } = await page.evaluate(() => {
      const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
      const calls = (performance.getEntriesByType("resource") as PerformanceResourceTiming[])
        .filter((r) => new URL(r.name).pathname.startsWith("/api/"))
        .map((r) => ({ path: new URL(r.name).pathname, start: Math.round(r.startTime), end: Math.round(r.responseEnd) }));
      return { ttfb: nav ? Math.round(nav.responseStart) : -1, api: calls };
    });
    if (finish) await finish();
    return { lcp, cls, ready_ms: Math.round(ready), ttfb_ms: ttfb, api, shifts };
  } finally {
    await context.close();
  }
}

const MAX_RATE_LIMIT_WAITS = 3;
let rateLimitWaits = 0;

/** One visit; a visit spoilt by a 429 is not a measurement, so it is redone after the server's Retry-After. */
async function visit(...args: Parameters<typeof visitOnce>): Promise<Visit> {
  for (;;) {
    try {
      return await visitOnce(...args);
    } catch (e) {
      if (!(e instanceof RateLimited) || rateLimitWaits >= MAX_RATE_LIMIT_WAITS) throw e;
      rateLimitWaits++;
      console.error(`${e.message.split(":")[0]}; waiting and redoing the visit`);
      await new Promise((r) => setTimeout(r, (e.retryAfterS + 1) * 1000));
    }
  }
}

// ---------- scripts shipped ----------

interface Chunk {
  url: string;
  raw_bytes: number;
  gzip_bytes: number;
}

/**
 * Collect every `script` response of the page load. Bodies come back decoded whatever the server sent, so each is
 * gzipped here at level 9: the figure does not depend on whether this server compresses.
 */
function collectScripts(sink: { chunks: Chunk[]; encodings: Set<string> }) {
  return (page: Page) => {
    const pending: Promise<void>[] = [];
    page.on("response", (response) => {
      if (response.request().resourceType() !== "script") return;
      pending.push(
        (async () => {
          const body = await response.body();
          sink.encodings.add(response.headers()["content-encoding"] ?? "identity");
          sink.chunks.push({ url: new URL(response.url()).pathname, raw_bytes: body.length, gzip_bytes: gzipSync(body, { level: 9 }).length });
        })(),
      );
    });
    return async () => {
      // Let the page settle (chunks requested after the results render count too), then wait for the bodies.
      await page.waitForLoadState("networkidle");
      await Promise.all(pending);
    };
  };
}

// ---------- figures ----------

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length) - 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))];
}

function summarise(visits: Visit[]) {
  const lcps = visits.map((v) => v.lcp?.ms ?? NaN).filter(Number.isFinite).sort((a, b) => a - b);
  const elements = [...new Set(visits.map((v) => v.lcp?.element ?? "(none)"))];
  const cls = visits.map((v) => v.cls).sort((a, b) => a - b);
  return {
    cls_p50: percentile(cls, 50),
    cls_max: cls.length ? cls[cls.length - 1] : NaN,
    lcp_ms_p50: percentile(lcps, 50),
    lcp_ms_p95: percentile(lcps, 95),
    lcp_ms_all: lcps,
    ready_ms_p50: percentile(visits.map((v) => v.ready_ms).sort((a, b) => a - b), 50),
    ttfb_ms_p50: percentile(visits.map((v) => v.ttfb_ms).sort((a, b) => a - b), 50),
    lcp_elements: elements,
  };
}

async function main() {
  const searchUrl = `${APP_URL}/search?q=${encodeURIComponent(values.q)}`;
  // A cohort that always has rows on the demo corpus; encoded by the page's own codec so it stays in step with it.
  const f = encodeFilter({ jurisdiction: ["PL", "UK"] });
  const extrUrl = `${APP_URL}/search/extractions?f=${f}`;

  await requireApp(APP_URL);

  const browser = await launchBenchBrowser();
  const user = await createThrowawayUser("bench-web");
  try {
    const cookies = await signedInCookies(browser, APP_URL, user);
    const searchWait = { ready: SEARCH_READY };
    const extrWait = { ready: EXTR_READY, also: EXTR_CHART };

    // Warm-ups (untimed): the server's caches and lazy route compilation are not what this bench measures.
    const scripts = { chunks: [] as Chunk[], encodings: new Set<string>() };
    await visit(browser, cookies, searchUrl, searchWait, collectScripts(scripts));
    await visit(browser, cookies, extrUrl, extrWait);

    const search: Visit[] = [];
    const extractions: Visit[] = [];
    for (let i = 0; i < RUNS; i++) {
      search.push(await visit(browser, cookies, searchUrl, searchWait));
      extractions.push(await visit(browser, cookies, extrUrl, extrWait));
    }

    const jsGzip = scripts.chunks.reduce((s, c) => s + c.gzip_bytes, 0);
    const jsRaw = scripts.chunks.reduce((s, c) => s + c.raw_bytes, 0);
    const topChunks = [...scripts.chunks].sort((a, b) => b.gzip_bytes - a.gzip_bytes).slice(0, 5);
    const s = summarise(search);
    const e = summarise(extractions);
    const out = {
      bench: "web",
      url: APP_URL,
      runs: RUNS,
      cpu_slowdown: CPU_SLOWDOWN,
      rate_limit_waits: rateLimitWaits,
      load_average: fs.existsSync("/proc/loadavg") ? fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).map(Number) : null,
      search: {
        url: searchUrl.slice(APP_URL.length),
        ...s,
        js_gzip_bytes: jsGzip,
        js_raw_bytes: jsRaw,
        js_chunks: scripts.chunks.length,
        js_server_encoding: [...scripts.encodings],
        top_chunks: topChunks,
      },
      extractions: { url: extrUrl.slice(APP_URL.length), ...e },
      targets: {
        ...TARGETS,
        search_lcp_ok: s.lcp_ms_p50 <= TARGETS.lcp_ms_p50_max,
        extractions_lcp_ok: e.lcp_ms_p50 <= TARGETS.lcp_ms_p50_max,
        search_lcp_issue20_ok: s.lcp_ms_p50 <= TARGETS.search_lcp_ms_p50_max,
        extractions_lcp_issue20_ok: e.lcp_ms_p50 <= TARGETS.extractions_lcp_ms_p50_max,
        cls_ok: s.cls_p50 <= TARGETS.cls_p50_max && e.cls_p50 <= TARGETS.cls_p50_max,
        js_ok: jsGzip <= TARGETS.js_gzip_bytes_max,
      },
      ...(values.verbose ? { detail: { search, extractions } } : {}),
    };
    console.log(JSON.stringify(out, null, 2));
  } finally {
    await browser.close();
    await deleteUser(user.id);
  }
}

main().catch((e: Error) => {
  console.error(e.message);
  process.exit(1);
});
