import { createHmac } from "node:crypto";
import { parseCookieHeader } from "@supabase/ssr";
import { config } from "@/lib/config";
import { GUEST_COOKIE, GuestLimitReachedError, guestMeter, guestSearchKey, type GuestSession } from "@/lib/backend/guest";
import { ApiError } from "@/lib/errors";
import type { Identity } from "./identity";

/**
 * Wire the guest allowance into a search route (GET /api/search/documents):
 *
 *   const { result, headers } = await meterGuestSearch(req, identity, params, () => searchDocuments(params, identity));
 *   return Response.json(result, { headers });
 *
 * Signed-in and API-key callers are not metered and get no guest headers (D-11). A guest gets X-Guest-Session-Id
 * (a public id derived from the session, never the cookie's value),
 * X-Guest-Search-Limit, X-Guest-Searches-Remaining (after this search's charge), X-Guest-Upgrade-Nudge when the
 * nudge threshold is reached, and the cookie when the session was minted by this request. A spent allowance throws
 * the 429 GUEST_LIMIT_REACHED (with the headers at 0) before `run` is called.
 */
export interface MeteredSearch<T> {
  result: T;
  headers: Headers;
  /** True when the visitor should now be shown the upgrade nudge. */
  nudge: boolean;
}

export function guestCookieOf(req: Request): string | null {
  const header = req.headers.get("cookie");
  if (!header) return null;
  return parseCookieHeader(header).find((c) => c.name === GUEST_COOKIE)?.value ?? null;
}

/** The cookie spec: HttpOnly, SameSite=Lax, Secure in production, lifetime = the session's remaining TTL (D-12). */
export function guestCookie(id: string, maxAgeSeconds: number): string {
  const secure = config().NODE_ENV === "production" ? "; Secure" : "";
  return `${GUEST_COOKIE}=${id}; Path=/; Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}; HttpOnly; SameSite=Lax${secure}`;
}

/**
 * The value of X-Guest-Session-Id: an HMAC of the session id shaped like a UUID. Stable for one session (a client can
 * tell its session changed), but not the cookie's value, which is HttpOnly so scripts cannot read or replay it
 * (security review L13); the header is readable by any script on the page.
 */
export function publicGuestId(id: string): string {
  const c = config();
  const secret = c.RATE_LIMIT_IDENTITY_SECRET ?? c.SUPABASE_SERVICE_ROLE_KEY ?? "local-rate-limit-identity";
  const h = createHmac("sha256", secret).update(`guest:${id}`).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

function guestHeaders(s: GuestSession): Headers {
  const h = new Headers({
    "X-Guest-Session-Id": publicGuestId(s.id),
    "X-Guest-Search-Limit": String(s.limit),
    "X-Guest-Searches-Remaining": String(s.remaining),
  });
  if (s.nudge) h.set("X-Guest-Upgrade-Nudge", "true");
  if (s.minted) h.append("Set-Cookie", guestCookie(s.id, s.ttlSeconds));
  return h;
}

/** `params` are the search's parsed parameters: the same search paged or reloaded is charged once (guestSearchKey). */
export async function meterGuestSearch<T>(
  req: Request,
  identity: Identity,
  params: Record<string, unknown>,
  run: () => Promise<T>,
): Promise<MeteredSearch<T>> {
  if (identity.role !== "anonymous" || identity.apiKey) return { result: await run(), headers: new Headers(), nudge: false };
  try {
    const { result, session } = await guestMeter().meter(guestCookieOf(req), run, { searchKey: guestSearchKey(params) });
    return { result, headers: session ? guestHeaders(session) : new Headers(), nudge: session?.nudge ?? false };
  } catch (e) {
    if (!(e instanceof GuestLimitReachedError)) throw e;
    const headers = Object.fromEntries(guestHeaders(e.session).entries());
    throw new ApiError(
      "GUEST_LIMIT_REACHED",
      `You have used all ${e.session.limit} guest searches. Create a free account to keep searching.`,
      { upgrade_url: config().GUEST_UPGRADE_URL },
      headers,
    );
  }
}
