/**
 * The e-mail digest of saved-search alerts (docs/accounts.md). One run:
 *
 * 1. loads every saved search whose alert is on and due (daily runs: "daily" alerts; Monday runs: "weekly" too), of
 *    users who have not paused their alerts, with the owner's e-mail and interface language;
 * 2. for each, finds the judgments added since its watermark (created_at > last_digest_at) that match it and were
 *    never sent for it: "extractions" through the one SQL matching predicate (structured.filter_predicate), "search"
 *    through the search engine (keywords + filter expression; hits beyond the engine's cap are not seen);
 * 3. per user, first sends again any digest an earlier run recorded and never got acknowledged (the same mail, the
 *    same Message-ID), then claims the listed pairs in alert_deliveries (unique per saved search and judgment: a pair
 *    already sent, or in a recorded digest, is never claimed again), records the digest (alert_digests: user, saved
 *    searches, period and the composed mail) BEFORE sending it, and sends ONE mail (HTML + text) with at most
 *    ALERT_DIGEST_MAX_ITEMS per search and each search's total under a Message-ID derived from that record, retrying
 *    SMTP errors with exponential backoff; then marks the digest and its pairs sent and moves the user's watermarks to
 *    the run's start. A digest that finally fails is "failed" with the error, the watermarks stay, and the next run
 *    sends it again as it was: a server that stored it before its answer was lost receives the same Message-ID, which
 *    receivers drop as a duplicate (docs/accounts.md says what is left). The other users' digests go on.
 *
 * Only confirmed addresses with no change pending receive digests (an alert cannot be switched on otherwise: a
 * trigger refuses it, SA001).
 *
 * Runs are serialised. Scheduled runs are pg-boss jobs (lib/backend/jobs): one job per slot however many workers
 * watch the clock, one active run per digest queue. A run that sends (not a dry run) also holds a Postgres session
 * advisory lock (DIGEST_RUN_LOCK) on one connection of the pool for its whole length, because two entry points are
 * not pg-boss jobs: `npm run alerts:send` and POST /api/admin/alerts/run (in any process on the same database) must
 * not run beside a scheduled run or the other digest queue. Without it a second run re-claimed the first run's
 * pending pairs and both mailed the same judgments. A second run does not wait: it is refused with 409
 * ALERT_RUN_IN_PROGRESS before it reads anything (pg-boss retries a refused scheduled run an hour later). A
 * run that dies releases the lock with its connection; the next run then re-claims that run's pending pairs (never
 * confirmed sent). The pool needs one connection more than the run's concurrency (./run.ts).
 *
 * It runs as the database owner (a pg pool, like the search sync): it reads across users and auth.users' e-mails,
 * which no API role may.
 */
import { randomUUID } from "node:crypto";
import type pg from "pg";
import { config } from "@/lib/config";
import { ApiError } from "@/lib/errors";
import { logger } from "@/lib/logger";
import { escapeHtml } from "@/lib/text/html";
import { fmt, formatDate, formatNumber, plural, type Locale } from "@/lib/i18n/locale";
import { accountsEn, accountsPl } from "@/lib/i18n/areas/accounts";
import { getSearchEngine } from "@/lib/search/engine";
import { MAX_TOTAL_HITS } from "@/lib/search/index-settings";
import type { SearchEngine } from "@/lib/search/types";
import type { PgRow, Tables } from "@/lib/supabase/pg-rows";
import { ExtractionsParamsSchema, SearchParamsSchema, type AlertFrequency } from "@/lib/schema/requests/accounts";
import { stableMessageId, type MailMessage, type MailSender } from "../mail";
import { parseFilterParam } from "../search";
import { signUnsubscribeToken } from "./token";

export interface DigestOptions {
  pool: pg.Pool;
  send: MailSender;
  /** Absolute base of the links in the mail (APP_URL). */
  appUrl: string;
  tokenSecret: string;
  /** Which alerts are due; default from `now`: daily, plus weekly on Mondays. */
  frequencies?: AlertFrequency[];
  now?: Date;
  /** Find and report only: nothing is claimed, sent or moved. */
  dryRun?: boolean;
  /** The engine for "search" alerts (default: the app's engine). */
  engine?: SearchEngine;
  maxAttempts?: number;
  retryBaseMs?: number;
  maxItems?: number;
  log?: (line: string) => void;
}

