import { launchBenchBrowser } from "../bench/lib/browser-bench.ts";
const f = () => { const out: string[] = []; for (const l of ["en-GB", "pl-PL"]) { const d = new Intl.DateTimeFormat(l, { dateStyle: "medium", timeZone: "UTC" }); for (let m = 0; m < 12; m++) out.push(d.format(new Date(Date.UTC(2021, m, 3)))); const n = new Intl.NumberFormat(l); out.push(n.format(1234), n.format(12345.67), n.format(-1234567)); const p = new Intl.NumberFormat(l, { style: "percent", maximumFractionDigits: 1 }); out.push(p.format(0.1234), p.format(1)); } return out; };
const node = f();
const b = await launchBenchBrowser(); const p = await (await b.newContext()).newPage();
const chrome = await p.evaluate(f);
console.log(JSON.stringify(node)); console.log(JSON.stringify(chrome)); console.log("same:", JSON.stringify(node) === JSON.stringify(chrome));
await b.close();
