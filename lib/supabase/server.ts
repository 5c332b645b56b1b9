import { createServerClient } from "@supabase/ssr";
import { createClient } from "@supabase/supabase-js";
import { cookies } from "next/headers";
import { ApiError } from "@/lib/errors";
import type { Database } from "./database.types";
import type { DbClient } from "./db-client";
import { supabaseEnv } from "./env";
import { boundCookieOptions, globalOptions, realtimeOptions, serverAuthOptions, sessionCookieOptions } from "./options";

/**
 * A maker of the Supabase client bound to this request's session cookies (one per request, as @supabase/ssr
 * requires): the cookie store is read now, the client built when the maker is called, so a caller verified from the
 * token alone never pays for it. Cookie writes fail silently in server components, where the middleware refreshes
 * the session instead.
 */
export async function sessionClientFactory(): Promise<() => DbClient> {
  const { url, anonKey } = supabaseEnv();
  const store = await cookies();
  return () =>
    createServerClient<Database>(url, anonKey, {
      realtime: realtimeOptions,
      global: globalOptions(),
      cookieOptions: sessionCookieOptions(),
      cookies: {
        getAll: () => store.getAll(),
        setAll: (toSet) => {
          try {
            for (const { name, value, options } of toSet) store.set(name, value, boundCookieOptions(options));
          } catch {
            // Called from a server component: cookies are read-only there.
          }
        },
      },
    });
}

/** A client that acts as the holder of `accessToken` (bearer callers) or as anon when it is absent. */
export function createTokenClient(accessToken?: string): DbClient {
  const { url, anonKey } = supabaseEnv();
  return createClient<Database>(url, anonKey, {
    auth: serverAuthOptions,
    realtime: realtimeOptions,
    global: globalOptions(accessToken ? { Authorization: `Bearer ${accessToken}` } : undefined),
  });
}

let anonReader: DbClient | null = null;

/**
 * One anonymous client for the process, for reads by a caller with neither a bearer nor a session cookie
 * (lib/api/identity.ts): such a client holds nothing of its caller, so building a session client per request (a
 * GoTrueClient reading an empty cookie store, ~0.4 ms of CPU on a public read) bought nothing. Never used for auth
 * calls: a sign-in on a shared client would sign every later caller in (sign-in and sign-up are POSTs and keep the
 * per-request session client).
 */
export function anonReaderClient(): DbClient {
  anonReader ??= createTokenClient();
  return anonReader;
}

let serviceClient: DbClient | null = null;

/** The service-role client: bypasses RLS, so callers guard ownership themselves (spec: Database function interface, rule 6). */
export function createServiceClient(): DbClient {
  const { url, serviceRoleKey } = supabaseEnv();
  if (!serviceRoleKey) throw new ApiError("DATABASE_UNAVAILABLE", "The service role key is not configured.");
  serviceClient ??= createClient<Database>(url, serviceRoleKey, { auth: serverAuthOptions, realtime: realtimeOptions, global: globalOptions() });
  return serviceClient;
}
