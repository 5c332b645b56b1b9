import http from "node:http";
import path from "node:path";
import next from "next";
import { flushSearchRecordsAtShutdown } from "../../lib/backend/search-analytics";
import { stampClientAddress } from "../../lib/api/client-address";
import { config } from "../../lib/config";
import { logger } from "../../lib/logger";
import { refuseUndecodablePath } from "./path-check";
import { staticAssets } from "./static-assets";

/**
 * Serve the Next app from our own HTTP server instead of `next start`, so every request gets its client address
 * stamped from the socket before Next sees it (D-22; see client-address.ts for why `next start` alone is spoofable).
 * Every request then goes to Next's own handler: route handlers are the one web tier. The only other answers are the
 * build's static files from memory when no proxy serves them (STATIC_ASSETS, P-75).
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
   * Stop accepting connections, write the rows queued in process (search analytics) while the requests in flight
   * finish, then close Next. The launcher and the tests stop the app with SIGTERM, which ends here.
   */
  close(): Promise<void>;
}

export async function startAppServer(opts: AppServerOptions): Promise<AppServer> {
  const hostname = opts.hostname ?? "127.0.0.1";
  const app = next({ dev: opts.dev, dir: opts.dir, hostname, port: opts.port });
  await app.prepare();
  const handle = app.getRequestHandler();
  const upgrade = app.getUpgradeHandler();
  const production = process.env.NODE_ENV === "production";
  // After prepare(): Next has loaded the .env files that config() reads.
  const assets =
    opts.dev || config().STATIC_ASSETS !== "memory" ? null : staticAssets(path.resolve(opts.dir, process.env.NEXT_DIST_DIR ?? ".next"), production);
  const server = http.createServer((req, res) => {
    stampClientAddress(req, opts.trustedProxy);
    // A path that does not decode would be Next's plain-text 500 (server/app/path-check.ts): refused here as a 400.
    if (refuseUndecodablePath(req, res)) return;
    if (assets && req.url?.startsWith("/_next/static/")) {
      assets
        .serve(req, res)
        .then((done) => (done ? undefined : handle(req, res)))
        .catch((e: unknown) => {
          // Writing the answer failed (the client went away mid-write, say): never an unhandled rejection.
          logger.error({ err: e instanceof Error ? e.message : String(e) }, "static asset answer failed");
          res.destroy();
        });
      return;
    }
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
