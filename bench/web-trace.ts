/**
 * bench/web-trace: what the time between the first byte and the Largest Contentful Paint of a page is made of,
 * in the headless Chromium bench/web uses (fresh signed-in contexts, warm server). Prints JSON.
 *
 *   npx tsx bench/web-trace.ts [--url http://127.0.0.1:3000] [--path "/search?q=rozbój"] [--runs 6]
 *                              [--variants asis,no-scripts,inline-css,static,tiny] [--save /tmp/trace]
 *
 * Each variant is the same page delivered differently; visits alternate between variants, so a noisy machine weighs on
 * all of them alike. The document is fetched by the browser's request interception and handed over whole, so `asis`
 * (the page unchanged) is the baseline for the others, not `raw` (no interception):
 *   asis        the page as the app serves it
 *   no-scripts  without its <script> tags (the stylesheet link kept): what the scripts cost before the first paint
 *   inline-css  the stylesheet link replaced by the stylesheet itself: what the render-blocking request costs
 *   static      both: the HTML and CSS alone
 *   expect      the page holding its first frame until the result list is parsed (<link rel=expect>)
 *   no-blur     the page without the header's backdrop blur; no-shadow: without the cards' shadows (paint cost)
 *   dcl-scripts the page's async chunk scripts appended when parsing ends; late-scripts: one frame after that
 *   tiny        a one-paragraph document: the browser's own floor (new context, renderer process, commit, first frame)
 *   raw         no interception (the app's own delivery)
 * (The font variants docs/bench.md reports went with the web fonts: since P-74 the page has none, so no-fonts was
 * static, scripts-no-fonts inline-css and no-font-preload asis.)
 *
 * Per visit a Chromium trace gives, up to LCP: the renderer main thread's CPU time (thread time, so a loaded machine
 * inflates it less than wall time) in HTML parsing, style, layout (and text shaping inside it), script, and all tasks;
 * raster CPU; when the first paint ran and how long its presentation took. Medians per variant are printed.
 *
 * Needs what bench/web needs: a running production app and the service-role key (environment or `.env.local`).
 */
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import type { Browser, Route } from "playwright";
import { launchBenchBrowser, requireApp, signedInCookies, type SessionCookies } from "./lib/browser-bench";
import { createThrowawayUser, deleteUser } from "./lib/throwaway-user";

const { values } = parseArgs({
  options: {
    url: { type: "string", default: "http://127.0.0.1:3000" },
    path: { type: "string", default: "/search?q=rozbój" },
    runs: { type: "string", default: "6" },
    variants: { type: "string", default: "asis,no-scripts,inline-css,static,tiny" },
    /** Folder for every visit's raw trace (open one in the DevTools Performance panel). */
    save: { type: "string" },
  },
});
const APP_URL = values.url.replace(/\/+$/, "");
const TARGET = new URL(values.path, APP_URL).toString();
const RUNS = Math.max(1, Number(values.runs) || 6);
const VARIANTS = values.variants.split(",").map((v) => v.trim()).filter(Boolean);
const KNOWN = new Set(["asis", "no-scripts", "inline-css", "static", "expect", "no-blur", "no-shadow", "dcl-scripts", "late-scripts", "tiny", "raw"]);
for (const v of VARIANTS) if (!KNOWN.has(v)) throw new Error(`unknown variant ${v} (known: ${[...KNOWN].join(", ")})`);

const CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline", "loading", "v8.execute", "blink", "blink.user_timing", "cc", "navigation", "toplevel"];

// ---------- the variants ----------

const stylesheets = new Map<string, string>();

/** A stylesheet's text, its relative url()s made absolute: inlined, they would resolve against the page. */
async function stylesheet(href: string): Promise<string> {
  let css = stylesheets.get(href);
  if (css === undefined) {
    const url = new URL(href, APP_URL);
    const text = await (await fetch(url)).text();
    css = text.replace(/url\((?!["']?(?:data:|\/|https?:))(["']?)([^)"']+)\1\)/g, (_m, q: string, rel: string) => `url(${q}${new URL(rel, url).pathname}${q})`);
    stylesheets.set(href, css);
  }
  return css;
}

function withoutLinkHeader(headers: Record<string, string>, as: string): void {
  const kept = (headers["link"] ?? "").split(/,\s*(?=<)/).filter((l) => l && !l.includes(`as="${as}"`));
  if (kept.length) headers["link"] = kept.join(", ");
  else delete headers["link"];
}

