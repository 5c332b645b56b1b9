import { NextResponse, type NextRequest } from "next/server";
import { isPublicRoute } from "@/lib/auth/public-routes";
import { updateSession } from "@/lib/supabase/middleware";

export { isPublicRoute } from "@/lib/auth/public-routes";

/**
 * UX gate for pages only (CVE-2025-29927: handlers authenticate themselves): refresh the session and send signed-out
 * visitors of protected pages to sign-in. API routes are not matched: `withRoute` verifies the caller once, applies
 * the same public-route allowlist and answers 401 JSON (D-03); running the middleware too cost every API call a
 * second JWT verification and the middleware hop (~2 ms a request, measured with bench/search --app-url).
 */
export async function middleware(request: NextRequest) {
  const { pathname } = request.nextUrl;
  const { response, signedIn } = await updateSession(request);
  if (signedIn || isPublicRoute(request.method, pathname)) return response;

  const signIn = request.nextUrl.clone();
  signIn.pathname = "/sign-in";
  signIn.search = "";
  signIn.searchParams.set("next", `${pathname}${request.nextUrl.search}`);
  return NextResponse.redirect(signIn);
}

export const config = {
  // Node.js runtime: the Supabase client needs `ws` on Node 20, which the edge runtime cannot load.
  runtime: "nodejs",
  // Pages: everything but the API, static assets and image optimisation.
  matcher: ["/((?!api/|_next/static|_next/image|favicon.ico|fonts/|.*\\.(?:svg|png|jpg|jpeg|gif|webp|ico|woff2?)$).*)"],
};
