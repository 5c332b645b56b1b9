/**
 * bench/assistants-tools: the no-model assistant tools through a running app (targets: precedents p50
 * ≤ 150 ms; summarize a 30,000-character judgment ≤ 200 ms), printing one JSON object. Signed in as a throwaway user
 * (SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY from the environment or `.env.local`; deleted at the end).
 *
 * The hourly quotas (precedents 30, document helpers 60 per user) would stop a bench part-way: when a call answers
 * 429 the bench signs in a fresh throwaway user and repeats the call (the 429 is not timed). Start the app with the
 * quotas raised to avoid that altogether: `QUOTA_PRECEDENTS_PER_HOUR=100000 QUOTA_DOCUMENT_HELPERS_PER_HOUR=100000
 * npm start`.
 *
 * The summarised judgment is the longest one among the first 100 a placeholder search lists (its length is printed:
 * the demo corpus's longest are about 30,000 characters).
 *
 * Usage: npx tsx bench/assistants-tools.ts [--app-url http://127.0.0.1:3000] [--runs 25]
 */
import { cpus, loadavg } from "node:os";
import { stats, timeOnce } from "./lib/http-timing";
import { createThrowawayUser, deleteUser } from "./lib/throwaway-user";

const arg = (name: string) => (process.argv.includes(`--${name}`) ? process.argv[process.argv.indexOf(`--${name}`) + 1] : undefined);
const appUrl = (arg("app-url") ?? process.env.APP_URL ?? `http://127.0.0.1:${process.env.PORT ?? 3000}`).replace(/\/+$/, "");
const runs = Math.max(5, Number(arg("runs") ?? 25) || 25);

/** Precedent questions (Polish and English), with and without a source judgment. */
const QUESTIONS = [
  "Czy kryptowaluta jest mieniem w rozumieniu art. 115 § 9 k.k.?",
  "zabójstwo z zamiarem ewentualnym nożem kuchennym",
  "rozbój z użyciem niebezpiecznego narzędzia, nadzwyczajne złagodzenie kary",
  "kradzież z włamaniem recydywa art. 64 § 1 k.k.",
  "robbery with a knife, guilty plea credit and sentence length",
  "fraud by abuse of position, confiscation order",
  "bad character evidence propensity section 101 Criminal Justice Act 2003",
  "dangerous driving causing death, disqualification",
];

const users: string[] = [];
let cookie = "";

async function signIn(): Promise<void> {
  const user = await createThrowawayUser("bench-tools");
  users.push(user.id);
  const r = await fetch(`${appUrl}/api/auth/sign-in`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: user.email, password: user.password }),
  });
  if (r.status !== 200) throw new Error(`sign-in answered ${r.status}: ${(await r.text()).slice(0, 300)}`);
  cookie = r.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

async function call(method: string, path: string, body?: unknown): Promise<unknown> {
  const send = () =>
    fetch(`${appUrl}${path}`, {
      method,
      headers: { cookie, accept: "application/json", ...(body !== undefined ? { "content-type": "application/json" } : {}), origin: appUrl },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const r = await send();
  if (r.status !== 200) throw Object.assign(new Error(`${method} ${path} answered ${r.status}: ${(await r.text()).slice(0, 200)}`), { status: r.status });
  return r.json();
}

/** Time one call; a 429 (quota) switches to a fresh user and repeats, untimed. */
async function timedCall(method: string, path: string, body?: unknown): Promise<{ ms: number; body: unknown }> {
  for (let attempt = 0; attempt < 3; attempt++) {
    let out: unknown;
    try {
      const ms = await timeOnce(async () => {
        out = await call(method, path, body);
      });
      return { ms, body: out };
    } catch (e) {
      if ((e as { status?: number }).status !== 429) throw e;
      await signIn();
    }
  }
  throw new Error(`${path}: still 429 after fresh users`);
}

interface SearchBody {
  hits: { id: string }[];
}

async function longestJudgment(): Promise<{ id: string; chars: number }> {
  const hits = ((await call("GET", "/api/search/documents?q=&limit=100")) as SearchBody).hits;
  let best = { id: "", chars: -1 };
  for (const h of hits) {
    const m = (await call("GET", `/api/documents/${h.id}/metadata`)) as { full_text_length?: number };
    if ((m.full_text_length ?? 0) > best.chars) best = { id: h.id, chars: m.full_text_length ?? 0 };
  }
  if (!best.id) throw new Error("the app's index holds no judgments");
  return best;
}

async function main() {
  const load = { before: loadavg().map((x) => Number(x.toFixed(2))), cpus: cpus().length };
  await signIn();
  try {
    const doc = await longestJudgment();
    // Precedents: each question alone and from the longest judgment, in turn.
    const precedents: number[] = [];
    const precedentsFromDoc: number[] = [];
    let mode = "";
    await timedCall("POST", "/api/precedents/find", { query: QUESTIONS[0], limit: 10 }); // warm-up
    for (let i = 0; i < runs; i++) {
      const q = QUESTIONS[i % QUESTIONS.length];
      const r = await timedCall("POST", "/api/precedents/find", { query: q, limit: 10 });
      mode = (r.body as { mode: string }).mode;
      precedents.push(r.ms);
      precedentsFromDoc.push((await timedCall("POST", "/api/precedents/find", { query: q, document_id: doc.id, limit: 10 })).ms);
    }
    const summarize: number[] = [];
    const keyPoints: number[] = [];
    await timedCall("POST", "/api/documents/summarize", { document_id: doc.id, length: "medium" }); // warm-up
    for (let i = 0; i < runs; i++) {
      summarize.push((await timedCall("POST", "/api/documents/summarize", { document_id: doc.id, length: "medium" })).ms);
      keyPoints.push((await timedCall("POST", "/api/documents/key-points", { document_id: doc.id })).ms);
    }
    const total = [...precedents, ...precedentsFromDoc, ...summarize, ...keyPoints].reduce((a, b) => a + b, 0);
    const calls = precedents.length + precedentsFromDoc.length + summarize.length + keyPoints.length;
    console.log(
      JSON.stringify(
        {
          bench: "assistants-tools",
          app_url: appUrl,
          mode,
          runs,
          load: { ...load, after: loadavg().map((x) => Number(x.toFixed(2))) },
          precedents: { ...stats(precedents), target_p50_ms: 150 },
          precedents_from_document: stats(precedentsFromDoc),
          summarize: { ...stats(summarize), judgment_chars: doc.chars, length: "medium", target_ms: 200 },
          key_points: { ...stats(keyPoints), judgment_chars: doc.chars },
          throughput_rps_serial: Number(((calls * 1000) / total).toFixed(1)),
          bench_rss_mb: Math.round(process.memoryUsage().rss / 1e6),
          users_used: users.length,
        },
        null,
        2,
      ),
    );
  } finally {
    for (const id of users) await deleteUser(id);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