export interface DigestUserReport {
  userId: string;
  email: string;
  searches: number;
  judgments: number;
  status: "sent" | "failed" | "nothing-new" | "dry-run";
  attempts: number;
  error?: string;
}

export interface DigestReport {
  runId: string;
  frequencies: AlertFrequency[];
  dryRun: boolean;
  alertedSearches: number;
  users: number;
  mailsSent: number;
  mailsFailed: number;
  judgmentsListed: number;
  details: DigestUserReport[];
}

interface AlertRow {
  id: string;
  user_id: string;
  name: string;
  kind: "search" | "extractions";
  query: string;
  params: Record<string, unknown>;
  since: Date;
  nonce: string;
  email: string;
  language: string;
}

interface Item {
  id: string;
  title: string;
  case_number: string | null;
  decision_date: string | null;
}

interface Section {
  search: AlertRow;
  items: Item[];
  total: number;
}

/** Which frequencies a scheduled run at `now` (server time) serves: daily always, weekly on Mondays. */
export function dueFrequencies(now: Date): AlertFrequency[] {
  return now.getDay() === 1 ? ["daily", "weekly"] : ["daily"];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The advisory lock key of a sending digest run (a fixed 64-bit key: hashtextextended('alert_digest_run', 0)). */
export const DIGEST_RUN_LOCK = "alert_digest_run";

/**
 * Take the run lock on a connection of its own, or throw 409 ALERT_RUN_IN_PROGRESS when another run holds it.
 * Returns the release (unlock, then give the connection back; a connection that cannot unlock is discarded, which
 * ends its session and so the lock).
 */
async function takeRunLock(pool: pg.Pool): Promise<() => Promise<void>> {
  const client = await pool.connect();
  let locked = false;
  try {
    const { rows } = await client.query<{ ok: boolean }>(`select pg_try_advisory_lock(hashtextextended($1, 0)) as ok`, [DIGEST_RUN_LOCK]);
    locked = rows[0]?.ok === true;
  } catch (e) {
    client.release(e instanceof Error ? e : true);
    throw e;
  }
  if (!locked) {
    client.release();
    throw new ApiError("ALERT_RUN_IN_PROGRESS");
  }
  return async () => {
    try {
      await client.query(`select pg_advisory_unlock(hashtextextended($1, 0))`, [DIGEST_RUN_LOCK]);
      client.release();
    } catch (e) {
      client.release(e instanceof Error ? e : true);
    }
  };
}

export async function runDigest(opts: DigestOptions): Promise<DigestReport> {
  // A dry run claims, sends and moves nothing, so it needs no lock and may run beside a real one.
  const release = opts.dryRun ? null : await takeRunLock(opts.pool);
  try {
    return await runDigestLocked(opts);
  } finally {
    await release?.();
  }
}

async function runDigestLocked(opts: DigestOptions): Promise<DigestReport> {
  const c = config();
  const now = opts.now ?? new Date();
  const frequencies = opts.frequencies ?? dueFrequencies(now);
  const maxItems = opts.maxItems ?? c.ALERT_DIGEST_MAX_ITEMS;
  const log = opts.log ?? ((line: string) => logger.info(line));
  const runId = randomUUID();
  const report: DigestReport = {
    runId,
    frequencies,
    dryRun: !!opts.dryRun,
    alertedSearches: 0,
    users: 0,
    mailsSent: 0,
    mailsFailed: 0,
    judgmentsListed: 0,
    details: [],
  };

  const { rows: alerts } = await opts.pool.query<AlertRow>(
    `select s.id, s.user_id, s.name, s.kind, s.query, s.params, coalesce(s.last_digest_at, s.created_at) as since,
            s.unsubscribe_nonce as nonce, u.email, coalesce(us.language, 'en') as language
       from public.saved_searches s
       join auth.users u on u.id = s.user_id
       left join public.user_settings us on us.user_id = s.user_id
      where s.alert_enabled and s.alert_frequency = any($1::text[]) and not coalesce(us.alerts_paused, false)
        and u.email is not null and u.email_confirmed_at is not null and coalesce(u.email_change, '') = ''
      order by s.user_id, s.created_at, s.id`,
    [frequencies],
  );
  report.alertedSearches = alerts.length;
  if (alerts.length === 0) return report;

  // Every judgment added since the oldest watermark, once per run: a search with nothing newer is skipped unasked.
  const oldest = alerts.reduce((m, a) => (a.since < m ? a.since : m), alerts[0].since);
  const { rows: fresh } = await opts.pool.query<PgRow<"judgments", "id" | "created_at", "created_at">>(
    `select id, created_at from public.judgments where created_at > $1`,
    [oldest],
  );
  const createdAt = new Map(fresh.map((r) => [r.id, r.created_at]));

  const byUser = new Map<string, AlertRow[]>();
  for (const a of alerts) byUser.set(a.user_id, [...(byUser.get(a.user_id) ?? []), a]);
  report.users = byUser.size;

  // Many users save the same search: each distinct search is matched once per run, over everything added since the
  // oldest watermark, and each alert keeps the matches newer than its own watermark.
  const matches = new Map<string, Promise<string[]>>();
  const matchesOf = (s: AlertRow): Promise<string[]> => {
    const key = `${s.kind}\u0000${s.query}\u0000${JSON.stringify(s.params)}`;
    let m = matches.get(key);
    if (!m) {
      m = s.kind === "extractions" ? extractionMatches(opts.pool, s, oldest) : searchMatches(opts.engine ?? getSearchEngine(), s, createdAt);
      matches.set(key, m);
    }
    return m;
  };

  const users = [...byUser];
  report.details = users.map(([userId, searches]) => ({ userId, email: searches[0].email, searches: searches.length, judgments: 0, status: "nothing-new", attempts: 0 }));
  // Users are independent (each claims only its own pairs), so a few are served at once: while one waits on SMTP
  // another queries. ALERT_DIGEST_CONCURRENCY bounds the database connections and SMTP sessions a run holds.
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < users.length; i = next++) await digestOne(users[i][0], users[i][1], report.details[i]);
  };
  await Promise.all(Array.from({ length: Math.min(c.ALERT_DIGEST_CONCURRENCY, users.length) }, worker));
  return report;

  async function digestOne(userId: string, searches: AlertRow[], detail: DigestUserReport): Promise<void> {
    const to = searches[0].email;
    try {
      // First the user's digests recorded by an earlier run and never acknowledged: sent again as they were, with
      // the same Message-ID (a server that stored one before its answer was lost gets a copy it recognises).
      if (!opts.dryRun) {
        for (const d of await unsettledDigests(opts.pool, userId)) {
          const r = await deliver(d.id, { ...d.message, to }, true);
          if (r === "failed") return;
        }
      }
      const sections: Section[] = [];
      for (const s of searches) {
        const anyNew = fresh.some((r) => r.created_at > s.since);
        if (!anyNew) continue;
        const ids = (await matchesOf(s)).filter((id) => (createdAt.get(id) ?? new Date(0)) > s.since);
        const unsent = await unsentOf(opts.pool, s.id, ids);
        if (unsent.length === 0) continue;
        sections.push({ search: s, items: await itemsOf(opts.pool, unsent.slice(0, maxItems)), total: unsent.length });
      }
      if (sections.length === 0) {
        // Nothing new: move the watermarks so the next run looks at less.
        if (!opts.dryRun) {
          await advance(opts.pool, searches.map((s) => s.id), now);
          return;
        }
        const due = await unsettledLines(opts.pool, userId);
        if (due > 0) {
          detail.judgments = due;
          detail.status = "dry-run";
          report.judgmentsListed += due;
        }
        return;
      }
      const listed = sections.reduce((n, s) => n + s.items.length, 0);
      if (opts.dryRun) {
        // What the next run would mail: the new lines and those of digests recorded and not yet acknowledged.
        detail.judgments = listed + (await unsettledLines(opts.pool, userId));
        detail.status = "dry-run";
        report.judgmentsListed += detail.judgments;
        return;
      }
      const claimed = await claim(opts.pool, runId, userId, sections);
      const kept = sections.map((s) => ({ ...s, items: s.items.filter((i) => claimed.has(`${s.search.id}:${i.id}`)) })).filter((s) => s.items.length);
      if (kept.length === 0) return; // another run holds them
      const mail = composeDigest(kept, { appUrl: opts.appUrl, tokenSecret: opts.tokenSecret, to, language: searches[0].language });
      // The digest's identity (user, alerts, period) and the mail itself are recorded before the first byte is sent.
      const since = kept.reduce((m, s) => (s.search.since < m ? s.search.since : m), kept[0].search.since);
      const digestId = await recordDigest(opts.pool, runId, userId, kept, since, now, mail);
      if ((await deliver(digestId, { ...mail, messageId: stableMessageId("alert-digest", digestId) }, false)) === "sent") {
        await advance(opts.pool, searches.map((s) => s.id), now);
      }
    } catch (e) {
      // One user's failure (a bad stored filter, a database hiccup) never stops the others' digests.
      detail.status = "failed";
      detail.error = e instanceof Error ? e.message : String(e);
      report.mailsFailed += 1;
      log(`digest for user ${userId} failed: ${detail.error}`);
    }

    /** Send one recorded digest (with retries) and settle it and its lines. */
    async function deliver(digestId: string, mail: MailMessage, resend: boolean): Promise<"sent" | "failed"> {
      const judgments = await linesOf(opts.pool, digestId);
      const { attempts, error } = await sendWithRetry(opts.send, mail, opts.maxAttempts ?? c.SMTP_MAX_ATTEMPTS, opts.retryBaseMs ?? c.SMTP_RETRY_BASE_MS);
      detail.attempts = attempts;
      await settle(opts.pool, digestId, error === undefined ? "sent" : "failed", attempts, error ?? null);
      if (error === undefined) {
        detail.status = "sent";
        detail.error = undefined;
        detail.judgments += judgments;
        report.mailsSent += 1;
        report.judgmentsListed += judgments;
        return "sent";
      }
      detail.status = "failed";
      detail.error = error;
      report.mailsFailed += 1;
      log(`digest ${resend ? "sent again " : ""}for user ${userId} failed after ${attempts} tries: ${error}`);
      return "failed";
    }
  }
}

