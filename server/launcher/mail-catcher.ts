/**
 * The local stack's SMTP server: a real SMTP endpoint on 127.0.0.1 (the `smtp-server` package) that
 * stores every message it receives in public.mail_messages, where admins read it at /admin/mail. It is what SMTP_URL
 * points to on the local stack and in the test stack, so a newcomer sees the digests without any mail account.
 * It accepts any sender and recipient without authentication, and listens on the loopback address only.
 */
import { simpleParser, type AddressObject } from "mailparser";
import pg from "pg";
import { SMTPServer } from "smtp-server";

export interface MailCatcher {
  /** smtp://127.0.0.1:<port> */
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Largest message kept (a digest is a few tens of kB); bigger ones are refused with 552. */
const MAX_MESSAGE_BYTES = 5 * 1024 * 1024;

function addresses(a: AddressObject | AddressObject[] | undefined): string[] {
  const list = Array.isArray(a) ? a : a ? [a] : [];
  return list.flatMap((o) => o.value.map((v) => v.address ?? "").filter(Boolean));
}

export async function startMailCatcher(opts: { databaseUrl: string; port?: number; log?: (line: string) => void }): Promise<MailCatcher> {
  const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 2 });
  const log = opts.log ?? (() => undefined);
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["AUTH", "STARTTLS"],
    size: MAX_MESSAGE_BYTES,
    logger: false,
    banner: "judgment-search local mail catcher",
    socketTimeout: 30_000,
    closeTimeout: 5_000,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then(async (mail) => {
          if ((stream as unknown as { sizeExceeded?: boolean }).sizeExceeded) {
            callback(Object.assign(new Error("Message too large"), { responseCode: 552 }));
            return;
          }
          const rcpt = session.envelope.rcptTo.map((r) => r.address);
          const html = typeof mail.html === "string" ? mail.html : null;
          await pool.query(
            // A message it already holds (same Message-ID, sent again after a lost answer) is kept once.
            `insert into public.mail_messages (mail_from, rcpt_to, subject, text_body, html_body, size_bytes, message_id)
             values ($1, $2, $3, $4, $5, $6, $7)
             on conflict (message_id) where message_id is not null do nothing`,
            [
              session.envelope.mailFrom ? session.envelope.mailFrom.address : (addresses(mail.from)[0] ?? null),
              rcpt.length ? rcpt : addresses(mail.to),
              mail.subject ?? null,
              mail.text ?? null,
              html,
              (mail.text?.length ?? 0) + (html?.length ?? 0),
              mail.messageId ?? null,
            ],
          );
          callback();
        })
        .catch((e: unknown) => {
          log(`mail catcher: message not stored: ${e instanceof Error ? e.message : String(e)}`);
          callback(Object.assign(new Error("Temporary failure storing the message"), { responseCode: 451 }));
        });
    },
  });
  server.on("error", (e) => log(`mail catcher: ${e.message}`));
  const port = await new Promise<number>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, "127.0.0.1", () => {
      const addr = server.server.address();
      resolve(typeof addr === "object" && addr ? addr.port : (opts.port ?? 0));
    });
  });
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    close: async () => {
      await new Promise<void>((r) => server.close(() => r()));
      await pool.end();
    },
  };
}
