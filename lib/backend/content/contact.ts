/**
 * The contact form and its triage in the admin panel, over supabase/migrations/
 * 20261125110100_publications_contact.sql. Visitors never touch contact_messages: the route stores a message through
 * the service role after its honeypot and hourly quota (withRoute `quota: "contact"`); admins read and mark them
 * with their own client (RLS: is_admin()).
 */
import type { DbClient } from "@/lib/supabase/db-client";
import { ApiError, fromDatabaseError } from "@/lib/errors";
import { config } from "@/lib/config";
import { logger } from "@/lib/logger";
import { isUuid } from "@/lib/schema/uuid";
import type { ContactStatus } from "@/lib/schema/requests/content";
import { recordAdminAction } from "../admin-audit";
import { mailConfigured, sendMail, stableMessageId } from "../mail";
import { enqueueContactNotification } from "./contact-notify";
import type { Identity } from "../identity";

export interface ContactMessage {
  id: string;
  name: string;
  email: string;
  subject: string | null;
  message: string;
  status: ContactStatus;
  created_at: string;
  updated_at: string;
}

/** POST /api/contact → 202: the same body whether the message was stored or caught by the honeypot. */
export interface ContactAccepted {
  status: "received";
}

/** GET /api/admin/contact-messages */
export interface ContactMessagePage {
  messages: ContactMessage[];
  total: number;
  page: number;
  per_page: number;
  pages: number;
}

export interface ContactSubmission {
  name: string;
  email: string;
  subject?: string;
  message: string;
  website?: string;
}

/**
 * The notification e-mail to CONTACT_NOTIFY_EMAIL (through the accounts area's mail path). Without
 * a notify address or an SMTP server it only logs that a message arrived (never its text or address): nothing here
 * pretends an e-mail was sent. Reply-To is not set from the visitor's input; the address is in the body. Every try
 * of one message's notification has the same Message-ID (a retry after a lost answer is recognised as a copy).
 */
export async function notifyContactMessage(m: ContactMessage): Promise<void> {
  const to = config().CONTACT_NOTIFY_EMAIL;
  if (!to || !mailConfigured()) {
    logger.info({ contact_message_id: m.id }, "contact message stored (no CONTACT_NOTIFY_EMAIL or SMTP_URL: no notification)");
    return;
  }
  await sendMail({
    to,
    subject: `[contact] ${m.subject ?? "(no subject)"}`.slice(0, 250),
    text: [`From: ${m.name} <${m.email}>`, `Received: ${m.created_at}`, `Message id: ${m.id}`, "", m.message].join("\n"),
    messageId: stableMessageId("contact", m.id),
  });
}

const ACCEPTED: ContactAccepted = { status: "received" };

/**
 * Store a message (service role) and notify. A filled honeypot (`website`) answers exactly as a stored message does and
 * stores nothing; a failing notifier is logged, queued for a retry, and does not lose the stored message.
 */
export async function submitContact(serviceDb: DbClient, s: ContactSubmission): Promise<ContactAccepted> {
  if (s.website && s.website.trim() !== "") return ACCEPTED;
  const { data, error } = await serviceDb.rpc("contact_submit", {
    p_name: s.name,
    p_email: s.email,
    p_subject: s.subject ?? (null as unknown as string),
    p_message: s.message,
  });
  if (error) throw fromDatabaseError(error);
  const row = data[0];
  if (row) {
    try {
      await notifyContactMessage(toMessage(row));
    } catch (e) {
      logger.error({ err: e instanceof Error ? e.message : String(e), contact_message_id: row.id }, "contact notification failed; queued for retry");
      // The worker sends it again with backoff (./contact-notify.ts); a queue that cannot be reached leaves the
      // message stored and readable in the admin panel, as before.
      await enqueueContactNotification(row.id).catch((q: unknown) =>
        logger.error({ err: q instanceof Error ? q.message : String(q), contact_message_id: row.id }, "contact notification not queued"),
      );
    }
  }
  return ACCEPTED;
}

const toMessage = (r: Omit<ContactMessage, "status"> & { status: string }): ContactMessage => ({
  ...r,
  subject: r.subject ?? null,
  status: r.status as ContactStatus,
});

export const contactMessageNotFound = () => new ApiError("CONTACT_MESSAGE_NOT_FOUND");

export function contactMessageId(raw: string | undefined): string {
  if (!raw || !isUuid(raw)) throw contactMessageNotFound();
  return raw.toLowerCase();
}

export async function listContactMessages(
  db: DbClient,
  q: { page: number; limit: number; status?: ContactStatus },
): Promise<ContactMessagePage> {
  const { data, error } = await db.rpc("contact_list", { p_status: q.status ?? null, p_limit: q.limit, p_offset: (q.page - 1) * q.limit });
  if (error) throw fromDatabaseError(error);
  const total = Number(data[0]?.total_count ?? 0);
  return {
    messages: data.map(({ total_count: _t, ...m }) => toMessage(m)),
    total,
    page: q.page,
    per_page: q.limit,
    pages: total === 0 ? 0 : Math.ceil(total / q.limit),
  };
}

export async function setContactStatus(
  db: DbClient,
  who: Identity,
  id: string,
  status: ContactStatus,
): Promise<{ id: string; status: ContactStatus; updated_at: string }> {
  const { data, error } = await db.rpc("contact_set_status", { p_id: id, p_status: status });
  if (error) throw fromDatabaseError(error);
  const r = data[0];
  if (!r) throw contactMessageNotFound();
  await recordAdminAction(db, who, {
    action: "contact_message.status",
    targetType: "contact_message",
    targetId: id,
    before: { status: r.before_status },
    after: { status: r.status },
  });
  return { id: r.id, status: r.status as ContactStatus, updated_at: r.updated_at };
}
