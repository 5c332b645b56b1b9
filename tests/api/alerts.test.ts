import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SMTPServer } from "smtp-server";
import { generateJudgment, type JudgmentRow } from "@/supabase/seed/generate";
import { runDigest } from "@/lib/backend/alerts/digest";
import { unsubscribeSecret } from "@/lib/backend/alerts/token";
import { closeMail, sendMail } from "@/lib/backend/mail";
import { LocalHashEmbedder } from "@/lib/search/embedders/local-hash";
import { LanceDbEngine } from "@/lib/search/lancedb/engine";
import { rebuildAppIndex } from "../helpers/app-index";
import { Browser, signedInBrowser } from "../helpers/http";
import { adminPool, stackEnv } from "../helpers/stack";

/**
 * The e-mail digest end to end: seed new judgments, run the job (the admin route: the real wiring of
 * the app's settings), read the message back from the local SMTP server's table (subject, judgment links, the
 * unsubscribe link works once), run again (nothing is sent), and an SMTP server that refuses one user's mail is tried
 * three times, logged in alert_deliveries, and does not stop another user's digest.
 */
const pool = adminPool();
const env = stackEnv();
const SEED = 7;
// Far past the 600 rows of the test corpus, so these rows are new and their ids unique.
const NEW_INDEXES = [900_001, 900_002, 900_003, 900_004, 900_005, 900_006];
// The concurrent-runs test's two batches (its own rows, so the tests above stay as they are).
const RACE_INDEXES = [
  Array.from({ length: 10 }, (_, i) => 900_101 + i),
  Array.from({ length: 10 }, (_, i) => 900_201 + i),
];
let fresh: JudgmentRow[] = [];
let race: JudgmentRow[][] = [];
let admin: Browser;

async function insertJudgments(rows: JudgmentRow[]): Promise<void> {
  const cols = Object.keys(rows[0]).filter((k) => /^[a-z_][a-z0-9_]*$/.test(k));
  const json = JSON.stringify(rows.map((r) => ({ ...r, created_at: new Date().toISOString() })));
  await pool.query(`insert into public.judgments (${cols.join(", ")}) select ${cols.join(", ")} from json_populate_recordset(null::public.judgments, $1::json)`, [json]);
}

interface Mail {
  id: number;
  subject: string;
  rcpt_to: string[];
  text_body: string;
  html_body: string;
}

async function mailTo(email: string): Promise<Mail[]> {
  const page = await (await admin.get("/api/admin/mail?limit=100")).json();
  return (page.messages as Mail[]).filter((m) => m.rcpt_to.includes(email));
}

beforeAll(async () => {
  admin = (await signedInBrowser({ admin: true })).browser;
  fresh = NEW_INDEXES.map((i) => generateJudgment(SEED, i));
  race = RACE_INDEXES.map((batch) => batch.map((i) => generateJudgment(SEED, i)));
  await pool.query("delete from public.judgments where id = any($1::uuid[])", [[...fresh, ...race.flat()].map((r) => r.id)]);
}, 60_000);

afterAll(async () => {
  await pool.query("delete from public.judgments where id = any($1::uuid[])", [[...fresh, ...race.flat()].map((r) => r.id)]);
  closeMail();
  await pool.end();
});

