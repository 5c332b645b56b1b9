import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { runDigest } from "@/lib/backend/alerts/digest";
import { unsubscribeSecret } from "@/lib/backend/alerts/token";
import { generateLocalKeys } from "@/supabase/local/keys";
import { startGateway, type GatewayHandle } from "@/supabase/local/gateway";
import { signedInBrowser, uniqueEmail } from "../helpers/http";
import { userWithToken } from "../helpers/supabase";
import { adminPool, stackEnv } from "../helpers/stack";

/**
 * Alert mail to addresses nobody verified (security review, round 3):
 *
 * - an alert cannot be switched on while the account's address is unconfirmed or a change of address is pending
 *   (409 ALERT_EMAIL_UNCONFIRMED through the app; SA001 from the database whatever the path), and the digest skips
 *   such addresses even for alerts switched on earlier;
 * - PUT /auth/v1/user {"email"} does not change the address: the new one is kept pending and gets a confirmation
 *   link (through the stack's SMTP server), and only that link applies it;
 * - sign-ups are limited per client address at the Auth server itself (429 over_request_rate_limit), in Redis or,
 *   without one, in the gateway's memory;
 * - with AUTH_AUTOCONFIRM off a sign-up gets no session until its confirmation link is opened.
 */
const pool = adminPool();
const env = stackEnv();
const extraGateways: GatewayHandle[] = [];

afterAll(async () => {
  for (const g of extraGateways) await g.close();
  await pool.end();
});

const alertBody = (name: string, enabled: boolean) => ({
  name,
  kind: "extractions",
  params: { f: { jurisdiction: ["UK"] }, url: "?q=" },
  alert: { enabled, frequency: "daily" },
});

async function dryRunEmails(): Promise<Map<string, string>> {
  const report = await runDigest({
    pool,
    dryRun: true,
    send: () => Promise.reject(new Error("a dry run sends nothing")),
    appUrl: env.appUrl as string,
    tokenSecret: unsubscribeSecret(env.serviceRoleKey),
    frequencies: ["daily", "weekly"],
  });
  return new Map(report.details.map((d) => [d.userId, d.email]));
}

async function mailsTo(address: string): Promise<{ subject: string; text_body: string }[]> {
  const { rows } = await pool.query("select subject, text_body from public.mail_messages where $1 = any(rcpt_to) order by id", [address]);
  return rows;
}

function linkIn(text: string): string {
  const m = /(http\S+\/auth\/v1\/verify\?\S+)/.exec(text);
  expect(m, text).not.toBeNull();
  return m![1];
}

describe("alerts need a confirmed address", () => {
  it("an unconfirmed address cannot switch an alert on (409, and SA001 at the database); the digest skips it", async () => {
    const { browser, user } = await signedInBrowser();
    const on = await browser.post("/api/saved-searches", alertBody("confirmed first", true));
    expect(on.status).toBe(201);
    const { id: alertedId } = await on.json();
    expect((await dryRunEmails()).has(user.id)).toBe(true);

    // The address loses its confirmation (as an account signed up without one would be).
    await pool.query("update auth.users set email_confirmed_at = null where id = $1", [user.id]);
    expect((await dryRunEmails()).has(user.id)).toBe(false);
    const refused = await browser.post("/api/saved-searches", alertBody("alerted", true));
    expect(refused.status).toBe(409);
    expect((await refused.json()).detail.code).toBe("ALERT_EMAIL_UNCONFIRMED");
    const quiet = await browser.post("/api/saved-searches", alertBody("no alert", false));
    expect(quiet.status).toBe(201);
    const { id } = await quiet.json();
    const patched = await browser.patch(`/api/saved-searches/${id}`, { alert: { enabled: true } });
    expect(patched.status).toBe(409);
    expect((await patched.json()).detail.code).toBe("ALERT_EMAIL_UNCONFIRMED");
    // Switching off, and changing what is already on, still work.
    expect((await browser.patch(`/api/saved-searches/${alertedId}`, { alert: { frequency: "weekly" } })).status).toBe(200);
    // Whatever writes the row (here the database owner), the rule holds.
    await expect(
      pool.query("update public.saved_searches set alert_enabled = true where id = $1", [id]),
    ).rejects.toMatchObject({ code: "SA001" });
  });

  it("PUT /auth/v1/user {email} keeps the new address pending until its mailed link is opened", async () => {
    const u = await userWithToken("email-change");
    const { rows } = await pool.query<{ id: string }>(
      `insert into public.saved_searches (user_id, name, kind, query, params, alert_enabled, alert_frequency)
       values ($1, 'alerted', 'extractions', '', '{"f":{"jurisdiction":["UK"]}}'::jsonb, true, 'daily') returning id`,
      [u.id],
    );
    expect(rows).toHaveLength(1);
    const victim = uniqueEmail("victim");
    const put = await fetch(`${env.supabaseUrl}/auth/v1/user`, {
      method: "PUT",
      headers: { apikey: env.anonKey as string, authorization: `Bearer ${u.token}`, "content-type": "application/json" },
      body: JSON.stringify({ email: victim }),
    });
    expect(put.status).toBe(200);
    const body = await put.json();
    expect([body.email, body.new_email]).toEqual([u.email, victim]);
    const stored = await pool.query("select email, email_change from auth.users where id = $1", [u.id]);
    expect(stored.rows[0]).toEqual({ email: u.email, email_change: victim });
    // Pending: no digest to either address, and no new alert.
    expect((await dryRunEmails()).has(u.id)).toBe(false);
    await expect(
      pool.query(`insert into public.saved_searches (user_id, name, kind, query, params, alert_enabled) values ($1, 'x', 'search', '', '{}'::jsonb, true)`, [u.id]),
    ).rejects.toMatchObject({ code: "SA001" });

    // The confirmation went to the new address, through the stack's SMTP server; its link needs no API key.
    const mails = await mailsTo(victim);
    expect(mails).toHaveLength(1);
    const link = linkIn(mails[0].text_body);
    const open = await fetch(link);
    expect(open.status).toBe(200);
    const changed = await pool.query("select email, email_change, email_confirmed_at from auth.users where id = $1", [u.id]);
    expect(changed.rows[0]).toMatchObject({ email: victim, email_change: "" });
    expect(changed.rows[0].email_confirmed_at).not.toBeNull();
    expect((await dryRunEmails()).get(u.id)).toBe(victim);
    // A link works once.
    expect((await fetch(link)).status).toBe(403);
  });
});

