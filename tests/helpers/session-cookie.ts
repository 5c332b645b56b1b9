import { combineChunks, createChunks, stringFromBase64URL, stringToBase64URL } from "@supabase/ssr";
import type { Browser } from "./http";

export interface CookieSession {
  access_token: string;
  refresh_token: string;
  expires_at: number;
}

/** The @supabase/ssr session cookie (`sb-<ref>-auth-token`, maybe chunked, "base64-" + base64url JSON). */
export async function readSession(b: Browser): Promise<{ key: string; session: CookieSession }> {
  const name = b.cookieNames().find((n) => /^sb-.+-auth-token(\.\d+)?$/.test(n));
  if (!name) throw new Error(`no session cookie among ${b.cookieNames().join(", ")}`);
  const key = name.replace(/\.\d+$/, "");
  const raw = await combineChunks(key, (n) => b.cookie(n));
  if (!raw) throw new Error("empty session cookie");
  return { key, session: JSON.parse(stringFromBase64URL(raw.replace(/^base64-/, ""))) as CookieSession };
}

/** Replace the browser's session cookie with `session` (chunked as @supabase/ssr writes it). */
export function writeSession(b: Browser, key: string, session: CookieSession): void {
  for (const n of b.cookieNames()) if (n === key || n.startsWith(`${key}.`)) b.setCookie(n, undefined);
  for (const c of createChunks(key, `base64-${stringToBase64URL(JSON.stringify(session))}`)) b.setCookie(c.name, c.value);
}
