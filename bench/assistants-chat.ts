/**
 * bench/assistants-chat: the no-model chat through a running app (`npm start`): time to the first `token` event and to
 * `done` of POST /api/chat (streaming), signed in as a throwaway user. Prints JSON: p50/p95 of both, throughput,
 * the bench process's memory and the machine's load. Targets: first token ≤ 300 ms, done ≤ 1 s.
 *   npx tsx bench/assistants-chat.ts [--app-url http://127.0.0.1:3000] [--rounds 20]
 * Rounds count against the user's hourly chatMessages quota (QUOTA_CHAT_MESSAGES_PER_HOUR, 100 by default).
 */
import os from "node:os";
import { performance } from "node:perf_hooks";
import { stats } from "./lib/http-timing";
import { createThrowawayUser, deleteUser } from "./lib/throwaway-user";

const arg = (name: string, def: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : def;
};
const appUrl = arg("app-url", process.env.APP_URL ?? `http://127.0.0.1:${process.env.PORT ?? 3000}`);
const rounds = Number(arg("rounds", "20"));
const QUESTIONS = [
  "When is a sentence for robbery reduced on appeal?",
  "Czy przyznanie się do winy wpływa na wymiar kary?",
  "What makes a conviction for murder unsafe?",
  "Jak sąd ocenia zeznania jedynego świadka?",
];

async function signIn(email: string, password: string): Promise<string> {
  const res = await fetch(`${appUrl}/api/auth/sign-in`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email, password }) });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status}`);
  return res.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
}

/** One streamed answer: ms to the first token event and to done, and the answer's mode. */
async function ask(cookie: string, message: string): Promise<{ first: number; done: number; mode: string; sources: number }> {
  const t0 = performance.now();
  const res = await fetch(`${appUrl}/api/chat`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie, origin: appUrl },
    body: JSON.stringify({ message }),
  });
  if (res.status !== 200 || !res.body) throw new Error(`chat failed: ${res.status} ${await res.text()}`);
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let first = -1;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    for (let cut = buffer.indexOf("\n\n"); cut >= 0; cut = buffer.indexOf("\n\n")) {
      const ev = JSON.parse(buffer.slice(6, cut)) as { type: string; metadata?: { mode: string }; error?: unknown };
      buffer = buffer.slice(cut + 2);
      if (ev.type === "token" && first < 0) first = performance.now() - t0;
      if (ev.type === "done") {
        if (ev.error) throw new Error("the answer ended with an error");
        return { first, done: performance.now() - t0, mode: ev.metadata?.mode ?? "?", sources: 0 };
      }
    }
  }
  throw new Error("the stream ended without done");
}

async function main() {
  const user = await createThrowawayUser("bench-chat");
  try {
    const cookie = await signIn(user.email, user.password);
    await ask(cookie, QUESTIONS[0]); // warm
    const firsts: number[] = [];
    const dones: number[] = [];
    const modes = new Set<string>();
    const t0 = performance.now();
    for (let i = 0; i < rounds; i++) {
      const r = await ask(cookie, QUESTIONS[i % QUESTIONS.length]);
      firsts.push(r.first);
      dones.push(r.done);
      modes.add(r.mode);
    }
    const wall = performance.now() - t0;
    console.log(
      JSON.stringify(
        {
          bench: "assistants-chat",
          app_url: appUrl,
          modes: [...modes],
          first_token: stats(firsts),
          done: stats(dones),
          targets_ms: { first_token_p50: 300, done_p50: 1000 },
          throughput_answers_per_s: Number(((rounds * 1000) / wall).toFixed(2)),
          load: { rounds, sequential: true, loadavg_1m: Number(os.loadavg()[0].toFixed(2)), cpus: os.cpus().length },
          memory: { bench_rss_mb: Math.round(process.memoryUsage().rss / 1e6) },
        },
        null,
        2,
      ),
    );
  } finally {
    await deleteUser(user.id);
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
