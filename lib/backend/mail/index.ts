/**
 * Outgoing mail: one nodemailer SMTP transport over SMTP_URL, with MAIL_FROM as the sender and a
 * time-out on every phase of every connection (connect, greeting, socket inactivity). Other modules send through
 * `sendMail` (the digest job, the contact form's notification to CONTACT_NOTIFY_EMAIL).
 *
 * SMTP_URL examples: the local stack's catcher `smtp://127.0.0.1:2525`; a provider on submission with STARTTLS
 * `smtp://user:pass@smtp.example.com:587`; implicit TLS `smtps://user:pass@smtp.example.com:465` (docs/accounts.md).
 */
import nodemailer, { type Transporter } from "nodemailer";
import { config } from "@/lib/config";
import { ApiError } from "@/lib/errors";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Extra headers (e.g. List-Unsubscribe). */
  headers?: Record<string, string>;
  /**
   * A stable Message-ID (`<local@domain>`, see `stableMessageId`): the same message sent again carries the same id,
   * so a receiver that holds it already drops the copy. Without one nodemailer makes a fresh id per send.
   */
  messageId?: string;
}

/** `<kind.id@domain>` with the domain of MAIL_FROM (a Message-ID names the sender's domain, RFC 5322 3.6.4). */
export function stableMessageId(kind: string, id: string, from = config().MAIL_FROM): string {
  const domain = /@([A-Za-z0-9.-]+)/.exec(from)?.[1] ?? "localhost";
  return `<${kind}.${id}@${domain}>`;
}

export interface SentMail {
  messageId: string;
  accepted: string[];
  rejected: string[];
}

/** Something that sends one message; the digest job takes one so a bench or a test can count or fail sends. */
export type MailSender = (message: MailMessage) => Promise<SentMail>;

/**
 * Pooled transports by SMTP URL. One per URL, never replaced while in use: closing the previous transport whenever
 * another URL was asked for cut that transport's sends in flight (a digest whose users went to two servers at once
 * failed their first try). A server uses one URL; a few are kept for tests and tools that send to several.
 */
const transports = new Map<string, Transporter>();
const MAX_TRANSPORTS = 4;

/** The transport for an SMTP URL (pooled: a digest run sends many messages over few connections). */
export function mailTransport(url: string): Transporter {
  const hit = transports.get(url);
  if (hit) return hit;
  const timeout = config().SMTP_TIMEOUT_MS;
  const transport = nodemailer.createTransport({
    url,
    pool: true,
    maxConnections: 2,
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
  } as Parameters<typeof nodemailer.createTransport>[0]);
  if (transports.size >= MAX_TRANSPORTS) {
    // The oldest one goes (insertion order); only a process sending to more than MAX_TRANSPORTS servers gets here.
    const [oldUrl, old] = transports.entries().next().value as [string, Transporter];
    transports.delete(oldUrl);
    old.close();
  }
  transports.set(url, transport);
  return transport;
}

/** Whether an SMTP server is configured (the local stack always sets one). */
export function mailConfigured(): boolean {
  return !!config().SMTP_URL;
}

/** Send one message through SMTP_URL; 503 MAIL_NOT_CONFIGURED without one. SMTP failures are thrown as they come. */
export async function sendMail(message: MailMessage, smtpUrl = config().SMTP_URL): Promise<SentMail> {
  if (!smtpUrl) throw new ApiError("MAIL_NOT_CONFIGURED");
  const info = await mailTransport(smtpUrl).sendMail({
    from: config().MAIL_FROM,
    to: message.to,
    subject: message.subject,
    text: message.text,
    html: message.html,
    headers: message.headers,
    messageId: message.messageId,
  });
  const addr = (a: unknown) => (typeof a === "string" ? a : typeof a === "object" && a && "address" in a ? String(a.address) : String(a));
  return { messageId: info.messageId, accepted: (info.accepted ?? []).map(addr), rejected: (info.rejected ?? []).map(addr) };
}

/** Close the pooled connections (CLI runs and tests end with it). */
export function closeMail(): void {
  for (const t of transports.values()) t.close();
  transports.clear();
}
