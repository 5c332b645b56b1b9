/**
 * The local gateway (supabase/local/gateway) as a process of its own, so the launcher can restart it when it dies
 * (server/supervise.ts) without taking anything else down. Settings from the environment the launcher passes:
 * GATEWAY_PORT, GATEWAY_HOST (optional, default 127.0.0.1), DATABASE_URL, SUPABASE_JWT_PRIVATE_JWK,
 * SUPABASE_ANON_KEY, SUPABASE_SERVICE_ROLE_KEY, UPSTASH_REDIS_REST_TOKEN, REDIS_URL (optional), GATEWAY_PUBLIC_URL (optional), GATEWAY_SMTP_URL (optional: where the
 * Auth server's confirmation mails go), AUTH_AUTOCONFIRM (read by lib/config). Once listening it tells the launcher
 * its URL and whether the Upstash bridge reached Redis; it stops with SIGTERM/SIGINT and when the launcher is gone.
 */
import { startGateway } from "../../supabase/local/gateway";
import { announceReady, exitWithLauncher } from "../supervise";

export interface GatewayReady {
  url: string;
  upstash: { url: string; token: string } | null;
}

function required(name: string): string {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set`);
  return v;
}

async function main() {
  const log = (l: string) => process.stdout.write(`[gateway] ${l}\n`);
  const gateway = await startGateway({
    port: Number(process.env.GATEWAY_PORT ?? 54321),
    // Loopback unless told otherwise: a container of its own (deploy/compose.yaml) listens on 0.0.0.0.
    host: process.env.GATEWAY_HOST || undefined,
    publicUrl: process.env.GATEWAY_PUBLIC_URL || undefined,
    databaseUrl: required("DATABASE_URL"),
    privateJwk: JSON.parse(required("SUPABASE_JWT_PRIVATE_JWK")),
    anonKey: required("SUPABASE_ANON_KEY"),
    serviceRoleKey: required("SUPABASE_SERVICE_ROLE_KEY"),
    upstashToken: required("UPSTASH_REDIS_REST_TOKEN"),
    redisUrl: process.env.REDIS_URL || undefined,
    smtpUrl: process.env.GATEWAY_SMTP_URL || undefined,
    log,
  });
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => process.exit(0), 5_000).unref();
    void gateway.close().finally(() => process.exit(0));
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
  exitWithLauncher(stop, log);
  announceReady<GatewayReady>({ url: gateway.url, upstash: gateway.upstash });
}

main().catch((e: unknown) => {
  process.stderr.write(`[gateway] failed: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
