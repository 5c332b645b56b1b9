/**
 * For benches that call backend functions directly against a seeded database: the local gateway over it with fresh
 * keys, and a confirmed user signed in through it (RLS applies as for a real caller). `close` deletes the user and
 * stops the gateway.
 */
import { randomUUID } from "node:crypto";
import { createClient } from "@supabase/supabase-js";
import type { DbClient } from "../../lib/supabase/db-client";
import { realtimeOptions, serverAuthOptions } from "../../lib/supabase/options";
import { generateLocalKeys } from "../../supabase/local/keys";
import { startGateway } from "../../supabase/local/gateway";

export interface GatewayUser {
  url: string;
  userId: string;
  /** A client signed in as the user. */
  db: DbClient;
  /** The service-role client (what the app's routes get as serviceDb). */
  service: DbClient;
  close(): Promise<void>;
}

/**
 * `poolConnectionTimeoutMs`: how long a call waits for a database connection before the gateway answers 503 (its
 * default 5 s is PostgREST's; on the shared machine at load ~30 the XLSX export's page reads were refused by it).
 */
export async function gatewayWithUser(databaseUrl: string, gatewayPort: number, opts: { poolConnectionTimeoutMs?: number } = {}): Promise<GatewayUser> {
  const email = `bench-${randomUUID().slice(0, 8)}@example.org`;
  const password = "bench-password-1234";
  const keys = await generateLocalKeys(`http://127.0.0.1:${gatewayPort}`);
  const gw = await startGateway({
    port: gatewayPort,
    databaseUrl,
    privateJwk: keys.privateJwk,
    anonKey: keys.anonKey,
    serviceRoleKey: keys.serviceRoleKey,
    upstashToken: keys.upstashToken,
    redisUrl: "redis://127.0.0.1:1",
    ...(opts.poolConnectionTimeoutMs !== undefined ? { poolConnectionTimeoutMs: opts.poolConnectionTimeoutMs } : {}),
  });
  const admin = createClient(gw.url, keys.serviceRoleKey, { auth: serverAuthOptions, realtime: realtimeOptions });
  const created = await admin.auth.admin.createUser({ email, password, email_confirm: true });
  if (created.error || !created.data.user) throw new Error(`createUser: ${created.error?.message}`);
  const userId = created.data.user.id;
  const db: DbClient = createClient(gw.url, keys.anonKey, { auth: serverAuthOptions, realtime: realtimeOptions });
  const signIn = await db.auth.signInWithPassword({ email, password });
  if (signIn.error) throw signIn.error;
  return {
    url: gw.url,
    userId,
    db,
    service: admin,
    close: async () => {
      await admin.auth.admin.deleteUser(userId).catch(() => undefined);
      await gw.close();
    },
  };
}