interface StoredDigest {
  id: string;
  message: MailMessage;
}

/**
 * The user's digests recorded and not acknowledged (pending: the run stopped while sending; failed: every try
 * failed), oldest first. One whose lines are all gone (their saved searches deleted) is dropped instead.
 */
async function unsettledDigests(pool: pg.Pool, userId: string): Promise<StoredDigest[]> {
  await pool.query(
    `update public.alert_digests d set status = 'dropped'
      where d.user_id = $1 and d.status in ('pending', 'failed')
        and not exists (select 1 from public.alert_deliveries a where a.digest_id = d.id)`,
    [userId],
  );
  const { rows } = await pool.query<Omit<PgRow<"alert_digests", "id" | "message">, "message"> & { message: MailMessage }>(
    `select id, message from public.alert_digests where user_id = $1 and status in ('pending', 'failed') order by created_at, id`,
    [userId],
  );
  return rows;
}

/** Record a digest and tie its claimed lines to it, in one transaction. Returns its id. */
async function recordDigest(pool: pg.Pool, runId: string, userId: string, sections: Section[], since: Date, until: Date, mail: MailMessage): Promise<string> {
  const client = await pool.connect();
  try {
    await client.query("begin");
    const id = randomUUID();
    const message: MailMessage = { ...mail, messageId: stableMessageId("alert-digest", id) };
    await client.query(
      `insert into public.alert_digests (id, user_id, saved_search_ids, period_start, period_end, message_id, message)
       values ($1, $2, $3::uuid[], $4, $5, $6, $7::jsonb)`,
      [id, userId, sections.map((s) => s.search.id), since, until, message.messageId, JSON.stringify(message)],
    );
    const pairs = sections.flatMap((s) => s.items.map((i) => [s.search.id, i.id] as const));
    await client.query(
      `update public.alert_deliveries a set digest_id = $1
         from unnest($2::uuid[], $3::uuid[]) as t(s, j)
        where a.saved_search_id = t.s and a.judgment_id = t.j and a.run_id = $4 and a.status = 'pending'`,
      [id, pairs.map((p) => p[0]), pairs.map((p) => p[1]), runId],
    );
    await client.query("commit");
    return id;
  } catch (e) {
    await client.query("rollback").catch(() => undefined);
    throw e;
  } finally {
    client.release();
  }
}

