/**
 * An SMTP server that fails at the worst moment (a mail fault test's other end): it takes each message whole after
 * DATA, keeps it (as a real server would have stored it), then drops the connection before the final 250. The
 * client cannot tell whether its mail arrived. Built on `smtp-server`, the package the local mail catcher uses.
 */
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface StoredFaultMail {
  messageId: string | null;
  to: string[];
  subject: string | null;
}

export interface SmtpFaultServer {
  url: string;
  /** Every message received in full (and never acknowledged). */
  stored: StoredFaultMail[];
  close(): Promise<void>;
}

export async function startSmtpFaultServer(): Promise<SmtpFaultServer> {
  const stored: StoredFaultMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["AUTH", "STARTTLS"],
    logger: false,
    onData(stream, session, _callback) {
      simpleParser(stream)
        .then((mail) => {
          stored.push({ messageId: mail.messageId ?? null, to: session.envelope.rcptTo.map((r) => r.address), subject: mail.subject ?? null });
          // The message is stored; the answer is never written: the connection goes instead.
          for (const c of connections) c.destroy();
        })
        .catch(() => undefined);
    },
  });
  const connections = new Set<import("node:net").Socket>();
  server.server.on("connection", (socket: import("node:net").Socket) => {
    connections.add(socket);
    socket.on("close", () => connections.delete(socket));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const addr = server.server.address();
  const port = typeof addr === "object" && addr ? addr.port : 0;
  return {
    url: `smtp://127.0.0.1:${port}`,
    stored,
    close: async () => {
      for (const c of connections) c.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