async function deliver(route: Route, variant: string): Promise<void> {
  const res = await route.fetch();
  let body = await res.text();
  const headers = { ...res.headers() };
  // The body is handed over decoded and whole.
  for (const h of ["content-encoding", "content-length", "transfer-encoding"]) delete headers[h];
  if (variant === "inline-css" || variant === "static") {
    for (const m of [...body.matchAll(/<link rel="stylesheet" href="([^"]+)"[^>]*\/>/g)]) body = body.replace(m[0], `<style>${await stylesheet(m[1])}</style>`);
    withoutLinkHeader(headers, "style");
  }
  if (variant === "no-scripts" || variant === "static") {
    body = body.replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, "").replace(/<link rel="preload" as="script"[^>]*\/>/g, "");
  }
  if (variant === "expect") {
    // Hold rendering until the result list is parsed (<link rel=expect blocking=render>, Chromium 124+).
    body = body.replace('<ol class="space-y-3">', '<ol id="bench-results" class="space-y-3">').replace("<head>", '<head><link rel="expect" href="#bench-results" blocking="render"/>');
  }
  if (variant === "no-blur") body = body.replace(/ backdrop-blur\b/g, "");
  if (variant === "no-shadow") body = body.replace(/ shadow-card\b/g, "");
  // When the page's async chunk scripts start: appended at DOMContentLoaded (dcl-scripts), or one frame after it
  // (late-scripts), by an inline loader carrying the page's CSP nonce ('strict-dynamic' allows what it appends).
  if (variant === "dcl-scripts" || variant === "late-scripts") {
    const srcs: string[] = [];
    const nonce = /<script[^>]* nonce="([^"]+)"/.exec(body)?.[1] ?? "";
    body = body.replace(/<script src="(\/_next\/static\/[^"]+)"(?: async="")? nonce="[^"]+"(?: async="")?><\/script>/g, (tag: string, src: string) =>
      tag.includes(' async=""') ? (srcs.push(src), "") : tag,
    );
    const append = `function(){${JSON.stringify(srcs)}.forEach(function(s){var e=document.createElement("script");e.src=s;e.async=true;document.head.appendChild(e)})}`;
    const when = variant === "dcl-scripts" ? append : `function(){requestAnimationFrame(function(){setTimeout(${append},0)})}`;
    body = body.replace("</body>", `<script nonce="${nonce}">document.addEventListener("DOMContentLoaded",${when})</script></body>`);
  }
  if (variant === "tiny") {
    body = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>tiny</title></head><body><p style="font:600 20px sans-serif;max-width:600px">Sygn. akt II AKa 91/15 WYROK W IMIENIU RZECZYPOSPOLITEJ POLSKIEJ Sąd Apelacyjny</p></body></html>`;
    delete headers["link"];
  }
  await route.fulfill({ status: res.status(), headers, body });
}

// ---------- one visit ----------

interface PageFigures {
  lcp: number;
  fcp: number;
  ttfb: number;
  element: string;
  /** Next's client ran (it sets window.next when it boots). */
  booted: boolean;
}

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  tdur?: number;
  pid: number;
  tid: number;
  args?: { data?: { documentLoaderURL?: string }; beginData?: { url?: string } };
}

/** CPU ms (thread time where the trace has it) of the renderer's work up to LCP, and the first paint's timing. */
function traceFigures(json: string, lcpMs: number): Record<string, number> | null {
  const events = (JSON.parse(json) as { traceEvents: TraceEvent[] }).traceEvents;
  const nav = events.find((e) => e.name === "navigationStart" && (e.args?.data?.documentLoaderURL ?? "").startsWith(APP_URL));
  const parse = events.find((e) => e.name === "ParseHTML" && (e.args?.beginData?.url ?? "").startsWith(APP_URL));
  if (!nav || !parse) return null;
  const t0 = nav.ts;
  const end = t0 + lcpMs * 1000;
  const onMain = (e: TraceEvent) => e.pid === parse.pid && e.tid === parse.tid;
  const cpu = (pick: (e: TraceEvent) => boolean, from = t0) =>
    Math.round(events.filter((e) => e.ph === "X" && e.ts >= from && e.ts < end && pick(e)).reduce((sum, e) => sum + (e.tdur ?? e.dur ?? 0), 0) / 1000);
  const firstPaint = events.filter((e) => onMain(e) && e.name === "Paint" && e.ts > t0 && (e.dur ?? 0) > 300).sort((a, b) => a.ts - b.ts)[0];
  return {
    main_all_tasks: cpu((e) => onMain(e) && e.name === "ThreadControllerImpl::RunTask"),
    main_parse_html: cpu((e) => onMain(e) && e.name === "ParseHTML"),
    main_style: cpu((e) => onMain(e) && e.name === "UpdateLayoutTree"),
    main_layout: cpu((e) => onMain(e) && e.name === "Layout"),
    main_text_shaping: cpu((e) => onMain(e) && e.name === "InlineNode::ShapeTextIncludingFirstLine"),
    // Async scripts run from the ScriptRunner; their evaluation includes the microtasks the bootstrap queues.
    main_scripts: cpu((e) => onMain(e) && e.name === "ScriptRunner::ExecutePendingScript"),
    raster: cpu((e) => e.pid === parse.pid && e.name === "RasterTask"),
    first_paint_ms: firstPaint ? Math.round((firstPaint.ts - t0) / 1000) : -1,
    paint_to_lcp_ms: firstPaint ? Math.round(lcpMs - (firstPaint.ts - t0) / 1000) : -1,
  };
}

async function visit(browser: Browser, cookies: SessionCookies, variant: string, save?: string) {
  const context = await browser.newContext({ baseURL: APP_URL, storageState: { cookies, origins: [] }, viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    if (variant !== "raw") await page.route(TARGET, (route) => deliver(route, variant));
    await browser.startTracing(page, { categories: CATEGORIES });
    const res = await page.goto(TARGET, { waitUntil: "load" });
    if (!res || res.status() !== 200) throw new Error(`${TARGET} answered ${res?.status()}`);
    await page.waitForTimeout(300);
    const figures = await page.evaluate(
      () =>
        new Promise<PageFigures>((resolve) => {
          let last: (PerformanceEntry & { element?: Element | null }) | null = null;
          const po = new PerformanceObserver((list) => {
            const entries = list.getEntries();
            if (entries.length) last = entries[entries.length - 1];
          });
          po.observe({ type: "largest-contentful-paint", buffered: true });
          setTimeout(() => {
            po.disconnect();
            const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
            const el = last?.element;
            resolve({
              lcp: Math.round(last?.startTime ?? -1),
              fcp: Math.round(performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? -1),
              ttfb: Math.round(nav.responseStart),
              element: el ? `${el.tagName.toLowerCase()} "${(el.textContent ?? "").trim().slice(0, 40)}"` : "(none)",
              booted: typeof (window as unknown as { next?: unknown }).next === "object",
            });
          }, 50);
        }),
    );
    const trace = (await browser.stopTracing()).toString();
    if (save) fs.writeFileSync(save, trace);
    return { ...figures, trace: traceFigures(trace, figures.lcp) };
  } finally {
    await context.close();
  }
}

const median = (xs: number[]) => {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b);
  return s.length ? s[Math.ceil(s.length / 2) - 1] : NaN;
};

async function main() {
  await requireApp(APP_URL);
  if (values.save) fs.mkdirSync(values.save, { recursive: true });
  const browser = await launchBenchBrowser();
  const user = await createThrowawayUser("bench-web-trace");
  const visits: Record<string, Awaited<ReturnType<typeof visit>>[]> = {};
  try {
    const cookies = await signedInCookies(browser, APP_URL, user);
    // One untimed round first: the server's caches and lazy compilation are not what this measures.
    for (const v of VARIANTS) await visit(browser, cookies, v);
    for (let run = 0; run < RUNS; run++) {
      for (const v of VARIANTS) {
        const save = values.save ? path.join(values.save, `${v}-${run}.json`) : undefined;
        (visits[v] ??= []).push(await visit(browser, cookies, v, save));
      }
    }
  } finally {
    await browser.close();
    await deleteUser(user.id);
  }
  const variants = Object.fromEntries(
    Object.entries(visits).map(([v, list]) => {
      const keys = Object.keys(list.find((x) => x.trace)?.trace ?? {});
      return [
        v,
        {
          lcp_ms_p50: median(list.map((x) => x.lcp)),
          fcp_ms_p50: median(list.map((x) => x.fcp)),
          ttfb_ms_p50: median(list.map((x) => x.ttfb)),
          lcp_after_first_byte_ms_p50: median(list.map((x) => x.lcp - x.ttfb)),
          lcp_after_first_byte_ms_all: list.map((x) => x.lcp - x.ttfb),
          lcp_elements: [...new Set(list.map((x) => x.element))],
          booted: list.filter((x) => x.booted).length,
          cpu_ms_p50_until_lcp: Object.fromEntries(keys.map((k) => [k, median(list.map((x) => x.trace?.[k] ?? NaN))])),
        },
      ];
    }),
  );
  const loadAverage = fs.existsSync("/proc/loadavg") ? fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).map(Number) : null;
  console.log(JSON.stringify({ bench: "web-trace", url: APP_URL, path: values.path, runs: RUNS, load_average: loadAverage, variants }, null, 2));
}

main().catch((e: Error) => {
  console.error(e.message);
  process.exit(1);
});
