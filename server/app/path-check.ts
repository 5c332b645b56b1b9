import type { IncomingMessage, ServerResponse } from "node:http";
import { errorResponse } from "../../lib/api/errors";
import { ApiError } from "../../lib/errors";
import { en } from "../../lib/i18n/en";
import { LOCALE_COOKIE } from "../../lib/i18n/locale";
import { pl } from "../../lib/i18n/pl";
import { API_ANSWER_HEADERS, everyAnswerHeaders } from "../../lib/security-headers";

/**
 * Next decodes every path segment it routes with decodeURIComponent and answers a plain-text 500 when one does not
 * decode (a malformed or truncated %-escape such as `%ZZ`, `%E0%A4%A`, `%`, or bytes that are not UTF-8), for API
 * routes and pages alike; a segment holding `%00` reached the database and failed there (500). The app server asks
 * this first: such a path names nothing, so it is refused as the client's mistake (400 INVALID_PATH) before Next sees
 * it. Only the path is judged: a query string with a bad escape is tolerated by URLSearchParams and reaches the
 * handlers, whose validation answers it.
 */

/** The path of a request target (origin-form `/a?b`, or absolute-form `http://host/a?b`); null for `*` and the like. */
function pathOf(target: string): string | null {
  if (target.startsWith("/")) return target.replace(/[?#].*$/s, "");
  const absolute = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*(\/[^?#]*)?/.exec(target);
  return absolute ? (absolute[1] ?? "/") : null;
}

/**
 * Whether every segment of the request's path decodes (decodeURIComponent throws on what Next would throw on) to text
 * without a NUL: no id, slug or name holds one, and a NUL that reached Postgres as text was a 500 (22021).
 */
export function pathDecodes(target: string): boolean {
  const path = pathOf(target);
  if (path === null || !path.includes("%")) return true;
  try {
    return !decodeURIComponent(path).includes("\u0000");
  } catch {
    return false;
  }
}

/** The interface language of the refusal page: the locale cookie, else a browser asking for Polish first. */
function localeOf(req: IncomingMessage): "en" | "pl" {
  const cookie = new RegExp(`(?:^|;\\s*)${LOCALE_COOKIE}=(en|pl)(?:;|$)`).exec(req.headers.cookie ?? "")?.[1];
  if (cookie === "en" || cookie === "pl") return cookie;
  return /^\s*pl\b/i.test(req.headers["accept-language"] ?? "") ? "pl" : "en";
}

function refusalPage(req: IncomingMessage): string {
  const locale = localeOf(req);
  const t = (locale === "pl" ? pl : en).errors;
  return `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${t.badAddressTitle}</title></head><body><main><h1>${t.badAddressTitle}</h1><p>${t.badAddressBody}</p><p><a href="/">${t.goHome}</a></p></main></body></html>`;
}

/**
 * Answer a request whose path does not decode: 400 JSON INVALID_PATH (the envelope, or the reference shape under
 * /api/v1) for `/api/` paths, a small HTML page for the rest, with the security headers every answer carries and the
 * deny-all CSP (neither answer runs a script or loads anything). Returns whether it answered; when false the request
 * is untouched and goes on to Next.
 */
export function refuseUndecodablePath(req: IncomingMessage, res: ServerResponse): boolean {
  const target = req.url ?? "/";
  if (pathDecodes(target)) return false;
  answer(req, res, pathOf(target) ?? "/").catch(() => res.destroy());
  return true;
}

async function answer(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
  const production = process.env.NODE_ENV === "production";
  const headers: Record<string, string> = Object.fromEntries([...everyAnswerHeaders(production), ...API_ANSWER_HEADERS].map(({ key, value }) => [key, value]));
  headers["Cache-Control"] = "no-store";
  let body: string;
  if (path === "/api" || path.startsWith("/api/")) {
    const refusal = errorResponse(new ApiError("INVALID_PATH"), path);
    refusal.headers.forEach((value, key) => {
      headers[key] = value;
    });
    body = await refusal.text();
  } else {
    headers["Content-Type"] = "text/html; charset=utf-8";
    body = refusalPage(req);
  }
  headers["Content-Length"] = String(Buffer.byteLength(body));
  res.writeHead(400, headers);
  res.end(req.method === "HEAD" ? undefined : body);
}
