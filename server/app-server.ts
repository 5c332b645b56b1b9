import http from "node:http";
import path from "node:path";
import next from "next";
import { flushSearchRecordsAtShutdown } from "../lib/backend/search-analytics";
import { stampClientAddress } from "../lib/api/client-address";
import { config } from "../lib/config";
import { logger } from "../lib/logger";
import { refuseUndecodablePath } from "./path-check";
import { staticAssets } from "./static-assets";

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

/**
 * Next flushes an answer's headers on their own just before it writes the first body chunk (`res.flushHeaders()` then
 * `res.write(chunk)` in next/dist/server/pipe-readable.js), so every answer left in two socket writes, and on this VM
 * each write costs ~0.2 ms of CPU (issue 20 item 3; a CPU profile of keyword searches put the header write at half of
 * all socket-write time). Here the headers wait for the end of the current tick: the chunk written right after them
 * carries them (Node prepends a pending header to the first write), and a flush not followed by a write in that tick
 * still sends them then.
 */
class AppResponse extends http.ServerResponse {
  override flushHeaders(): void {
    if (this.headersSentYet()) return;
    process.nextTick(() => {
      if (!this.headersSentYet() && !this.destroyed) super.flushHeaders();
    });
  }

  /** Whether the header block has gone to the socket (Node's own flag; `headersSent` is true once it is only built). */
  private headersSentYet(): boolean {
    return (this as unknown as { _headerSent: boolean })._headerSent;
  }
}

export async function startAppServer(opts: AppServerOptions): Promise<AppServer> {
  const hostname = opts.hostname ?? "127.0.0.1";
  const app = next({ dev: opts.dev, dir: opts.dir, hostname, port: opts.port });
  await app.prepare();
  const handle = app.getRequestHandler();
  // Both after prepare(): Next has loaded the .env files, and set up the request storage that next/server needs.
  const directRoutes = !opts.dev && config().DIRECT_ROUTES;
  const { directAnswerHeaders, directHandlerFor, serveDirect } = await import("./direct-route");
  const production = process.env.NODE_ENV === "production";
  const answerHeaders = directAnswerHeaders(production);
  const upgrade = app.getUpgradeHandler();
  // The build's hashed scripts and stylesheets, compressed once instead of per request (server/static-assets.ts, P-75).
  const assets = opts.dev ? null : staticAssets(path.resolve(opts.dir, process.env.NEXT_DIST_DIR ?? ".next"), production);
  /** The answer of one of our own servers, or Next's when it declines (having written nothing). */
  const orNext = (served: Promise<boolean>, req: http.IncomingMessage, res: http.ServerResponse, what: string) => {
    served
      .then((done) => (done ? undefined : handle(req, res)))
      .catch((e: unknown) => {
        // Writing the answer failed (the client went away mid-write, say): never an unhandled rejection.
        logger.error({ err: e instanceof Error ? e.message : String(e) }, `${what} answer failed`);
        res.destroy();
      });
  };
  const server = http.createServer({ ServerResponse: AppResponse }, (req, res) => {
    stampClientAddress(req, opts.trustedProxy);
    // A path that does not decode would be Next's plain-text 500 (server/path-check.ts): refused here as a 400.
    if (refuseUndecodablePath(req, res)) return;
    // The hottest JSON reads skip Next's router once their module is loaded (lib/api/direct-routes.ts, P-70).
    const direct = directRoutes ? directHandlerFor(req) : undefined;
    if (direct) return orNext(serveDirect(direct, req, res, answerHeaders), req, res, "direct route");
    if (assets && req.url?.startsWith("/_next/static/")) return orNext(assets.serve(req, res), req, res, "static asset");
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
