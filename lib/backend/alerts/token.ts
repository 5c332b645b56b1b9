/**
 * Unsubscribe tokens of the digest mails: `<payload>.<signature>`, the payload being base64url JSON {s: saved search
 * id, n: its current unsubscribe nonce} and the signature an HMAC-SHA256 of it. The signature proves we issued the
 * link (no sign-in needed); the nonce makes it one-use, because using it rotates the nonce in the database.
 */
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { config } from "@/lib/config";
import { isUuid } from "@/lib/schema/uuid";

/** ALERT_TOKEN_SECRET, or a key derived from the service-role key (a secret the server already holds). */
export function unsubscribeSecret(serviceRoleKey: string | undefined = config().SUPABASE_SERVICE_ROLE_KEY): string {
  const explicit = config().ALERT_TOKEN_SECRET;
  if (explicit) return explicit;
  if (!serviceRoleKey) throw new Error("set ALERT_TOKEN_SECRET or SUPABASE_SERVICE_ROLE_KEY to sign unsubscribe links");
  return createHash("sha256").update(`alert-unsubscribe:${serviceRoleKey}`).digest("base64url");
}

const sign = (payload: string, secret: string) => createHmac("sha256", secret).update(payload).digest("base64url");

export function signUnsubscribeToken(savedSearchId: string, nonce: string, secret: string): string {
  const payload = Buffer.from(JSON.stringify({ s: savedSearchId, n: nonce })).toString("base64url");
  return `${payload}.${sign(payload, secret)}`;
}

/** The ids in a token whose signature is ours, else null (a forged, truncated or garbled token). */
export function verifyUnsubscribeToken(token: string, secret: string): { savedSearchId: string; nonce: string } | null {
  const [payload, signature, extra] = token.split(".");
  if (!payload || !signature || extra !== undefined) return null;
  const expected = Buffer.from(sign(payload, secret));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    const body: unknown = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
    if (typeof body !== "object" || body === null) return null;
    const { s, n } = body as { s?: unknown; n?: unknown };
    if (!isUuid(s) || !isUuid(n)) return null;
    return { savedSearchId: String(s).toLowerCase(), nonce: String(n).toLowerCase() };
  } catch {
    return null;
  }
}
