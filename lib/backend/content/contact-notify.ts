/**
 * Retries of the contact form's notification mail. The message itself is stored before any mail is tried
 * (./contact.ts); when SMTP fails, its id goes on the pg-boss queue `contact-notify` (the project's job system, in
 * the app's own Postgres, like the extraction queue) and the worker process (`npm run worker`, started by `npm
 * start`) sends it again with backoff. Every send of one message carries the same Message-ID (derived from its id),
 * so a server that stored an earlier try but lost its answer receives a copy it recognises.
 */
import type PgBoss from "pg-boss";
import pg from "pg";
import { config } from "@/lib/config";
import { logger } from "@/lib/logger";
import type { ContactStatus } from "@/lib/schema/requests/content";
import { openBoss } from "../extraction-jobs/queue";
import type { ContactMessage } from "./contact";
import type { PgRow } from "@/lib/supabase/pg-rows";

export const CONTACT_NOTIFY_QUEUE = "contact-notify";
export interface ContactNotifyMessage {
  message_id: string;
}

/** Up to 10 more tries over about 17 hours (pg-boss doubles the delay from 60 s: 1, 2, 4, … 512 min). */
export const CONTACT_NOTIFY_SEND_OPTIONS: PgBoss.SendOptions = { retryLimit: 10, retryDelay: 60, retryBackoff: true, expireInSeconds: 300 };

let sender: Promise<PgBoss> | null = null;

/** Queue a retry of one message's notification. */
export async function enqueueContactNotification(messageId: string, databaseUrl = config().DATABASE_URL): Promise<void> {
  if (!databaseUrl) throw new Error("DATABASE_URL is not set: the contact notification queue lives in the database.");
  sender ??= openBoss(databaseUrl, { queue: CONTACT_NOTIFY_QUEUE }).catch((e: unknown) => {
    sender = null;
    throw e;
  });
  const boss = await sender;
  await boss.send(CONTACT_NOTIFY_QUEUE, { message_id: messageId } satisfies ContactNotifyMessage, CONTACT_NOTIFY_SEND_OPTIONS);
}

/** Close the sending side's connections (tools and tests that queued something end with it). */
export async function closeContactNotifyQueue(): Promise<void> {
  const boss = await sender?.catch(() => null);
  sender = null;
  await boss?.stop({ graceful: false, wait: true });
}

export interface ContactNotifyWorker {
  stop(): Promise<void>;
}

/**
 * Work the queue: load the stored message (the database owner's pool: the worker has no user) and send its
 * notification; a throw hands the job back to pg-boss for its next try. A message deleted meanwhile is dropped.
 */
export async function startContactNotifyWorker(opts: {
  databaseUrl: string;
  notify: (m: ContactMessage) => Promise<void>;
  pollingIntervalSeconds?: number;
  log?: (line: string) => void;
}): Promise<ContactNotifyWorker> {
  const log = opts.log ?? ((l: string) => logger.info(l));
  const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 1 });
  const boss = await openBoss(opts.databaseUrl, { queue: CONTACT_NOTIFY_QUEUE });
  await boss.work<ContactNotifyMessage>(CONTACT_NOTIFY_QUEUE, { batchSize: 1, pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 5 }, async ([job]) => {
    if (!job) return;
    const { rows } = await pool.query<PgRow<"contact_messages", "id" | "name" | "email" | "subject" | "message" | "status" | "created_at" | "updated_at", "created_at" | "updated_at">>(
      `select id, name, email, subject, message, status, created_at, updated_at from public.contact_messages where id = $1`,
      [job.data.message_id],
    );
    const m = rows[0];
    if (!m) return;
    try {
      await opts.notify({ ...m, status: m.status as ContactStatus, created_at: m.created_at.toISOString(), updated_at: m.updated_at.toISOString() });
      log(`contact notification ${m.id} sent on retry`);
    } catch (e) {
      log(`contact notification ${m.id} failed again: ${e instanceof Error ? e.message : String(e)}`);
      throw e;
    }
  });
  return {
    async stop() {
      await boss.stop({ graceful: true, wait: true });
      await pool.end();
    },
  };
}
