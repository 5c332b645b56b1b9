import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateJudgment, type JudgmentRow } from "@/supabase/seed/generate";
import { runDigest, type DigestOptions } from "@/lib/backend/alerts/digest";
import { unsubscribeSecret } from "@/lib/backend/alerts/token";
import { closeMail, sendMail } from "@/lib/backend/mail";
import { resetConfigForTests } from "@/lib/config";
import type { DbClient } from "@/lib/supabase/db-client";
import { startSmtpFaultServer, type SmtpFaultServer } from "../helpers/smtp-fault-server";
import { createUser, supabaseAs, uniqueEmail } from "../helpers/supabase";
import { adminPool, stackEnv } from "../helpers/stack";

/**
 * Mail faults with the real local SMTP server (server/launcher/mail-catcher.ts) and a server that stores a message and drops
 * the connection before its final 250 (tests/helpers/smtp-fault-server.ts): the sender cannot know the mail arrived.
 *
 * - A digest is recorded (alert_digests) before it is sent, and every send of it, the retries within a run and the
 *   next run's, carries one Message-ID derived from that record; the next run sends that same digest again rather
 *   than a new one under a new id, and the catcher, like a mailbox that drops duplicates, keeps it once.
 * - A contact-form notification that fails SMTP is queued on pg-boss and sent by the worker; the message is stored.
 */
const pool = adminPool();
const env = stackEnv();
const SEED = 7;
// Far past the test corpus and the other digest tests' rows (tests/api/alerts.test.ts uses 900_001-900_210).
const FIRST = Array.from({ length: 8 }, (_, i) => 910_001 + i);
const LATER = Array.from({ length: 8 }, (_, i) => 910_101 + i);
let first: JudgmentRow[] = [];
let later: JudgmentRow[] = [];
let fault: SmtpFaultServer;

const matching = (rows: JudgmentRow[]) => rows.filter((r) => r.jurisdiction === "UK" && r.base_extraction_status === "completed");

async function insertJudgments(rows: JudgmentRow[]): Promise<void> {
  const cols = Object.keys(rows[0]).filter((k) => /^[a-z_][a-z0-9_]*$/.test(k));
  const json = JSON.stringify(rows.map((r) => ({ ...r, created_at: new Date().toISOString() })));
  await pool.query(`insert into public.judgments (${cols.join(", ")}) select ${cols.join(", ")} from json_populate_recordset(null::public.judgments, $1::json)`, [json]);
}

async function catcherMail(messageId: string) {
  const { rows } = await pool.query<{ rcpt_to: string[]; text_body: string }>("select rcpt_to, text_body from public.mail_messages where message_id = $1", [messageId]);
  return rows;
}

beforeAll(async () => {
  first = FIRST.map((i) => generateJudgment(SEED, i));
  later = LATER.map((i) => generateJudgment(SEED, i));
  expect(matching(first).length).toBeGreaterThan(0);
  expect(matching(later).length).toBeGreaterThan(0);
  await pool.query("delete from public.judgments where id = any($1::uuid[])", [[...first, ...later].map((r) => r.id)]);
  fault = await startSmtpFaultServer();
}, 60_000);

afterAll(async () => {
  await pool.query("delete from public.judgments where id = any($1::uuid[])", [[...first, ...later].map((r) => r.id)]);
  await fault.close();
  closeMail();
  await pool.end();
});

