import type { IncomingMessage } from "node:http";
import { randomBytes, timingSafeEqual } from "node:crypto";
import { isIP } from "node:net";

/**
 * The client address every limiter keys on (D-22: resolved once, from the socket or a trusted proxy only).
 *
 * Route handlers in Next have no socket, and `next start` copies a client-sent `X-Forwarded-For` through unchanged
 * (base-server does `headers['x-forwarded-for'] ??= socket.remoteAddress`, verified with curl against `next start`:
 * a request carrying `X-Forwarded-For: 6.6.6.6` reaches the handler with exactly that value). So the address is
 * stamped by our own HTTP server in front of Next (`stampClientAddress`, called by `lib/api/app-server.ts`) before Next
 * sees the request:
 *   - without TRUSTED_PROXY the header is replaced by the socket address, so whatever the client sent is gone;
 *   - with TRUSTED_PROXY the socket address is appended, as a proxy would, and the left-most entry (the proxy's
 *     view of the client) is used.
 * The stamp carries a per-process secret in a second header, so a request that did not pass through the stamping
 * server (plain `next start`) is recognised: its headers are not believed and it is keyed as "unverified" (a shared
 * bucket — degraded, never spoofable) unless TRUSTED_PROXY says a proxy in front sets the header (a platform
 * deployment with no custom server).
 */

export const FORWARDED_FOR = "x-forwarded-for";
export const STAMP_HEADER = "x-client-address-stamp";
/** The identity used when the address cannot be verified: everyone unverified shares one bucket. */
export const UNVERIFIED_CLIENT = "unverified";

const TOKEN_KEY = Symbol.for("judgment-search.client-address-stamp");
type StampGlobal = typeof globalThis & { [TOKEN_KEY]?: string };

/**
 * The per-process stamp secret. Kept on globalThis under a registered symbol: the launcher's copy of this module and
 * the copy bundled into the Next server run in one process and must agree on it. Never sent to a client.
 */
function stampToken(create: boolean): string | undefined {
  const g = globalThis as StampGlobal;
  if (!g[TOKEN_KEY] && create) g[TOKEN_KEY] = randomBytes(24).toString("base64url");
  return g[TOKEN_KEY];
}

/** Strip the IPv4-mapped IPv6 prefix so one client has one spelling (`::ffff:127.0.0.1` → `127.0.0.1`). */
export function normaliseAddress(raw: string | undefined | null): string | null {
  if (!raw) return null;
  let a = raw.trim();
  // A proxy may send "[v6]:port" or "v4:port"; keep only the host.
  const bracketed = a.match(/^\[([^\]]+)\](?::\d+)?$/);
  if (bracketed) a = bracketed[1];
  else if (/^\d{1,3}(\.\d{1,3}){3}:\d+$/.test(a)) a = a.slice(0, a.lastIndexOf(":"));
  if (a.toLowerCase().startsWith("::ffff:") && isIP(a.slice(7)) === 4) a = a.slice(7);
  return isIP(a) ? a.toLowerCase() : null;
}

/** Called by our HTTP server for every request, before Next handles it. */
export function stampClientAddress(req: IncomingMessage, trustedProxy: boolean): void {
  const socketAddress = req.socket.remoteAddress ?? "";
  const sent = req.headers[FORWARDED_FOR];
  const sentList = (Array.isArray(sent) ? sent.join(",") : (sent ?? "")).trim();
  req.headers[FORWARDED_FOR] = trustedProxy && sentList ? `${sentList}, ${socketAddress}` : socketAddress;
  req.headers[STAMP_HEADER] = stampToken(true);
}

function sameToken(a: string | null, b: string | undefined): boolean {
  if (!a || !b) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export interface ClientAddress {
  /** The address limits are keyed on, or UNVERIFIED_CLIENT. */
  address: string;
  /** How it was established. */
  source: "socket" | "trusted-proxy" | "unverified";
}

/** Resolve the caller's address from the request headers (see the module comment for the trust rules). */
export function clientAddressOf(headers: Headers, trustedProxy: boolean): ClientAddress {
  const entries = (headers.get(FORWARDED_FOR) ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const stamped = sameToken(headers.get(STAMP_HEADER), stampToken(false));
  if (trustedProxy) {
    const left = normaliseAddress(entries[0]);
    if (left) return { address: left, source: "trusted-proxy" };
  } else if (stamped) {
    // Our server replaced the header with the socket address: it is the only (right-most) entry.
    const right = normaliseAddress(entries[entries.length - 1]);
    if (right) return { address: right, source: "socket" };
  }
  return { address: UNVERIFIED_CLIENT, source: "unverified" };
}
