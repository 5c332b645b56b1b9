/**
 * /admin/mail: the messages the local SMTP server stored (server/launcher/mail-catcher.ts), newest first. Read with the
 * caller's client: RLS lets only admins see mail_messages.
 */
import { fromDatabaseError } from "@/lib/errors";
import type { DbClient } from "@/lib/supabase/db-client";

export interface MailMessageRow {
  id: number;
  received_at: string;
  mail_from: string | null;
  rcpt_to: string[];
  subject: string | null;
  text_body: string | null;
  html_body: string | null;
  size_bytes: number;
}

/** GET /api/admin/mail. */
export interface MailPage {
  messages: MailMessageRow[];
  total: number;
  limit: number;
  offset: number;
  has_more: boolean;
}

export async function listMail(db: DbClient, q: { limit: number; offset: number }): Promise<MailPage> {
  const { data, error } = await db.rpc("list_mail_messages", { p_limit: q.limit, p_offset: q.offset });
  if (error) throw fromDatabaseError(error);
  const messages = data.map(({ total_count: _t, ...m }) => ({ ...m, id: Number(m.id), rcpt_to: m.rcpt_to ?? [] }));
  const total = data.length ? Number(data[0].total_count) : 0;
  return { messages, total, limit: q.limit, offset: q.offset, has_more: q.offset + messages.length < total };
}
