import http from "node:http";
import next from "next";
import { flushSearchRecordsAtShutdown } from "../lib/backend/search-analytics";
import { stampClientAddress } from "../lib/api/client-address";

/**
 * Serve the Next app from our own HTTP server instead of `next start`, so every request gets its client address
 * stamped from the socket before Next sees it (D-22; see client-address.ts for why `next start` alone is spoofable).
 * The launcher and the test stack start the app through this.
 */
export interface AppServerOptions {
  dir: string;
  dev: boolean;
  port: number;
  hostname?: string;
  /** Believe X-Forwarded-For from a proxy in front (TRUSTED_PROXY, D-22). */
  trustedProxy: boolean;
}

export interface AppServer {
  url: string;
  /**
   * Stop accepting connections, write the rows queued in process (search analytics, issue 12 L8) while the requests
   * in flight finish, then close Next. The launcher and the tests stop the app with SIGTERM, which ends here.
   */
  close(): Promise<void>;
}

export async function startAppServer(opts: AppServerOptions): Promise<AppServer> {
  const hostname = opts.hostname ?? "127.0.0.1";
  const app = next({ dev: opts.dev, dir: opts.dir, hostname, port: opts.port });
  await app.prepare();
  const handle = app.getRequestHandler();
  const upgrade = app.getUpgradeHandler();
  const server = http.createServer((req, res) => {
    stampClientAddress(req, opts.trustedProxy);
    void handle(req, res);
  });
  server.on("upgrade", (req, socket, head) => {
    stampClientAddress(req, opts.trustedProxy);
    void upgrade(req, socket, head);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, hostname, () => resolve());
  });
  return {
    url: `http://${hostname}:${opts.port}`,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await flushSearchRecordsAtShutdown();
      await closed;
      // Requests that were still running when the close began may have queued more.
      await flushSearchRecordsAtShutdown();
      await app.close();
    },
  };
}
