import { randomUUID } from "node:crypto";
import { createClient, type SupabaseClient, type SupabaseClientOptions } from "@supabase/supabase-js";
import { stackEnv } from "./stack";

type Transport = NonNullable<NonNullable<SupabaseClientOptions<"public">["realtime"]>["transport"]>;

/**
 * supabase-js builds a Realtime client eagerly and Node 20 has no WebSocket. Tests never use Realtime, so instead of
 * a real implementation they get one that fails loudly if a socket is ever opened.
 */
class NoRealtime {
  constructor() {
    throw new Error("no realtime in tests");
  }
}

/** Pass as `realtime` in a test's createClient options. */
export const noRealtime = { transport: NoRealtime as unknown as Transport };

/** The real supabase-js client against the test gateway, with `key` as apikey (and bearer unless headers say otherwise). */
export function supabaseAs(key: string, headers: Record<string, string> = {}): SupabaseClient {
  return createClient(stackEnv().supabaseUrl as string, key, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: noRealtime,
    global: { headers },
  });
}

export const serviceClient = () => supabaseAs(stackEnv().serviceRoleKey as string);
export const anonClient = () => supabaseAs(stackEnv().anonKey as string);

/** A fresh, unique e-mail address for a test user. */
export function uniqueEmail(prefix = "user"): string {
  return `${prefix}-${randomUUID().slice(0, 8)}@example.org`;
}

export const TEST_PASSWORD = "correct-horse-battery-staple";

/** Create a confirmed user through the admin API (service role), optionally an admin. */
export async function createUser(opts: { email?: string; password?: string; admin?: boolean } = {}) {
  const email = opts.email ?? uniqueEmail(opts.admin ? "admin" : "user");
  const password = opts.password ?? TEST_PASSWORD;
  const { data, error } = await serviceClient().auth.admin.createUser({
    email,
    password,
    email_confirm: true,
    app_metadata: opts.admin ? { role: "admin" } : {},
  });
  if (error || !data.user) throw new Error(`createUser failed: ${error?.message}`);
  return { id: data.user.id, email, password };
}

/** A new confirmed user signed in through the gateway, with their access token. */
export async function userWithToken(prefix = "user"): Promise<{ id: string; email: string; password: string; token: string }> {
  const user = await createUser({ email: uniqueEmail(prefix) });
  const { data, error } = await anonClient().auth.signInWithPassword({ email: user.email, password: user.password });
  if (error || !data.session) throw new Error(`sign-in failed: ${error?.message}`);
  return { ...user, token: data.session.access_token };
}