/** Lines of the user's digests recorded and not acknowledged (a dry run reports them as due). */
async function unsettledLines(pool: pg.Pool, userId: string): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(
    `select count(*)::int as n from public.alert_deliveries a join public.alert_digests d on d.id = a.digest_id
      where d.user_id = $1 and d.status in ('pending', 'failed') and a.status <> 'sent'`,
    [userId],
  );
  return rows[0]?.n ?? 0;
}

async function linesOf(pool: pg.Pool, digestId: string): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(`select count(*)::int as n from public.alert_deliveries where digest_id = $1`, [digestId]);
  return rows[0]?.n ?? 0;
}

/** Judgments matching an "extractions" alert added since `since`, newest first (the one SQL predicate). */
async function extractionMatches(pool: pg.Pool, s: AlertRow, since: Date): Promise<string[]> {
  const p = ExtractionsParamsSchema.parse(s.params);
  const text = s.query || p.q || null;
  const { rows: pred } = await pool.query<{ p: string }>(`select structured.filter_predicate($1::jsonb, $2) as p`, [JSON.stringify(p.f), text]);
  const where = pred[0].p ? `and ${pred[0].p}` : "";
  const { rows } = await pool.query<Pick<Tables<"judgments">, "id">>(
    `select j.id from public.judgments j where j.created_at > $1 ${where} order by j.created_at desc, j.id`,
    [since],
  );
  return rows.map((r) => r.id);
}

