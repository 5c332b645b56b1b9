/**
 * The public-route allowlist: the single source of which method + path combinations anonymous callers may use
 * (spec: Authentication items 4-5, D-16). Matching is exact: `/search` is public, `/search/extractions`, `/search/`
 * and `/searchx` are not; only the listed methods are public. Pages are gated by the middleware (a redirect to
 * sign-in); API routes by `withRoute` (`routeAuthLevel`: a handler declared public but missing here is treated as
 * sign-in-required), and every handler still authenticates itself.
 */

type Method = "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS";

interface PublicRoute {
  methods: readonly Method[];
  /** Anchored pattern over the whole pathname. */
  pattern: RegExp;
  note: string;
}

const SEGMENT = "[^/]+";
const PAGE: readonly Method[] = ["GET", "HEAD"];

const route = (methods: readonly Method[], path: string, note: string): PublicRoute => ({
  methods,
  pattern: new RegExp(`^${path}$`),
  note,
});

export const PUBLIC_ROUTES: readonly PublicRoute[] = [
  // Pages
  route(PAGE, "/", "landing"),
  route(PAGE, "/about", "about"),
  route(PAGE, "/blog", "blog index"),
  route(PAGE, `/blog/${SEGMENT}`, "blog post"),
  route(PAGE, "/search", "keyword search page (exact path only)"),
  route(PAGE, `/documents/${SEGMENT}`, "judgment detail page"),
  route(PAGE, "/cite/.+", "permalink by neutral citation or case number (redirects to the judgment page)"),
  route(PAGE, "/legislation/.+", "provision page (the citator): the judgments applying a provision, like a judgment page"),
  route(PAGE, "/status", "status page"),
  route(PAGE, "/dashboard", "dashboard statistics page"),
  route(PAGE, "/c/[0-9A-Za-z]{12}", "a cited cohort (the short link is the credential)"),
  route(PAGE, "/sign-in", "sign-in page"),
  route(PAGE, "/sign-up", "sign-up page"),
  // Search and documents
  route(["GET"], "/api/search/documents", "keyword/hybrid search (guest metered)"),
  route(["GET"], "/api/search/suggest", "typeahead"),
  route(["GET"], "/api/search/autocomplete", "autocomplete"),
  route(["POST"], "/api/search/topic-click", "topic click (D-16)"),
  route(["GET"], "/api/search/topics/meta", "topics meta (D-16)"),
  route(["GET"], "/api/search/topics/trending", "trending topics (D-16)"),
  route(["GET"], `/api/documents/${SEGMENT}/metadata`, "judgment metadata"),
  route(["GET"], `/api/documents/${SEGMENT}/similar`, "similar judgments"),
  route(["GET"], `/api/documents/${SEGMENT}/html`, "judgment full text"),
  route(["GET"], `/api/documents/${SEGMENT}/references`, "what a judgment cites (the citator), like its metadata"),
  route(["GET"], `/api/documents/${SEGMENT}/cited-by`, "the judgments citing a judgment (the citator), like its metadata"),
  route(["GET"], "/api/legislation", "provision lookup by text (the citator), like the judgments' reads"),
  route(["GET"], "/api/legislation/.+", "a provision's judgments (the citator), like the judgments' reads"),
  route(["GET"], `/api/documents/${SEGMENT}/download`, "judgment as an HTML or plain-text file (read like the page)"),
  route(["GET"], "/api/cohorts/[0-9A-Za-z]{12}", "a cited cohort, readable by anyone with the link"),
  // Service
  route(["POST"], "/api/events", "product events"),
  route(["GET"], "/api/health/status", "health status"),
  route(["GET"], "/api/dashboard/stats", "dashboard statistics"),
  route(["GET"], "/api/llm/status", "whether an LLM is configured (the page shows or hides the NL box)"),
  route(["GET"], "/api/blog/posts", "blog posts (D-16)"),
  route(["GET"], `/api/blog/posts/${SEGMENT}`, "blog post (D-16)"),
  route(["POST"], "/api/contact", "contact form (D-16)"),
  // Content area: the feed, the publications and contact pages, the public reads.
  route(PAGE, "/blog/rss.xml", "blog RSS feed"),
  route(PAGE, "/publications", "publications page"),
  route(PAGE, "/contact", "contact page"),
  route(["GET"], "/api/blog/categories", "blog categories"),
  route(["GET"], "/api/publications", "published publications"),
  route(["GET"], `/api/publications/${SEGMENT}`, "one publication"),
  // Signing in is done without a session by definition.
  route(["POST"], "/api/auth/sign-in", "sign in"),
  route(["POST"], "/api/auth/sign-up", "sign up"),
  route(["POST"], "/api/auth/sign-out", "sign out (clears whatever session there is)"),
  route(["GET"], "/api/auth/me", "who am I (null when signed out)"),
  // Accounts: a digest's unsubscribe link works without signing in (a signed one-use token).
  route(PAGE, "/unsubscribe", "unsubscribe page of a digest link"),
  route(["POST"], "/api/unsubscribe", "unsubscribe with a signed one-use token"),
  // The reference API's documentation (api-v1 area): the page and the contract are readable without a key.
  route(PAGE, "/developers", "API documentation page"),
  route(["GET"], "/api/v1/openapi.json", "the OpenAPI document of /api/v1"),
];

/**
 * The reference API for servers (`/api/v1/**`) authenticates with X-API-Key in each handler; the session gate does
 * not apply to it (D-18).
 */
export function isApiKeyRoute(pathname: string): boolean {
  return pathname === "/api/v1" || pathname.startsWith("/api/v1/");
}

/**
 * Whether anonymous callers may use `method` on `pathname`. HEAD is GET without a body (Next answers HEAD through the
 * GET handler), so a public GET is a public HEAD too: uptime monitors probe with HEAD (security review L6).
 */
export function isPublicRoute(method: string, pathname: string): boolean {
  const m = method.toUpperCase() as Method;
  return PUBLIC_ROUTES.some((r) => (r.methods.includes(m) || (m === "HEAD" && r.methods.includes("GET"))) && r.pattern.test(pathname));
}

export type RouteAuthLevel = "public" | "user" | "admin";

/**
 * The level an API handler actually enforces: what it declares, except that "public" holds only for allowlisted
 * method + path combinations and API-key routes. A handler marked public by mistake stays closed to anonymous callers.
 */
export function routeAuthLevel(declared: RouteAuthLevel, method: string, pathname: string): RouteAuthLevel {
  if (declared !== "public") return declared;
  return isPublicRoute(method, pathname) || isApiKeyRoute(pathname) ? "public" : "user";
}
