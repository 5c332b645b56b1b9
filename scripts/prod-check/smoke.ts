/**
 * The smoke run of `npm run prod:check`: what a visitor and an operator do on a fresh deployment, every request through
 * the proxy (nginx) as a browser would send it — JSON writes carrying the page's Origin (APP_URL), the session in
 * cookies. The mail side is read where the SMTP server put it: the mail catcher stores each message it receives in
 * public.mail_messages. Each step returns one line for the summary, or throws with what it saw.
 */
import { randomUUID } from "node:crypto";
import pg from "pg";

export interface SmokeContext {
  /** The proxy's address, also APP_URL (what a browser's Origin says). */
  baseUrl: string;
  databaseUrl: string;
  /** Run `npm run import -- jsonl <file>` for these rows (the operator's import, with its search sync). */
  importJudgments(rows: Record<string, unknown>[]): Promise<string>;
}

export interface SmokeStep {
  name: string;
  run(): Promise<string>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Poll `fn` until it returns a value (not null), or throw naming `what`. */
async function until<T>(what: string, fn: () => Promise<T | null>, timeoutMs: number): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== null) return v;
    if (Date.now() > end) throw new Error(`gave up waiting for ${what} after ${Math.round(timeoutMs / 1000)} s`);
    await sleep(300);
  }
}

/** A browser's worth of HTTP: cookies kept between requests, JSON bodies with the page's Origin. */
class Visitor {
  private cookies = new Map<string, string>();
  constructor(private readonly baseUrl: string) {}

