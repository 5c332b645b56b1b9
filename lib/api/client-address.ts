import type { IncomingMessage } from "node:http";
import { randomBytes, timingSafeEqual } from "node:crypto";
import { BlockList, isIP } from "node:net";

/**
 * The client address every limiter keys on (D-22: resolved once, from the socket or a trusted proxy only).
 *
 * Route handlers in Next have no socket, and `next start` copies a client-sent `X-Forwarded-For` through unchanged
 * (base-server does `headers['x-forwarded-for'] ??= socket.remoteAddress`, verified with curl against `next start`:
 * a request carrying `X-Forwarded-For: 6.6.6.6` reaches the handler with exactly that value). So the address is
 * stamped by our own HTTP server in front of Next (`stampClientAddress`, called by `server/app/app-server.ts`) before Next
 * sees the request: the socket address is appended to `X-Forwarded-For`, as a proxy would, so the right-most entry is
 * always the peer we really talked to. Then (`clientAddressOf`):
 *   - with no trusted proxy the right-most entry (the socket) is the client; whatever the client sent is ignored;
 *   - with TRUSTED_PROXY_HOPS=N (TRUSTED_PROXY=1 means N=1) the client is the entry N places left of the right-most:
 *     each proxy appends the address it saw, so everything further left is client-chosen and never read (security
 *     review M5: the left-most entry used to be believed);
 *   - with TRUSTED_PROXY_CIDRS the client is the right-most entry outside those ranges.
 * IPv6 clients are keyed by their /64 (one host usually holds a whole /64). The stamp carries a per-process secret in
 * a second header, so a request that did not pass through the stamping server (plain `next start`) is recognised: its
 * headers are not believed and it is keyed as "unverified" (a shared bucket — degraded, never spoofable) unless a
 * trusted proxy is configured (a platform deployment with no custom server, whose proxy sets the header).
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

/**
 * Called by our HTTP server for every request, before Next handles it: append the socket address (the right-most
 * entry is then always the real peer). `_trustedProxy` is kept for callers; which entry is believed is decided by
 * `clientAddressOf`, not here.
 */
export function stampClientAddress(req: IncomingMessage, _trustedProxy?: boolean): void {
  const socketAddress = req.socket.remoteAddress ?? "";
  const sent = req.headers[FORWARDED_FOR];
  const sentList = (Array.isArray(sent) ? sent.join(",") : (sent ?? "")).trim();
  req.headers[FORWARDED_FOR] = sentList ? `${sentList}, ${socketAddress}` : socketAddress;
  req.headers[STAMP_HEADER] = stampToken(true);
}