describe("the Auth server limits sign-ups per client address", () => {
  async function gatewayWith(opts: { redis: boolean; limit: number; autoconfirm?: boolean }) {
    const keys = await generateLocalKeys("http://127.0.0.1");
    const gw = await startGateway({
      port: 0,
      databaseUrl: env.databaseUrl as string,
      privateJwk: keys.privateJwk,
      anonKey: keys.anonKey,
      serviceRoleKey: keys.serviceRoleKey,
      upstashToken: keys.upstashToken,
      ...(opts.redis ? { redisUrl: process.env.REDIS_URL ?? "redis://127.0.0.1:6379" } : {}),
      signupRateLimit: { limit: opts.limit, windowSeconds: 300, keyPrefix: `test:signup:${randomUUID()}` },
      autoconfirm: opts.autoconfirm,
      smtpUrl: env.smtpUrl,
    });
    extraGateways.push(gw);
    const signup = (email: string) =>
      fetch(`${gw.url}/auth/v1/signup`, {
        method: "POST",
        headers: { apikey: keys.anonKey, "content-type": "application/json" },
        body: JSON.stringify({ email, password: "long-enough-password" }),
      });
    const token = (email: string) =>
      fetch(`${gw.url}/auth/v1/token?grant_type=password`, {
        method: "POST",
        headers: { apikey: keys.anonKey, "content-type": "application/json" },
        body: JSON.stringify({ email, password: "long-enough-password" }),
      });
    return { gw, keys, signup, token };
  }

  for (const redis of [true, false]) {
    it(`refuses the sign-up past the limit with 429 over_request_rate_limit (${redis ? "Redis" : "process memory"})`, async () => {
      const { signup } = await gatewayWith({ redis, limit: 3 });
      for (let i = 0; i < 3; i++) expect((await signup(uniqueEmail("burst"))).status).toBe(200);
      const over = await signup(uniqueEmail("burst"));
      expect(over.status).toBe(429);
      expect((await over.json()).error_code).toBe("over_request_rate_limit");
    });
  }

  it("with AUTH_AUTOCONFIRM off a sign-up gets a confirmation link and no session until it is opened", async () => {
    const { gw, keys, signup, token } = await gatewayWith({ redis: false, limit: 10, autoconfirm: false });
    const settings = await (await fetch(`${gw.url}/auth/v1/settings`, { headers: { apikey: keys.anonKey } })).json();
    expect(settings.mailer_autoconfirm).toBe(false);
    const email = uniqueEmail("confirm");
    const up = await signup(email);
    expect(up.status).toBe(200);
    const body = await up.json();
    expect(body.access_token).toBeUndefined();
    expect(body.email).toBe(email);
    const early = await token(email);
    expect(early.status).toBe(400);
    expect((await early.json()).error_code).toBe("email_not_confirmed");
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(1);
    const link = linkIn(mails[0].text_body);
    expect(link.startsWith(gw.url)).toBe(true);
    expect((await fetch(link)).status).toBe(200);
    expect((await token(email)).status).toBe(200);
  });
});
