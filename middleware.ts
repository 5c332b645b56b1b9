import { NextResponse, type NextRequest } from "next/server";
import { isApiKeyRoute, isPublicRoute } from "@/lib/auth/public-routes";
import { updateSession } from "@/lib/supabase/middleware";

export { isPublicRoute } from "@/lib/auth/public-routes";

/**
 * UX gate only (CVE-2025-29927: handlers authenticate themselves): refresh the session, send signed-out visitors of
 * protected pages to sign-in, and answer protected API routes with 401 JSON (D-03), never a redirect or 403.
 */
export async function middleware(request: NextRequest) {
  const { pathname } = request.nextUrl;
  const { response, signedIn } = await updateSession(request);
  if (signedIn || isPublicRoute(request.method, pathname) || isApiKeyRoute(pathname)) return response;

  if (pathname.startsWith("/api/")) {
    // Bearer callers are verified by the handler itself.
    if (request.headers.get("authorization")?.startsWith("Bearer ")) return response;
    return NextResponse.json({ detail: { code: "UNAUTHORIZED", message: "Sign in to use this endpoint." } }, { status: 401 });
  }
  const signIn = request.nextUrl.clone();
  signIn.pathname = "/sign-in";
  signIn.search = "";
  signIn.searchParams.set("next", `${pathname}${request.nextUrl.search}`);
  return NextResponse.redirect(signIn);
}

export const config = {
  // Node.js runtime: the Supabase client needs `ws` on Node 20, which the edge runtime cannot load.
  runtime: "nodejs",
  // Everything but static assets and image optimisation.
  matcher: ["/((?!_next/static|_next/image|favicon.ico|fonts/|.*\\.(?:svg|png|jpg|jpeg|gif|webp|ico|woff2?)$).*)"],
};