function sameToken(a: string | null, b: string | undefined): boolean {
  if (!a || !b) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export interface ClientAddress {
  /** The address limits are keyed on (an IPv6 client as its /64), or UNVERIFIED_CLIENT. */
  address: string;
  /** How it was established. */
  source: "socket" | "trusted-proxy" | "unverified";
}

/** Which X-Forwarded-For entries were written by proxies we trust (security review M5). */
export interface ProxyTrust {
  /** Proxies in front of the app, each appending the address it saw. */
  hops: number;
  /** When non-empty: proxies are recognised by address instead of counted. */
  cidrs: BlockList | null;
}

export const NO_PROXY: ProxyTrust = { hops: 0, cidrs: null };

/** Parse `TRUSTED_PROXY_CIDRS` ("10.0.0.0/8, fd00::/8, 192.0.2.7"); throws on a malformed entry (a config error). */
export function parseCidrs(list: string | undefined): BlockList | null {
  const items = (list ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  if (items.length === 0) return null;
  const block = new BlockList();
  for (const item of items) {
    const [host, bits] = item.split("/");
    const family = isIP(host);
    if (!family) throw new Error(`TRUSTED_PROXY_CIDRS: not an address: ${item}`);
    const max = family === 4 ? 32 : 128;
    const prefix = bits === undefined ? max : Number(bits);
    if (!Number.isInteger(prefix) || prefix < 0 || prefix > max) throw new Error(`TRUSTED_PROXY_CIDRS: bad prefix: ${item}`);
    block.addSubnet(host, prefix, family === 4 ? "ipv4" : "ipv6");
  }
  return block;
}

/** The trust settings from config values (TRUSTED_PROXY=1 stays "one hop" for compatibility). */
export function proxyTrustOf(settings: { TRUSTED_PROXY?: boolean; TRUSTED_PROXY_HOPS?: number; TRUSTED_PROXY_CIDRS?: string }): ProxyTrust {
  const cidrs = parseCidrs(settings.TRUSTED_PROXY_CIDRS);
  const hops = settings.TRUSTED_PROXY_HOPS || (settings.TRUSTED_PROXY ? 1 : 0);
  return { hops, cidrs };
}

function isTrusted(trust: ProxyTrust): boolean {
  return trust.hops > 0 || trust.cidrs !== null;
}

function inBlock(block: BlockList, address: string): boolean {
  return block.check(address, isIP(address) === 4 ? "ipv4" : "ipv6");
}

/** Expand an IPv6 address to its eight 16-bit groups (an embedded IPv4 tail becomes two groups). */
function ipv6Groups(address: string): number[] {
  let a = address.split("%")[0];
  const v4 = a.match(/(\d{1,3}(?:\.\d{1,3}){3})$/);
  if (v4) {
    const o = v4[1].split(".").map(Number);
    a = `${a.slice(0, -v4[1].length)}${((o[0] << 8) | o[1]).toString(16)}:${((o[2] << 8) | o[3]).toString(16)}`;
  }
  const [head, tail] = a.includes("::") ? a.split("::") : [a, undefined];
  const h = head ? head.split(":") : [];
  const t = tail ? tail.split(":") : [];
  const fill = tail === undefined ? [] : Array<string>(8 - h.length - t.length).fill("0");
  return [...h, ...fill, ...t].map((g) => parseInt(g, 16));
}

/** The key a limiter uses for an address: IPv4 as is, IPv6 by its /64 (`2001:db8:1:2::/64`). */
export function addressKey(address: string): string {
  if (isIP(address) !== 6) return address;
  return `${ipv6Groups(address).slice(0, 4).map((g) => g.toString(16)).join(":")}::/64`;
}

/**
 * The client entry of an X-Forwarded-For list. `peerAppended`: our server appended the socket peer (the nearest
 * proxy) as the right-most entry; without the stamp (a platform's `next start`) the list ends with what the nearest
 * proxy saw.
 */
function clientEntry(entries: string[], trust: ProxyTrust, peerAppended: boolean): string | null {
  if (entries.length === 0) return null;
  if (trust.cidrs) {
    // Walk left from the peer past every trusted proxy; the first other address is the client.
    for (let i = entries.length - 1; i >= 0; i--) {
      const a = normaliseAddress(entries[i]);
      if (!a) return null; // A proxy we trust wrote something that is not an address: believe nothing further left.
      if (!inBlock(trust.cidrs, a)) return a;
    }
    return normaliseAddress(entries[0]); // Only proxies: the farthest one is the best we know.
  }
  // N proxies, each appending the address it saw: the client is N entries from the right (N+1 with our stamp, which
  // appended the nearest proxy itself). Fewer entries than that: the left-most is the farthest address we know.
  const fromRight = peerAppended ? trust.hops + 1 : trust.hops;
  return normaliseAddress(entries[Math.max(0, entries.length - fromRight)]);
}

/** Resolve the caller's address from the request headers (see the module comment for the trust rules). */
export function clientAddressOf(headers: Headers, trustSetting: ProxyTrust | boolean): ClientAddress {
  const trust: ProxyTrust = typeof trustSetting === "boolean" ? { hops: trustSetting ? 1 : 0, cidrs: null } : trustSetting;
  const entries = (headers.get(FORWARDED_FOR) ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const stamped = sameToken(headers.get(STAMP_HEADER), stampToken(false));
  if (isTrusted(trust)) {
    const client = clientEntry(entries, trust, stamped);
    if (client) return { address: addressKey(client), source: "trusted-proxy" };
  } else if (stamped) {
    // Our server appended the socket address: it is the right-most entry.
    const right = normaliseAddress(entries[entries.length - 1]);
    if (right) return { address: addressKey(right), source: "socket" };
  }
  return { address: UNVERIFIED_CLIENT, source: "unverified" };
}