/**
 * Judgments matching a "search" alert added in this run's window: the engine's keyword matches of the query and
 * filter (up to its reported cap), kept when they are new (the caller keeps those newer than each alert's watermark). Alerts match by keywords: a vector search ranks every document,
 * so it has no "matches" to announce.
 */
async function searchMatches(engine: SearchEngine, s: AlertRow, createdAt: Map<string, Date>): Promise<string[]> {
  const p = SearchParamsSchema.parse(s.params);
  const r = await engine.searchDocuments({
    q: s.query,
    filter: parseFilterParam(p.filter || undefined),
    sort: s.query.trim() ? undefined : [{ attribute: "created_at", direction: "desc" }],
    limit: MAX_TOTAL_HITS,
    offset: 0,
    semanticRatio: 0,
    attributesToRetrieve: ["id"],
  });
  return r.hits.map((h) => String(h.document.id)).filter((id) => createdAt.has(id));
}

/**
 * The ids never sent for this search and in no recorded digest (a digest not acknowledged is sent again whole, so
 * its lines go in no other digest). A line claimed by a run that stopped before recording its digest is free again.
 */
async function unsentOf(pool: pg.Pool, savedSearchId: string, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const { rows } = await pool.query<Pick<Tables<"alert_deliveries">, "judgment_id">>(
    `select judgment_id from public.alert_deliveries
      where saved_search_id = $1 and (status = 'sent' or digest_id is not null) and judgment_id = any($2::uuid[])`,
    [savedSearchId, ids],
  );
  const sent = new Set(rows.map((r) => r.judgment_id));
  return ids.filter((id) => !sent.has(id));
}

async function itemsOf(pool: pg.Pool, ids: string[]): Promise<Item[]> {
  const { rows } = await pool.query<Pick<Tables<"judgments">, "id" | "title" | "base_case_name" | "case_number" | "decision_date">>(
    `select id, title, base_case_name, case_number, decision_date::text from public.judgments where id = any($1::uuid[])`,
    [ids],
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const r = byId.get(id);
    if (!r) return [];
    const title = (r.base_case_name || r.title || "").replace(/\s+/g, " ").trim().slice(0, 120);
    return [{ id, title, case_number: r.case_number, decision_date: r.decision_date }];
  });
}

/** Claim the listed pairs for this run; a pair already sent (by any run) is not claimed. Returns "search:judgment". */
async function claim(pool: pg.Pool, runId: string, userId: string, sections: Section[]): Promise<Set<string>> {
  const searchIds: string[] = [];
  const judgmentIds: string[] = [];
  for (const s of sections) {
    for (const i of s.items) {
      searchIds.push(s.search.id);
      judgmentIds.push(i.id);
    }
  }
  const { rows } = await pool.query<Pick<Tables<"alert_deliveries">, "saved_search_id" | "judgment_id">>(
    `insert into public.alert_deliveries (saved_search_id, judgment_id, user_id, run_id, status)
     select s, j, $3, $4, 'pending' from unnest($1::uuid[], $2::uuid[]) as t(s, j)
     on conflict (saved_search_id, judgment_id) do update
        set run_id = excluded.run_id, status = 'pending', error = null
      where alert_deliveries.status <> 'sent' and alert_deliveries.digest_id is null
     returning saved_search_id, judgment_id`,
    [searchIds, judgmentIds, userId, runId],
  );
  return new Set(rows.map((r) => `${r.saved_search_id}:${r.judgment_id}`));
}

