/**
 * HTTP helpers of the reference API (`/api/v1/**`): the Link header of lists and the deprecation headers.
 * Authentication (X-API-Key acting as its user), limits and the reference error shape come from
 * `withRoute({ apiKey: "required" })` and ./errors.
 */
import type { NextRequest } from "next/server";

/**
 * `Link: <…offset=0>; rel="first", <…offset=next>; rel="next"` (RFC 8288) for a GET list page; `next` only while rows
 * remain. The links keep the request's other query parameters and are relative to the host the caller used.
 */
export function linkHeader(req: NextRequest, page: { limit: number; offset: number; total: number }): string {
  const at = (offset: number) => {
    const url = new URL(req.nextUrl.pathname + req.nextUrl.search, "http://x");
    url.searchParams.set("limit", String(page.limit));
    url.searchParams.set("offset", String(offset));
    return `<${url.pathname}${url.search}>`;
  };
  const links = [`${at(0)}; rel="first"`];
  if (page.offset + page.limit < page.total) links.push(`${at(page.offset + page.limit)}; rel="next"`);
  return links.join(", ");
}

/** A list answer: the body as JSON with its Link header. */
export function listResponse(req: NextRequest, body: object, page: { limit: number; offset: number; total: number }): Response {
  return Response.json(body, { headers: { Link: linkHeader(req, page) } });
}

/**
 * The deprecation policy of the reference API (docs/releasing.md): a route is deprecated in a release and kept for at
 * least this many days before its sunset. A policy, not a tunable, so it lives here beside the mechanism.
 */
export const MIN_DEPRECATION_NOTICE_DAYS = 180;

export interface DeprecationNotice {
  /** The day the deprecation took effect (ISO date, the release that announced it). */
  since: string;
  /** The earliest day the route may be removed (ISO date), at least MIN_DEPRECATION_NOTICE_DAYS after `since`. */
  sunset: string;
  /** Where the successor and the migration path are described (sent as `Link: <…>; rel="deprecation"`). */
  link?: string;
}

const DAY_MS = 86_400_000;

function parseDay(what: string, value: string): Date {
  const day = /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T00:00:00Z`) : new Date(Number.NaN);
  if (Number.isNaN(day.getTime())) throw new Error(`deprecation ${what} must be an ISO date (YYYY-MM-DD), got "${value}"`);
  return day;
}

/** The three headers of a deprecated route; throws when the notice is shorter than the policy allows. */
export function deprecationHeaders(notice: DeprecationNotice): Record<string, string> {
  const since = parseDay("since", notice.since);
  const sunset = parseDay("sunset", notice.sunset);
  const days = (sunset.getTime() - since.getTime()) / DAY_MS;
  if (days < MIN_DEPRECATION_NOTICE_DAYS) {
    throw new Error(`deprecation notice of ${days} days is shorter than the policy's ${MIN_DEPRECATION_NOTICE_DAYS} days (${notice.since} → ${notice.sunset})`);
  }
  const headers: Record<string, string> = {
    // RFC 9745: a structured-field date, seconds since the epoch.
    Deprecation: `@${Math.floor(since.getTime() / 1000)}`,
    // RFC 8594: an HTTP date.
    Sunset: sunset.toUTCString(),
  };
  if (notice.link) headers.Link = `<${notice.link}>; rel="deprecation"`;
  return headers;
}

/**
 * Mark a `/api/v1` route handler deprecated: every answer (success or error) carries `Deprecation`, `Sunset` and,
 * with a link, a `Link` relation added to any Link the handler set (list pages have one). The notice is checked when
 * the route module loads, so a too-short notice fails the build and the tests, not a request.
 *
 *     export const GET = deprecated({ since: "2027-03-01", sunset: "2027-09-01", link: "/docs/api#v2" }, withRoute(...));
 */
export function deprecated<A extends unknown[]>(
  notice: DeprecationNotice,
  handler: (...args: A) => Response | Promise<Response>,
): (...args: A) => Promise<Response> {
  const added = deprecationHeaders(notice);
  return async (...args: A) => {
    const res = await handler(...args);
    // A fetched or redirect Response has immutable headers: answer with a copy.
    const headers = new Headers(res.headers);
    for (const [name, value] of Object.entries(added)) {
      if (name === "Link" && headers.has("Link")) headers.set("Link", `${headers.get("Link")}, ${value}`);
      else headers.set(name, value);
    }
    return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
  };
}
