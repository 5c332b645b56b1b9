/**
 * HTTP helpers of the reference API (`/api/v1/**`, issue 19): the Link header of lists. Authentication (X-API-Key
 * acting as its user), limits and the reference error shape come from `withRoute({ apiKey: "required" })` and ./errors.
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