describe("the alert digest", () => {
  it("sends one mail per user with the new matching judgments; the second run sends nothing; unsubscribe works once", async () => {
    const { browser: user, user: u } = await signedInBrowser();
    const uk = fresh.filter((r) => r.jurisdiction === "UK" && r.base_extraction_status === "completed");
    const pl = fresh.filter((r) => r.jurisdiction === "PL");
    expect(uk.length).toBeGreaterThan(0);
    // Two alerted searches of one user: a structured (SQL) one and a keyword (engine) one.
    const a = await (await user.post("/api/saved-searches", { name: "UK cohort", kind: "extractions", params: { f: { jurisdiction: ["UK"] }, url: "?q=" }, alert: { enabled: true, frequency: "daily" } })).json();
    const b = await (await user.post("/api/saved-searches", { name: "All PL", kind: "search", query: "", params: { filter: 'jurisdiction = "PL"', url: "?jurisdiction=PL" }, alert: { enabled: true, frequency: "weekly" } })).json();
    // A judgment added before the alert existed is never announced.
    await pool.query("update public.saved_searches set last_digest_at = now() where id = any($1::uuid[])", [[a.id, b.id]]);
    await insertJudgments(fresh);
    await rebuildAppIndex(pool, env.searchDataDir as string);

    const run = await admin.post("/api/admin/alerts/run", { frequencies: ["daily", "weekly"] });
    expect(run.status).toBe(200);
    const report = await run.json();
    const mine = report.details.find((d: { email: string }) => d.email === u.email);
    expect(mine).toMatchObject({ status: "sent", searches: 2, judgments: uk.length + pl.length, attempts: 1 });

    const mails = await mailTo(u.email);
    expect(mails).toHaveLength(1); // one mail for both searches
    const [mail] = mails;
    expect(mail.subject).toBe(`${uk.length + pl.length} new judgments for your saved searches`);
    for (const r of [...uk, ...pl]) {
      expect(mail.text_body).toContain(`/documents/${r.id}`);
      expect(mail.html_body).toContain(`href="${env.appUrl}/documents/${r.id}"`);
    }
    for (const r of fresh.filter((x) => x.jurisdiction === "UK" && x.base_extraction_status !== "completed")) expect(mail.text_body).not.toContain(r.id);
    expect(mail.text_body).toContain(`${env.appUrl}/search/extractions?q=`);
    expect(mail.text_body).toContain(`${env.appUrl}/search?jurisdiction=PL`);
    const sent = await pool.query("select count(*)::int as n from public.alert_deliveries where user_id = $1 and status = 'sent'", [u.id]);
    expect(sent.rows[0].n).toBe(uk.length + pl.length);

    // Idempotent: nothing new → no second mail.
    const again = await (await admin.post("/api/admin/alerts/run", { frequencies: ["daily", "weekly"] })).json();
    expect(again.details.find((d: { email: string }) => d.email === u.email)).toBeUndefined();
    expect(await mailTo(u.email)).toHaveLength(1);

    // The unsubscribe link (one per search) works without signing in, once.
    const links = [...mail.text_body.matchAll(/\/unsubscribe\?token=([^\s]+)/g)].map((m) => decodeURIComponent(m[1]));
    expect(links).toHaveLength(2);
    const page = await new Browser().get(`/unsubscribe?token=${encodeURIComponent(links[0])}`);
    expect(page.status).toBe(200);
    const off = await new Browser().post("/api/unsubscribe", { token: links[0] });
    expect(off.status).toBe(200);
    expect((await off.json()).unsubscribed).toBe(true);
    const alerts = (await (await user.get("/api/saved-searches")).json()).saved_searches.map((s: { name: string; alert: { enabled: boolean } }) => [s.name, s.alert.enabled]);
    expect(alerts).toEqual(expect.arrayContaining([["UK cohort", false], ["All PL", true]]));
    const reused = await new Browser().post("/api/unsubscribe", { token: links[0] });
    expect([reused.status, (await reused.json()).detail.code]).toEqual([400, "UNSUBSCRIBE_TOKEN_INVALID"]);
    const forged = await new Browser().post("/api/unsubscribe", { token: links[1].slice(0, -2) + "xx" });
    expect(forged.status).toBe(400);
  }, 120_000);

  it("an SMTP error is retried 3 times, logged in alert_deliveries, and never stops the other users' digests", async () => {
    // A real SMTP server that refuses every recipient with a temporary error.
    let rcptAttempts = 0;
    const refusing = new SMTPServer({
      authOptional: true,
      disabledCommands: ["AUTH", "STARTTLS"],
      logger: false,
      onRcptTo(_addr, _session, cb) {
        rcptAttempts += 1;
        cb(Object.assign(new Error("mailbox busy, try later"), { responseCode: 451 }));
      },
    });
    await new Promise<void>((r) => refusing.listen(0, "127.0.0.1", () => r()));
    const addr = refusing.server.address();
    const refusingUrl = `smtp://127.0.0.1:${typeof addr === "object" && addr ? addr.port : 0}`;
    try {
      const { browser: failing, user: f } = await signedInBrowser();
      const { browser: fine, user: g } = await signedInBrowser();
      const body = { name: "PL weekly", kind: "search", query: "", params: { filter: 'jurisdiction = "PL"' }, alert: { enabled: true, frequency: "weekly" } };
      const sf = await (await failing.post("/api/saved-searches", body)).json();
      const sg = await (await fine.post("/api/saved-searches", body)).json();
      // Both alerts look back far enough to see the new PL judgments.
      await pool.query("update public.saved_searches set last_digest_at = now() - interval '1 hour' where id = any($1::uuid[])", [[sf.id, sg.id]]);
      const engine = new LanceDbEngine({ dir: env.searchDataDir as string, embedder: new LocalHashEmbedder() });
      const report = await runDigest({
        pool,
        engine,
        send: (m) => sendMail(m, m.to === f.email ? refusingUrl : env.smtpUrl),
        appUrl: env.appUrl as string,
        tokenSecret: unsubscribeSecret(env.serviceRoleKey),
        frequencies: ["weekly"],
        retryBaseMs: 1,
        maxAttempts: 3,
      });
      const byEmail = (email: string) => report.details.find((d) => d.email === email);
      expect(byEmail(f.email)).toMatchObject({ status: "failed", attempts: 3 });
      expect(byEmail(f.email)?.error).toMatch(/451|busy/);
      expect(rcptAttempts).toBe(3);
      expect(byEmail(g.email)).toMatchObject({ status: "sent", attempts: 1 });
      expect(await mailTo(g.email)).toHaveLength(1);
      const logged = await pool.query("select status, attempts, error from public.alert_deliveries where saved_search_id = $1", [sf.id]);
      expect(logged.rows.length).toBeGreaterThan(0);
      for (const row of logged.rows) {
        expect(row).toMatchObject({ status: "failed", attempts: 3 });
        expect(row.error).toMatch(/451|busy/);
      }
      // The failed user's watermark did not move: the next run tries again (and now sends, through a working server).
      const retry = await runDigest({ pool, engine, send: (m) => sendMail(m, env.smtpUrl), appUrl: env.appUrl as string, tokenSecret: unsubscribeSecret(env.serviceRoleKey), frequencies: ["weekly"] });
      expect(retry.details.find((d) => d.email === f.email)).toMatchObject({ status: "sent" });
      expect(retry.details.find((d) => d.email === g.email)).toMatchObject({ status: "nothing-new" });
      await engine.close();
    } finally {
      await new Promise<void>((r) => refusing.close(() => r()));
    }
  }, 60_000);

  it("two runs at once never mail a judgment twice: a run while another sends is refused with 409 ALERT_RUN_IN_PROGRESS", async () => {
    const { browser: user, user: u } = await signedInBrowser();
    // A structured (SQL) alert: it sees new rows without an index rebuild. The UK rows whose extraction completed match.
    const matching = (rows: JudgmentRow[]) => rows.filter((r) => r.jurisdiction === "UK" && r.base_extraction_status === "completed");
    for (const batch of race) expect(matching(batch).length).toBeGreaterThan(0);
    const s = await (await user.post("/api/saved-searches", { name: "UK race", kind: "extractions", params: { f: { jurisdiction: ["UK"] }, url: "?q=" }, alert: { enabled: true, frequency: "daily" } })).json();
    await pool.query("update public.saved_searches set last_digest_at = now() where id = $1", [s.id]);
    await insertJudgments(race[0]);
    const engine = new LanceDbEngine({ dir: env.searchDataDir as string, embedder: new LocalHashEmbedder() });
    const common = { pool, engine, appUrl: env.appUrl as string, tokenSecret: unsubscribeSecret(env.serviceRoleKey), frequencies: ["daily" as const] };
    try {
      // 1. A guaranteed overlap: the first run holds its mail until a second run (the admin route, another process,
      //    as a scheduled run and an admin's would be) and a third (this process) have been tried.
      let openGate!: () => void;
      const gate = new Promise<void>((r) => (openGate = r));
      let sending!: () => void;
      const firstIsSending = new Promise<void>((r) => (sending = r));
      const first = runDigest({
        ...common,
        send: async (m) => {
          sending();
          await gate;
          return sendMail(m, env.smtpUrl);
        },
      });
      expect(await Promise.race([firstIsSending.then(() => "sending"), first.then(() => "finished without sending")])).toBe("sending");
      const second = await admin.post("/api/admin/alerts/run", { frequencies: ["daily"] });
      expect(second.status).toBe(409);
      expect((await second.json()).detail.code).toBe("ALERT_RUN_IN_PROGRESS");
      await expect(runDigest({ ...common, send: (m) => sendMail(m, env.smtpUrl) })).rejects.toMatchObject({ status: 409, code: "ALERT_RUN_IN_PROGRESS" });
      // A dry run changes nothing, so it is not serialised.
      const dry = await runDigest({ ...common, dryRun: true, send: () => Promise.reject(new Error("a dry run sends nothing")) });
      expect(dry.details.find((d) => d.email === u.email)).toMatchObject({ status: "dry-run", judgments: matching(race[0]).length });
      openGate();
      const report = await first;
      expect(report.details.find((d) => d.email === u.email)).toMatchObject({ status: "sent", judgments: matching(race[0]).length });

      // 2. Two runs started at the same moment through the admin route: whichever gets the lock sends, the other is
      //    refused (or, when the first had already finished, finds nothing new).
      await insertJudgments(race[1]);
      const both = await Promise.all([1, 2].map(() => admin.post("/api/admin/alerts/run", { frequencies: ["daily"] })));
      const statuses = both.map((r) => r.status).sort();
      expect([[200, 409], [200, 200]]).toContainEqual(statuses);
      for (const r of both.filter((x) => x.status === 409)) expect((await r.json()).detail.code).toBe("ALERT_RUN_IN_PROGRESS");

      // Every matching judgment of both batches is in exactly one mail, and nothing else was mailed to this user.
      const mails = await mailTo(u.email);
      expect(mails).toHaveLength(2);
      for (const r of [...matching(race[0]), ...matching(race[1])]) {
        const containing = mails.filter((m) => m.text_body.includes(`/documents/${r.id}`));
        expect(containing, r.id).toHaveLength(1);
        expect(containing[0].text_body.split(`/documents/${r.id}`)).toHaveLength(2);
      }
      const delivered = await pool.query("select status, count(*)::int as n from public.alert_deliveries where saved_search_id = $1 group by status", [s.id]);
      expect(delivered.rows).toEqual([{ status: "sent", n: matching(race[0]).length + matching(race[1]).length }]);
    } finally {
      await engine.close();
    }
  }, 120_000);
});
