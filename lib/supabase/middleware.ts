import { createServerClient } from "@supabase/ssr";
import { NextResponse, type NextRequest } from "next/server";
import type { Database } from "./database.types";
import { boundCookieOptions, globalOptions, realtimeOptions, sessionCookieOptions } from "./options";

/**
 * Refresh the session cookies on every request (the @supabase/ssr pattern) and report whether a valid session
 * exists. getClaims() verifies the JWT locally against the JWKS; an expired access token is refreshed first.
 */
export async function updateSession(request: NextRequest): Promise<{ response: NextResponse; signedIn: boolean }> {
  let response = NextResponse.next({ request });
  const url = process.env.SUPABASE_URL;
  const anonKey = process.env.SUPABASE_ANON_KEY;
  if (!url || !anonKey) return { response, signedIn: false };

  const supabase = createServerClient<Database>(url, anonKey, {
    realtime: realtimeOptions,
    global: globalOptions(),
    cookieOptions: sessionCookieOptions(),
    cookies: {
      getAll: () => request.cookies.getAll(),
      setAll: (toSet) => {
        for (const { name, value } of toSet) request.cookies.set(name, value);
        response = NextResponse.next({ request });
        for (const { name, value, options } of toSet) response.cookies.set(name, value, boundCookieOptions(options));
      },
    },
  });
  try {
    const { data, error } = await supabase.auth.getClaims();
    return { response, signedIn: !error && Boolean(data?.claims?.sub) };
  } catch {
    // The auth server being unreachable must not take the site down: treat as signed out.
    return { response, signedIn: false };
  }
}
