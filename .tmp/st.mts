import { launchBenchBrowser, signedInCookies } from "../bench/lib/browser-bench.ts";
import { createThrowawayUser, deleteUser } from "../bench/lib/throwaway-user.ts";
const APP = "http://127.0.0.1:3000";
const paths = process.argv.slice(2);
const b = await launchBenchBrowser(); const user = await createThrowawayUser();
try {
  const cookies = await signedInCookies(b, APP, user);
  const cookie = cookies.map((c) => `${c.name}=${c.value}`).join("; ");
  for (const p of paths) for (let i = 0; i < 6; i++) {
    const t = performance.now(); const r = await fetch(APP + p, { headers: { cookie } }); const body = await r.text();
    console.log(p.slice(0, 30), r.status, (performance.now() - t).toFixed(1), body.length, r.headers.get("server-timing")?.slice(0, 300));
  }
} finally { await deleteUser(user.id); await b.close(); }
