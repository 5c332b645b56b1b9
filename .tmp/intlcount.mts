import { launchBenchBrowser, signedInCookies } from "../bench/lib/browser-bench.ts";
import { createThrowawayUser, deleteUser } from "../bench/lib/throwaway-user.ts";
const APP = "http://127.0.0.1:3000";
const b = await launchBenchBrowser(); const user = await createThrowawayUser();
try {
  const cookies = await signedInCookies(b, APP, user);
  for (const path of ["/search?q=rozb%C3%B3j", "/search/extractions?f=eyJqdXJpc2RpY3Rpb24iOlsiUEwiLCJVSyJdfQ"]) {
    const ctx = await b.newContext({ baseURL: APP }); await ctx.addCookies(cookies); const p = await ctx.newPage();
    await p.addInitScript(() => {
      const w = window as any; w.__intl = [];
      for (const k of ["DateTimeFormat", "NumberFormat", "PluralRules", "Collator", "RelativeTimeFormat", "ListFormat", "Segmenter"]) {
        const Orig = (Intl as any)[k];
        (Intl as any)[k] = function (...a: any[]) { const t = performance.now(); const r = new Orig(...a); w.__intl.push([k, JSON.stringify(a), +(performance.now() - t).toFixed(1), +t.toFixed(0)]); return r; };
      }
      const ols = Number.prototype.toLocaleString; Number.prototype.toLocaleString = function (...a: any[]) { w.__intl.push(["Number.toLocaleString", JSON.stringify(a)]); return ols.apply(this, a as any); };
      const dls = Date.prototype.toLocaleDateString; Date.prototype.toLocaleDateString = function (...a: any[]) { w.__intl.push(["Date.toLocaleDateString", JSON.stringify(a)]); return dls.apply(this, a as any); };
      const lc = String.prototype.localeCompare; String.prototype.localeCompare = function (...a: any[]) { w.__intl.push(["localeCompare", ""]); return lc.apply(this, a as any); };
    });
    await p.goto(path, { waitUntil: "load" }); await p.waitForTimeout(2500);
    const lcp = await p.evaluate(() => new Promise((r) => new PerformanceObserver((l) => r(l.getEntries().at(-1)?.startTime)).observe({ type: "largest-contentful-paint", buffered: true })));
    console.log(path.slice(0, 20), "lcp", lcp, JSON.stringify((await p.evaluate(() => (window as any).__intl)).slice(0, 12)), (await p.evaluate(() => (window as any).__intl.length)));
    await ctx.close();
  }
} finally { await deleteUser(user.id); await b.close(); }