  async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    const res = await fetch(new URL(path, this.baseUrl), {
      method,
      redirect: "manual",
      headers: {
        ...(body !== undefined ? { "content-type": "application/json", origin: this.baseUrl } : {}),
        ...(cookie ? { cookie } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(60_000),
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === "";
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }

  /** The JSON body of an answer with the expected status, or an error quoting what came back. */
  async json<T>(method: string, path: string, expect: number, body?: unknown): Promise<T> {
    const res = await this.request(method, path, body);
    const text = await res.text();
    if (res.status !== expect) throw new Error(`${method} ${path}: HTTP ${res.status} (expected ${expect}): ${text.slice(0, 300)}`);
    return JSON.parse(text) as T;
  }
}

interface Mail {
  subject: string;
  text_body: string;
}

/** The messages the SMTP catcher received for `email`, oldest first. */
async function mailbox(pool: pg.Pool, email: string): Promise<Mail[]> {
  const { rows } = await pool.query<Mail>("select subject, coalesce(text_body, '') as text_body from public.mail_messages where $1 = any(rcpt_to) order by id", [email]);
  return rows;
}

interface Health {
  status?: string;
  version?: string;
  commit?: string;
  dependencies?: Record<string, { status?: string; detail?: string }>;
}

/** "healthy", or "degraded (task_queue: degraded, …)": the dependencies that are not ok, where one is not. */
function describeHealth(h: Health): string {
  const off = Object.entries(h.dependencies ?? {})
    .filter(([, d]) => d.status !== "ok" && d.status !== "not_configured")
    .map(([name, d]) => `${name}: ${d.status ?? "?"}${d.detail ? ` (${d.detail.slice(0, 80)})` : ""}`);
  return `status ${h.status ?? "?"}${off.length ? ` — ${off.join("; ")}` : ""}`;
}

/** One UK judgment with its base extraction, new to the corpus (imported after the alert was saved). */
function newJudgment(runId: string): Record<string, unknown> {
  return {
    source_id: `prodcheck-${runId}`,
    jurisdiction: "UK",
    case_number: `PC/${runId.slice(0, 8)}`,
    title: "R v Prodcheck (appeal against sentence)",
    decision_date: new Date().toISOString().slice(0, 10),
    full_text:
      "Neutral Citation Number: [2026] EWCA Crim 9999. The appellant appeals against a sentence of four years' imprisonment " +
      "for robbery. The appeal is dismissed.",
    extraction: { model: "prod-check", data: { offender_gender: ["gender_male"], num_victims: 1, appeal_outcome: ["outcome_dismissed_or_refused"] } },
  };
}

/**
 * The steps, in order; later ones use what earlier ones found (the account, the hits). A step that throws fails the
 * run; the rest are not attempted (they depend on it), and the summary says so.
 */
export function smokeSteps(ctx: SmokeContext, pool: pg.Pool): SmokeStep[] {
  const runId = randomUUID();
  const email = `prodcheck-${runId.slice(0, 8)}@example.org`;
  const password = `prod-check-${runId}`;
  const visitor = new Visitor(ctx.baseUrl);
  let hits: { id: string; title?: string }[] = [];

  return [
    {
      name: "health through the proxy",
      run: async () => {
        const res = await visitor.request("GET", "/api/health/status");
        const body = (await res.json()) as Health;
        if (res.status !== 200) throw new Error(`GET /api/health/status: HTTP ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
        return `HTTP 200, ${describeHealth(body)}, version ${body.version ?? "?"}, commit ${(body.commit ?? "?").slice(0, 12)}`;
      },
    },
    {
      name: "static file precompressed by nginx",
      run: async () => {
        const page = await visitor.request("GET", "/");
        const html = await page.text();
        if (page.status !== 200) throw new Error(`GET /: HTTP ${page.status}`);
        const script = /\/_next\/static\/[^"'\s]+\.js/.exec(html)?.[0];
        if (!script) throw new Error("the home page names no /_next/static script");
        // fetch decodes the body, but the headers say which copy nginx sent.
        const res = await fetch(new URL(script, ctx.baseUrl), { headers: { "accept-encoding": "gzip" } });
        const encoding = res.headers.get("content-encoding");
        const cache = res.headers.get("cache-control") ?? "";
        if (res.status !== 200 || encoding !== "gzip" || !cache.includes("immutable")) {
          throw new Error(`${script}: HTTP ${res.status}, content-encoding ${encoding ?? "none"}, cache-control "${cache}"`);
        }
        await res.arrayBuffer();
        return `${script.split("/").pop()}: gzip (its .gz copy), ${cache}`;
      },
    },
    {
      name: "sign up, confirm by the mailed link",
      run: async () => {
        const made = await visitor.json<{ user: { id: string }; signedIn: boolean }>("POST", "/api/auth/sign-up", 201, { email, password });
        if (made.signedIn) throw new Error("sign-up returned a session: AUTH_AUTOCONFIRM is not off, the confirmation mail was skipped");
        const mail = await until("the confirmation mail in the SMTP catcher", async () => (await mailbox(pool, email))[0] ?? null, 30_000);
        const link = /(http\S+\/auth\/v1\/verify\?\S+)/.exec(mail.text_body)?.[1];
        if (!link) throw new Error(`the confirmation mail has no verify link: ${mail.text_body.slice(0, 200)}`);
        const opened = await fetch(link, { redirect: "manual" });
        if (opened.status >= 400) throw new Error(`opening the confirmation link: HTTP ${opened.status}`);
        return `${email}: "${mail.subject}" received, link opened (HTTP ${opened.status})`;
      },
    },
    {
      name: "sign in",
      run: async () => {
        await visitor.json("POST", "/api/auth/sign-in", 200, { email, password });
        const me = await visitor.json<{ user?: { email?: string } | null }>("GET", "/api/auth/me", 200);
        if (me.user?.email !== email) throw new Error(`/api/auth/me after sign-in: ${JSON.stringify(me).slice(0, 200)}`);
        return "session cookie set; /api/auth/me names the account";
      },
    },
    {
      name: "search",
      run: async () => {
        const r = await visitor.json<{ hits: { id: string; title?: string }[]; estimated_total: number }>("GET", "/api/search/documents?q=appeal%20sentence&limit=5", 200);
        hits = r.hits;
        if (hits.length < 2) throw new Error(`"appeal sentence" found ${hits.length} judgments`);
        return `"appeal sentence": ${r.estimated_total} judgments, first "${String(hits[0].title ?? hits[0].id).slice(0, 50)}"`;
      },
    },
    {
      name: "save a collection",
      run: async () => {
        const col = await visitor.json<{ id: string }>("POST", "/api/collections", 201, { name: "prod:check", description: "saved by npm run prod:check" });
        await visitor.json("POST", `/api/collections/${col.id}/documents`, 200, { document_id: hits[0].id });
        const docs = await visitor.json<{ total: number }>("GET", `/api/collections/${col.id}/documents`, 200);
        if (docs.total !== 1) throw new Error(`the collection holds ${docs.total} documents, expected 1`);
        return `collection ${col.id.slice(0, 8)} holds the first hit`;
      },
    },
    {
      name: "alert digest sent by the worker",
      run: async () => {
        const saved = await visitor.json<{ id: string }>("POST", "/api/saved-searches", 201, {
          name: "UK judgments",
          kind: "extractions",
          params: { f: { jurisdiction: ["UK"] }, url: "?q=" },
          alert: { enabled: true, frequency: "daily" },
        });
        // New judgments arrive after the alert was saved: the operator's import (with its search sync).
        const judgment = newJudgment(runId);
        const imported = await ctx.importJudgments([judgment]);
        // The daily digest's schedule fires at 07:00; the same pg-boss queue is sent a run now, and the worker works it.
        const { default: PgBoss } = await import("pg-boss");
        const boss = new PgBoss({ connectionString: ctx.databaseUrl, supervise: false, schedule: false, migrate: false, max: 1 });
        boss.on("error", () => undefined);
        await boss.start();
        try {
          await boss.send("alert_digest_daily", {});
        } finally {
          await boss.stop({ graceful: false, wait: true });
        }
        // The run records the digest, sends it, then marks its judgments sent: the mail can land a moment before the mark.
        const digest = await until(
          "the digest in the SMTP catcher, its judgment marked sent",
          async () => {
            const mail = (await mailbox(pool, email)).find((m) => m.text_body.includes(String(judgment.case_number))) ?? null;
            if (!mail) return null;
            const sent = await pool.query<{ n: number }>("select count(*)::int as n from public.alert_deliveries where saved_search_id = $1 and status = 'sent'", [saved.id]);
            return sent.rows[0].n >= 1 ? mail : null;
          },
          90_000,
        );
        return `${imported}; "${digest.subject}" received by ${email}`;
      },
    },
    {
      name: "extraction job run by the worker",
      run: async () => {
        const schema = await visitor.json<{ id: string }>("POST", "/api/schemas", 201, {
          name: "prod:check",
          fields: [
            { name: "case_number", type: "string", description: "The case number" },
            { name: "judges", type: "string[]", description: "The judges" },
          ],
        });
        const job = await visitor.json<{ job_id: string; mode: string }>("POST", "/api/extractions", 202, {
          schema_id: schema.id,
          document_ids: hits.slice(0, 3).map((h) => h.id),
          idempotency_key: `prodcheck-${runId}`,
        });
        const done = await until(
          `extraction job ${job.job_id} to finish`,
          async () => {
            const j = await visitor.json<{ status: string; progress: { total: number; done: number; failed: number } }>("GET", `/api/extractions/${job.job_id}`, 200);
            return ["queued", "running"].includes(j.status) ? null : j;
          },
          90_000,
        );
        if (done.status !== "completed" || done.progress.failed > 0) throw new Error(`job ${job.job_id}: ${JSON.stringify(done).slice(0, 300)}`);
        return `${done.progress.done}/${done.progress.total} documents, mode ${job.mode}`;
      },
    },
    {
      name: "health after the run: healthy",
      run: async () => {
        // The worker's start-up jobs (partitions, dashboard row) and its heartbeat have had the run's length to land.
        let last: Health = {};
        await until(
          "status healthy",
          async () => {
            last = (await (await visitor.request("GET", "/api/health/status")).json()) as Health;
            return last.status === "healthy" ? true : null;
          },
          30_000,
        ).catch(() => {
          throw new Error(describeHealth(last));
        });
        return describeHealth(last);
      },
    },
  ];
}
