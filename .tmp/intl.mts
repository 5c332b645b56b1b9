import { launchBenchBrowser } from "../bench/lib/browser-bench.ts";
const b = await launchBenchBrowser();
for (let i = 0; i < 4; i++) {
  const ctx = await b.newContext(); const p = await ctx.newPage();
  await p.setContent("<p>x</p>");
  const r = await p.evaluate(() => {
    const t0 = performance.now(); const d = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeZone: "UTC" }); const t1 = performance.now();
    d.format(new Date()); const t2 = performance.now();
    const n = new Intl.NumberFormat("en-GB"); n.format(1234); const t3 = performance.now();
    const d2 = new Intl.DateTimeFormat("pl-PL", { dateStyle: "medium", timeZone: "UTC" }); d2.format(new Date()); const t4 = performance.now();
    return { dtf_ctor: t1 - t0, dtf_format: t2 - t1, nf: t3 - t2, dtf_pl: t4 - t3 };
  });
  console.log(JSON.stringify(r)); await ctx.close();
}
await b.close();
