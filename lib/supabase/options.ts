import WebSocket from "ws";
import { config, type Config } from "@/lib/config";
import { timedFetch } from "./timeout";

/**
 * Options every server-side Supabase client needs. supabase-js builds a Realtime client eagerly and refuses to on
 * Node < 22 without a WebSocket implementation, even though we never subscribe; `ws` is that implementation.
 */
export const realtimeOptions = { transport: WebSocket as unknown as typeof globalThis.WebSocket };

export const serverAuthOptions = { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false } as const;

/**
 * `global` options of every Supabase client: a fetch with the UPSTREAM_TIMEOUT_MS deadline (D-31, M4). supabase-js
 * hands the same fetch to its auth client, so auth calls (getUser, refresh, JWKS) are bounded too.
 */
export function globalOptions(headers?: Record<string, string>): { fetch: typeof fetch; headers?: Record<string, string> } {
  return headers ? { fetch: timedFetch(), headers } : { fetch: timedFetch() };
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** Whether the session cookies carry `Secure` (see COOKIE_SECURE in lib/config.ts). */
export function cookieSecure(c: Pick<Config, "COOKIE_SECURE" | "NODE_ENV" | "APP_URL"> = config()): boolean {
  if (c.COOKIE_SECURE !== undefined) return c.COOKIE_SECURE === "1" || c.COOKIE_SECURE === "true";
  if (c.NODE_ENV !== "production") return false;
  if (!c.APP_URL) return true;
  const url = new URL(c.APP_URL);
  return !(url.protocol === "http:" && (LOOPBACK.has(url.hostname) || url.hostname.startsWith("127.")));
}

export interface SessionCookieOptions {
  path: string;
  httpOnly: true;
  secure: boolean;
  sameSite: "lax";
  maxAge: number;
}

/**
 * Attributes of the Supabase session cookies (M2): HttpOnly (the browser never needs the session: no client code
 * reads it), Secure (cookieSecure), SameSite=Lax, and at most SESSION_MAX_AGE_SECONDS instead of @supabase/ssr's 400
 * days. Passed as `cookieOptions` to every createServerClient.
 */
export function sessionCookieOptions(): SessionCookieOptions {
  const c = config();
  return { path: "/", httpOnly: true, secure: cookieSecure(c), sameSite: "lax", maxAge: c.SESSION_MAX_AGE_SECONDS };
}

/**
 * The options one cookie is written with: @supabase/ssr merges `cookieOptions` but then forces its own 400-day
 * `maxAge`, so the bound is applied here, in every setAll. A deletion (maxAge 0) stays a deletion.
 */
export function boundCookieOptions<T extends { maxAge?: number }>(options: T | undefined): T & SessionCookieOptions {
  const base = sessionCookieOptions();
  const maxAge = options?.maxAge === undefined ? base.maxAge : Math.min(options.maxAge, base.maxAge);
  return { ...(options as T), ...base, maxAge };
}