async function settle(pool: pg.Pool, digestId: string, status: "sent" | "failed", attempts: number, error: string | null) {
  const err = error?.slice(0, 2000) ?? null;
  await pool.query(
    `update public.alert_digests
        set status = $2, attempts = attempts + $3, error = $4, sent_at = case when $2 = 'sent' then now() else sent_at end
      where id = $1`,
    [digestId, status, attempts, err],
  );
  await pool.query(
    `update public.alert_deliveries
        set status = $2, attempts = attempts + $3, error = $4, sent_at = case when $2 = 'sent' then now() else sent_at end
      where digest_id = $1 and status <> 'sent'`,
    [digestId, status, attempts, err],
  );
}

async function advance(pool: pg.Pool, savedSearchIds: string[], to: Date) {
  await pool.query(`update public.saved_searches set last_digest_at = $2 where id = any($1::uuid[])`, [savedSearchIds, to]);
}

async function sendWithRetry(send: MailSender, mail: MailMessage, maxAttempts: number, baseMs: number): Promise<{ attempts: number; error?: string }> {
  let last = "";
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    try {
      const info = await send(mail);
      if (info.rejected.length > 0 && info.accepted.length === 0) throw new Error(`recipient rejected: ${info.rejected.join(", ")}`);
      return { attempts: attempt };
    } catch (e) {
      last = e instanceof Error ? e.message : String(e);
      if (attempt < maxAttempts) await sleep(baseMs * 2 ** (attempt - 1));
    }
  }
  return { attempts: maxAttempts, error: last };
}

/** The page a saved search restores ("/search?…" or "/search/extractions?…"). */
export function savedSearchPath(kind: "search" | "extractions", params: Record<string, unknown>): string {
  const url = typeof params.url === "string" && params.url.startsWith("?") ? params.url : "";
  return `${kind === "search" ? "/search" : "/search/extractions"}${url}`;
}

/** The digest mail of one user: one section per saved search, in the user's interface language. */
export function composeDigest(
  sections: Section[],
  o: { appUrl: string; tokenSecret: string; to: string; language: string },
): MailMessage {
  const locale: Locale = o.language === "pl" ? "pl" : "en";
  const t = (locale === "pl" ? accountsPl : accountsEn).digest;
  const base = o.appUrl.replace(/\/+$/, "");
  const listed = sections.reduce((n, s) => n + s.items.length, 0);
  const subject = plural(locale, listed, t.subject);
  const manage = `${base}/saved`;
  const text: string[] = [t.intro, ""];
  const html: string[] = [`<p>${escapeHtml(t.intro)}</p>`];
  let firstUnsubscribe = "";
  for (const s of sections) {
    const open = `${base}${savedSearchPath(s.search.kind, s.search.params)}`;
    const unsubscribe = `${base}/unsubscribe?token=${encodeURIComponent(signUnsubscribeToken(s.search.id, s.search.nonce, o.tokenSecret))}`;
    firstUnsubscribe ||= unsubscribe;
    const count = plural(locale, s.total, t.sectionTotal, { shown: formatNumber(locale, s.items.length) });
    text.push(`== ${s.search.name} (${count})`, `${t.openSearch}: ${open}`, "");
    html.push(`<h2>${escapeHtml(s.search.name)}</h2><p>${escapeHtml(count)} · <a href="${escapeHtml(open)}">${escapeHtml(t.openSearch)}</a></p><ul>`);
    for (const i of s.items) {
      const link = `${base}/documents/${i.id}`;
      const label = [i.title || t.untitled, i.case_number, i.decision_date ? formatDate(locale, i.decision_date) : null].filter(Boolean).join(" · ");
      text.push(`- ${label}`, `  ${link}`);
      html.push(`<li><a href="${escapeHtml(link)}">${escapeHtml(label)}</a></li>`);
    }
    text.push("", `${t.unsubscribe}: ${unsubscribe}`, "");
    html.push(`</ul><p><a href="${escapeHtml(unsubscribe)}">${escapeHtml(t.unsubscribe)}</a></p>`);
  }
  const footer = fmt(t.footer, { url: manage });
  text.push("--", footer);
  html.push(`<hr><p>${escapeHtml(footer)}</p>`);
  return {
    to: o.to,
    subject,
    text: text.join("\n"),
    html: `<!doctype html><html><body>${html.join("\n")}</body></html>`,
    headers: { "List-Unsubscribe": `<${firstUnsubscribe}>` },
  };
}
