import fs from "node:fs";
import { launchBenchBrowser, signedInCookies } from "../bench/lib/browser-bench.ts";
import { createThrowawayUser, deleteUser } from "../bench/lib/throwaway-user.ts";
const APP = "http://127.0.0.1:3000";
const runs = Number(process.argv[2] ?? 4);
const browser = await launchBenchBrowser();
const user = await createThrowawayUser();
try {
  const cookies = await signedInCookies(browser, APP, user);
  const agg = new Map<string, number>();
  let total = 0;
  for (let i = 0; i < runs; i++) {
    const ctx = await browser.newContext({ baseURL: APP });
    await ctx.addCookies(cookies);
    const page = await ctx.newPage();
    const cdp = await ctx.newCDPSession(page);
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
    await cdp.send("Profiler.start");
    await page.goto("/search?q=rozb%C3%B3j", { waitUntil: "load" });
    await page.waitForTimeout(800);
    const { profile } = await cdp.send("Profiler.stop");
    if (i === 0) fs.writeFileSync("/tmp/s/search.cpuprofile", JSON.stringify(profile));
    const byId = new Map(profile.nodes.map((n: any) => [n.id, n]));
    const dts = profile.timeDeltas;
    for (let k = 0; k < profile.samples.length; k++) {
      const n: any = byId.get(profile.samples[k]);
      const cf = n.callFrame;
      if (cf.functionName === "(idle)" || cf.functionName === "(program)") continue;
      const key = `${(cf.url || "").split("/").pop()}:${cf.functionName}`;
      agg.set(key, (agg.get(key) ?? 0) + dts[k] / 1000);
      total += dts[k] / 1000;
    }
    await ctx.close();
  }
  console.log("total ms per visit", (total / runs).toFixed(1));
  const byUrl = new Map<string, number>();
  for (const [k, v] of agg) { const u = k.split(":")[0]; byUrl.set(u, (byUrl.get(u) ?? 0) + v); }
  console.log([...byUrl].sort((a, b) => b[1] - a[1]).slice(0, 12).map(([k, v]) => `${(v / runs).toFixed(1)} ${k}`).join("\n"));
  console.log("--");
  console.log([...agg].sort((a, b) => b[1] - a[1]).slice(0, 40).map(([k, v]) => `${(v / runs).toFixed(1)} ${k}`).join("\n"));
} finally { await deleteUser(user.id); await browser.close(); }