describe("digest delivery after an ambiguous SMTP failure", () => {
  it("records the digest before sending, keeps one Message-ID across every send, and the receiver keeps one copy", async () => {
    const u = await createUser({ email: uniqueEmail("digest-fault") });
    const { rows } = await pool.query<{ id: string }>(
      `insert into public.saved_searches (user_id, name, kind, query, params, alert_enabled, alert_frequency, last_digest_at)
       values ($1, 'UK faults', 'extractions', '', $2::jsonb, true, 'daily', now()) returning id`,
      [u.id, JSON.stringify({ f: { jurisdiction: ["UK"] }, url: "?q=" })],
    );
    const searchId = rows[0].id;
    await insertJudgments(first);
    const base: Omit<DigestOptions, "send"> = { pool, appUrl: env.appUrl ?? "http://127.0.0.1:3000", tokenSecret: unsubscribeSecret(env.serviceRoleKey), frequencies: ["daily"], retryBaseMs: 1, maxAttempts: 2 };
    const mine = (r: Awaited<ReturnType<typeof runDigest>>) => r.details.find((d) => d.userId === u.id);

    // 1. The server stores the digest and drops the line before its 250, twice (both tries of the run).
    const failed = await runDigest({ ...base, send: (m) => sendMail(m, m.to === u.email ? fault.url : (env.smtpUrl as string)) });
    expect(mine(failed)).toMatchObject({ status: "failed", attempts: 2 });
    const stored = fault.stored.filter((m) => m.to.includes(u.email));
    expect(stored).toHaveLength(2);
    const messageId = stored[0].messageId as string;
    expect(messageId).toMatch(/^<alert-digest\.[0-9a-f-]{36}@[^>]+>$/);
    expect(stored[1].messageId).toBe(messageId);
    const digest = await pool.query("select id, status, message_id, saved_search_ids, period_end from public.alert_digests where user_id = $1", [u.id]);
    expect(digest.rows).toHaveLength(1);
    expect(digest.rows[0]).toMatchObject({ status: "failed", message_id: messageId, saved_search_ids: [searchId] });
    const lines = await pool.query("select status, digest_id from public.alert_deliveries where saved_search_id = $1", [searchId]);
    expect(lines.rows).toHaveLength(matching(first).length);
    for (const l of lines.rows) expect(l).toMatchObject({ status: "failed", digest_id: digest.rows[0].id });

    // 2. New judgments arrive; the next run (through the real catcher) sends the recorded digest again, same
    //    Message-ID, and the new judgments in a digest of their own: each judgment in exactly one of them.
    await insertJudgments(later);
    const next = await runDigest({ ...base, send: (m) => sendMail(m, env.smtpUrl as string) });
    expect(mine(next)).toMatchObject({ status: "sent" });
    const resent = await catcherMail(messageId);
    expect(resent).toHaveLength(1);
    expect(resent[0].rcpt_to).toEqual([u.email]);
    for (const r of matching(first)) expect(resent[0].text_body).toContain(`/documents/${r.id}`);
    for (const r of matching(later)) expect(resent[0].text_body).not.toContain(r.id);
    const digests = await pool.query<{ message_id: string; status: string }>("select message_id, status from public.alert_digests where user_id = $1 order by created_at", [u.id]);
    expect(digests.rows.map((d) => d.status)).toEqual(["sent", "sent"]);
    const fresh = await catcherMail(digests.rows[1].message_id);
    expect(fresh).toHaveLength(1);
    for (const r of matching(later)) expect(fresh[0].text_body).toContain(`/documents/${r.id}`);
    const sent = await pool.query("select count(*)::int as n from public.alert_deliveries where saved_search_id = $1 and status = 'sent'", [searchId]);
    expect(sent.rows[0].n).toBe(matching(first).length + matching(later).length);

    // 3. The window left: a run that dies after the server's 250 and before recording it leaves the digest pending.
    //    The next run sends it again under the same Message-ID, which the receiver already holds: still one copy.
    await pool.query("update public.alert_digests set status = 'pending' where message_id = $1", [messageId]);
    const again = await runDigest({ ...base, send: (m) => sendMail(m, env.smtpUrl as string) });
    expect(mine(again)).toMatchObject({ status: "sent" });
    expect(await catcherMail(messageId)).toHaveLength(1);
    const settled = await pool.query("select status from public.alert_digests where message_id = $1", [messageId]);
    expect(settled.rows[0].status).toBe("sent");

    // 4. Nothing new: nothing is sent.
    const quiet = await runDigest({ ...base, send: (m) => (m.to === u.email ? Promise.reject(new Error("nothing is due")) : sendMail(m, env.smtpUrl as string)) });
    expect(mine(quiet)?.status ?? "nothing-new").toBe("nothing-new");
  }, 120_000);
});

