import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { JWK } from "jose";
import pg from "pg";
import { issuerFor } from "../keys";
import { handleAuth } from "./auth/router";
import type { GatewayContext } from "./context";
import { applyCors, sendJson } from "./http";
import { handleRest } from "./rest/router";
import { TokenService } from "./tokens";
import { UpstashBridge } from "../../../lib/backend/upstash-bridge";
import { handleUpstash } from "./upstash/router";
import { config } from "../../../lib/config";
import { createSignupLimiter, type SignupLimit } from "./auth/limits";
import { createAuthMailer } from "./auth/mailer";

export interface GatewayOptions {
  /** 0 picks a free port (the returned url says which). */
  port: number;
  /** Interface to listen on (default 127.0.0.1). */
  host?: string;
  databaseUrl: string;
  /** ES256 private key with kid (supabase/local/keys.ts); signs access tokens, verifies every JWT. */
  privateJwk: JWK;
  anonKey: string;
  serviceRoleKey: string;
  /** Bearer token the /upstash bridge demands. */
  upstashToken: string;
  /** Redis behind /upstash; when absent or not answering at start, `upstash` is null and /upstash answers 503. */
  redisUrl?: string;
  /** URL clients use to reach the gateway (default http://host:port); the token issuer is `<publicUrl>/auth/v1`. */
  publicUrl?: string;
  log?: (line: string) => void;
  /** Access-token lifetime (default 3600 s, GoTrue's JWT_EXP default). */
  jwtExpirySeconds?: number;
  /** How long a rotated refresh token may be presented again (default 10 s, GoTrue's reuse interval). */
  refreshTokenReuseIntervalSeconds?: number;
  /** statement_timeout of RPC and auth queries (default 30 000 ms). */
  statementTimeoutMs?: number;
  /** Schemas /rest/v1/rpc may call into (default ["public"]; the first is used without a profile header). */
  exposedSchemas?: string[];
  /** Size of the database pool (default 10). */
  poolSize?: number;
  /**
   * How long a call waits for a pool connection (a new one, or a busy pool's next free one) before it is refused with
   * 503 PGRST000 / PGRST003, as PostgREST does (default 5000 ms; 0 waits forever, node-postgres' default).
   */
  poolConnectionTimeoutMs?: number;
  /** A session's maximum lifetime from sign-in (GoTrue's sessions timebox; default 7 days; 0 = none). */
  sessionTimeboxSeconds?: number;
  /** A session not refreshed for this long is over (GoTrue's inactivity_timeout; default 24 h; 0 = none). */
  sessionInactivityTimeoutSeconds?: number;
  /** Confirm sign-ups at once (default AUTH_AUTOCONFIRM, on). */
  autoconfirm?: boolean;
  /** Sign-ups per client address (default AUTH_SIGNUP_RATE_LIMIT_PER_IP per AUTH_SIGNUP_RATE_LIMIT_WINDOW_SECONDS). */
  signupRateLimit?: SignupLimit;
  /** The SMTP server of the confirmation mails (also settable later: `setSmtpUrl`). */
  smtpUrl?: string;
  /** A token-only password change needs a sign-in this recent (default AUTH_PASSWORD_CHANGE_RECENT_SIGNIN_SECONDS). */
  passwordChangeRecentSignInSeconds?: number;
}

export interface GatewayHandle {
  url: string;
  upstash: { url: string; token: string } | null;
  /** Where the Auth server's confirmation mails go (the launcher starts the mail catcher after the gateway). */
  setSmtpUrl(url: string): void;
  close(): Promise<void>;
}

/** Refuse to start with project keys that our own key did not sign (a stale .env.local would fail every call). */
async function checkApiKey(tokens: TokenService, key: string, role: "anon" | "service_role"): Promise<void> {
  const v = await tokens.verify(key);
  if (!v.ok || v.claims.role !== role) {
    throw new Error(`the ${role} key does not verify against the gateway's signing key (regenerate the local keys)`);
  }
}

/**
 * Start the local Supabase-compatible gateway: GoTrue-style /auth/v1, PostgREST-style /rest/v1/rpc and the Upstash
 * REST bridge at /upstash, so the unmodified supabase-js, @supabase/ssr, @upstash/redis and @upstash/ratelimit
 * clients work against the embedded Postgres and a local Redis. See docs/local-stack.md.
 */
