import nodemailer, { type Transporter } from "nodemailer";

/**
 * The Auth server's own mail (GoTrue's mailer): sign-up confirmation (when AUTH_AUTOCONFIRM is off) and the
 * confirmation of a new address. The SMTP server is set once it runs (the launcher starts the mail catcher after
 * the gateway); without one, a mail that must go out fails the request with 500, as GoTrue does when it cannot send.
 */
export interface AuthMail {
  to: string;
  subject: string;
  text: string;
}

export interface AuthMailer {
  smtpUrl: string | null;
  send(mail: AuthMail): Promise<void>;
  close(): void;
}

export function createAuthMailer(from: string, smtpUrl: string | null = null): AuthMailer {
  let transport: Transporter | null = null;
  let transportUrl: string | null = null;
  const mailer: AuthMailer = {
    smtpUrl,
    async send(mail) {
      if (!mailer.smtpUrl) throw new Error("no SMTP server is configured for the Auth server's mail");
      if (!transport || transportUrl !== mailer.smtpUrl) {
        transport?.close();
        transport = nodemailer.createTransport({ url: mailer.smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 10_000 } as Parameters<typeof nodemailer.createTransport>[0]);
        transportUrl = mailer.smtpUrl;
      }
      await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text });
    },
    close() {
      transport?.close();
      transport = null;
    },
  };
  return mailer;
}