describe("contact-form notification after an SMTP failure", () => {
  const saved: Record<string, string | undefined> = {};
  const setEnv = (vars: Record<string, string>) => {
    for (const [k, v] of Object.entries(vars)) {
      saved[k] = process.env[k];
      process.env[k] = v;
    }
    resetConfigForTests();
  };
  afterAll(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    resetConfigForTests();
  });

  it("stores the message, queues the notification on pg-boss, and the worker delivers it with a stable Message-ID", async () => {
    const notifyTo = uniqueEmail("contact-notify");
    setEnv({
      SMTP_URL: fault.url,
      CONTACT_NOTIFY_EMAIL: notifyTo,
      DATABASE_URL: env.databaseUrl as string,
      SUPABASE_URL: env.supabaseUrl as string,
      SUPABASE_ANON_KEY: env.anonKey as string,
      SUPABASE_SERVICE_ROLE_KEY: env.serviceRoleKey as string,
    });
    const { submitContact, notifyContactMessage } = await import("@/lib/backend/content/contact");
    const { startContactNotifyWorker, closeContactNotifyQueue, CONTACT_NOTIFY_QUEUE } = await import("@/lib/backend/content/contact-notify");
    const serviceDb = supabaseAs(env.serviceRoleKey as string) as unknown as DbClient;
    const subject = `fault ${notifyTo}`;
    expect(await submitContact(serviceDb, { name: "Fault Test", email: "visitor@example.org", subject, message: "The SMTP server drops the line." })).toEqual({ status: "received" });

    const stored = await pool.query<{ id: string }>("select id from public.contact_messages where subject = $1", [subject]);
    expect(stored.rows).toHaveLength(1);
    const id = stored.rows[0].id;
    const attempt = fault.stored.find((m) => m.to.includes(notifyTo));
    expect(attempt?.messageId).toMatch(new RegExp(`^<contact\\.${id}@`));
    const queued = await pool.query("select state from pgboss.job where name = $1 and data->>'message_id' = $2", [CONTACT_NOTIFY_QUEUE, id]);
    expect(queued.rows).toHaveLength(1);

    // The worker, as `npm run worker` runs it, with SMTP back (the real catcher).
    setEnv({ SMTP_URL: env.smtpUrl as string });
    const worker = await startContactNotifyWorker({ databaseUrl: env.databaseUrl as string, notify: notifyContactMessage, pollingIntervalSeconds: 0.5, log: () => undefined });
    try {
      let delivered: { rcpt_to: string[]; text_body: string }[] = [];
      for (let i = 0; i < 60 && delivered.length === 0; i++) {
        await new Promise((r) => setTimeout(r, 500));
        delivered = await catcherMail(attempt?.messageId as string);
      }
      expect(delivered).toHaveLength(1);
      expect(delivered[0].rcpt_to).toEqual([notifyTo]);
      expect(delivered[0].text_body).toContain("The SMTP server drops the line.");
      const done = await pool.query("select state from pgboss.job where name = $1 and data->>'message_id' = $2", [CONTACT_NOTIFY_QUEUE, id]);
      for (let i = 0; i < 20 && done.rows[0]?.state !== "completed"; i++) {
        await new Promise((r) => setTimeout(r, 250));
        done.rows = (await pool.query("select state from pgboss.job where name = $1 and data->>'message_id' = $2", [CONTACT_NOTIFY_QUEUE, id])).rows;
      }
      expect(done.rows[0].state).toBe("completed");
    } finally {
      await worker.stop();
      await closeContactNotifyQueue();
    }
  }, 60_000);
});