export async function startGateway(o: GatewayOptions): Promise<GatewayHandle> {
  const log = o.log ?? (() => undefined);
  const host = o.host ?? "127.0.0.1";
  const tokens = await TokenService.create(o.privateJwk);
  await checkApiKey(tokens, o.anonKey, "anon");
  await checkApiKey(tokens, o.serviceRoleKey, "service_role");

  const pool = new pg.Pool({
    connectionString: o.databaseUrl,
    max: o.poolSize ?? 10,
    statement_timeout: o.statementTimeoutMs ?? 30_000,
    connectionTimeoutMillis: o.poolConnectionTimeoutMs ?? 5_000,
    idleTimeoutMillis: 30_000,
    application_name: "local-gateway",
    // Statements a caller sends without awaiting the one before go out at once and are answered in order: an RPC's
    // begin, settings, call and commit take one round trip (rest/rpc.ts). Code that awaits each statement runs as before.
    pipeline: true,
  });
  pool.on("error", (e) => log(`gateway pool: ${e.message}`));
  const bridge = o.redisUrl ? await UpstashBridge.connect(o.redisUrl, log) : null;
  if (o.redisUrl && !bridge) log(`no Redis answered at ${o.redisUrl}: /upstash answers 503, the app uses process memory`);

  const ctx: GatewayContext = {
    pool,
    tokens,
    issuer: "", // set once the port is known
    jwtExpirySeconds: o.jwtExpirySeconds ?? 3600,
    refreshTokenReuseIntervalSeconds: o.refreshTokenReuseIntervalSeconds ?? 10,
    sessionTimeboxSeconds: o.sessionTimeboxSeconds ?? 7 * 24 * 3600,
    sessionInactivityTimeoutSeconds: o.sessionInactivityTimeoutSeconds ?? 24 * 3600,
    exposedSchemas: o.exposedSchemas?.length ? o.exposedSchemas : ["public"],
    log,
    autoconfirm: o.autoconfirm ?? config().AUTH_AUTOCONFIRM,
    passwordChangeRecentSignInSeconds: o.passwordChangeRecentSignInSeconds ?? config().AUTH_PASSWORD_CHANGE_RECENT_SIGNIN_SECONDS,
    signupLimiter: createSignupLimiter(
      o.signupRateLimit ?? { limit: config().AUTH_SIGNUP_RATE_LIMIT_PER_IP, windowSeconds: config().AUTH_SIGNUP_RATE_LIMIT_WINDOW_SECONDS },
      bridge,
      log,
    ),
    mailer: createAuthMailer(config().MAIL_FROM, o.smtpUrl ?? null),
  };

  const server = createServer((req, res) => {
    dispatch(ctx, req, res, bridge, o.upstashToken).catch((e: unknown) => {
      log(`gateway: ${req.method} ${req.url?.split("?")[0]} failed: ${(e as Error).message}`);
      if (!res.headersSent) sendJson(res, 500, { message: "An unexpected error occurred" });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(o.port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const url = (o.publicUrl ?? `http://${host}:${port}`).replace(/\/$/, "");
  ctx.issuer = issuerFor(url);
  log(`gateway listening on ${url} (auth, rpc${bridge ? `, upstash → ${bridge.redisUrl}` : ""})`);

  return {
    url,
    upstash: bridge ? { url: `${url}/upstash`, token: o.upstashToken } : null,
    setSmtpUrl: (smtpUrl) => {
      ctx.mailer.smtpUrl = smtpUrl;
    },
    close: async () => {
      ctx.mailer.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await bridge?.close();
      await pool.end();
    },
  };
}

async function dispatch(
  ctx: GatewayContext,
  req: IncomingMessage,
  res: ServerResponse,
  bridge: UpstashBridge | null,
  upstashToken: string,
): Promise<void> {
  if (applyCors(req, res)) return;
  const url = new URL(req.url ?? "/", "http://gateway.local");
  const path = url.pathname;
  const under = (prefix: string) => path === prefix || path.startsWith(`${prefix}/`);
  if (under("/auth/v1")) return handleAuth(ctx, req, res, path.slice("/auth/v1".length) || "/", url);
  if (under("/rest/v1")) return handleRest(ctx, req, res, path.slice("/rest/v1".length) || "/", url);
  if (under("/upstash")) return handleUpstash(req, res, path.slice("/upstash".length), bridge, upstashToken, ctx.log);
  // What Supabase's API gateway answers for a path no service is mounted on.
  sendJson(res, 404, { message: "no Route matched with those values" });
}
