import { NextResponse, type NextRequest } from "next/server";
import { isPublicRoute } from "@/lib/auth/public-routes";
import { updateSession } from "@/lib/supabase/middleware";
import { verifiedSessionClaims } from "@/lib/api/token-claims";
import { GUEST_MINT_HEADER } from "@/lib/api/page-search-header";
import { guestCookie } from "@/lib/api/guest-meter";
import { GUEST_COOKIE, isGuestSessionId } from "@/lib/backend/guest";
import { config as appConfig } from "@/lib/config";

export { isPublicRoute } from "@/lib/auth/public-routes";

/**
 * The Content-Security-Policy of a page (security review M2), with a fresh nonce per response. Next reads the nonce
 * from the request's CSP header and puts it on every script it renders (framework, chunks, inline bootstrap), so
 * only those run; 'strict-dynamic' lets them load their own chunks. Pages must render dynamically for that (the root
 * layout reads the session cookie, so every page does).
 *   - 'unsafe-eval' only in development: React's dev build and Fast Refresh evaluate code; production never does.
 *   - style-src 'unsafe-inline': React `style={…}` attributes (recharts positions its tooltips and SVG that way) and
 *     Next's dev style injection cannot carry a nonce (a nonce in style-src would disable 'unsafe-inline'). Styles
 *     cannot run code; scripts stay nonce-only.
 *   - Tailwind's CSS is a file served from 'self' (the interface uses the platform's fonts).
 */
export function pageContentSecurityPolicy(nonce: string, dev: boolean): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' blob: data:",
    "font-src 'self' data:",
    // Development: the Fast Refresh websocket.
    `connect-src 'self'${dev ? " ws: wss:" : ""}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/**
 * /search renders a guest's first page of results on the server, metered like the API (lib/api/page-search.ts), but
 * a page cannot set cookies: a guest without a `guest_session_id` cookie gets one here, and the header
 * GUEST_MINT_HEADER tells the page it may mint the session under that id. The header is always deleted first, so a
 * client cannot send it. Returns the id to set as the cookie, or null.
 */
function prepareGuestSearch(request: NextRequest): string | null {
  request.headers.delete(GUEST_MINT_HEADER);
  if (request.nextUrl.pathname !== "/search" || !request.nextUrl.search) return null;
  const names = request.cookies.getAll().map((c) => c.name);
  if (names.some((n) => /^sb-.*-auth-token/.test(n))) return null;
  if (isGuestSessionId(request.cookies.get(GUEST_COOKIE)?.value)) return null;
  const id = crypto.randomUUID();
  request.cookies.set(GUEST_COOKIE, id);
  request.headers.set(GUEST_MINT_HEADER, id);
  return id;
}

/**
 * Whether the visitor is signed in, and the response carrying any refreshed session cookies. A session token that
 * verifies against the cached JWKS and is not due for a refresh needs no Supabase client (the route handlers' fast
 * path, lib/api/token-claims.ts); anything else goes through supabase-js, which refreshes or refuses it.
 */
async function sessionOf(request: NextRequest): Promise<{ response: NextResponse; signedIn: boolean }> {
  const url = process.env.SUPABASE_URL;
  const claims = url && process.env.SUPABASE_ANON_KEY ? await verifiedSessionClaims(request.headers.get("cookie"), url) : null;
  if (claims?.sub) return { response: NextResponse.next({ request }), signedIn: true };
  return updateSession(request);
}

/**
 * UX gate for pages only (CVE-2025-29927: handlers authenticate themselves): refresh the session and send signed-out
 * visitors of protected pages to sign-in; set the page's CSP. API routes are not matched: `withRoute` verifies the
 * caller once, applies the same public-route allowlist and answers 401 JSON (D-03); running the middleware too cost
 * every API call a second JWT verification and the middleware hop (~2 ms a request, measured with bench/search
 * --app-url). API answers get their security headers from next.config.ts.
 */
export async function middleware(request: NextRequest) {
  const { pathname } = request.nextUrl;
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
  const csp = pageContentSecurityPolicy(nonce, process.env.NODE_ENV !== "production");
  // On the request, so the renderer finds the nonce (updateSession forwards these request headers to Next).
  request.headers.set("content-security-policy", csp);
  request.headers.set("x-nonce", nonce);
  const mintedGuest = prepareGuestSearch(request);
  const { response, signedIn } = await sessionOf(request);
  if (mintedGuest) response.headers.append("Set-Cookie", guestCookie(mintedGuest, appConfig().GUEST_SESSION_TTL_SECONDS));
  if (signedIn || isPublicRoute(request.method, pathname)) {
    response.headers.set("Content-Security-Policy", csp);
    return response;
  }

  const signIn = request.nextUrl.clone();
  signIn.pathname = "/sign-in";
  signIn.search = "";
  signIn.searchParams.set("next", `${pathname}${request.nextUrl.search}`);
  const redirect = NextResponse.redirect(signIn);
  redirect.headers.set("Content-Security-Policy", csp);
  return redirect;
}

export const config = {
  // Node.js runtime: the Supabase client needs `ws` on Node 20, which the edge runtime cannot load.
  runtime: "nodejs",
  // Pages: everything but the API, the build's static files and image optimisation. Nothing is excluded by file
  // extension: the app serves no public/ folder, so /collections/x.png is a page (a 404 or a sign-in redirect) and
  // needs the page's CSP like any other.
  matcher: ["/((?!api/|_next/static/|_next/image).*)"],
};
