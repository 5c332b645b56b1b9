import { createHmac, createPublicKey } from "node:crypto";
import { decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from "jose";
import { stackEnv } from "./stack";

/**
 * Forged access tokens for the attacker's suite (tests/security): each claims to be a real user (its payload copied
 * from a genuine token of that user) but is not a token the stack's auth server issued, or no longer a valid one.
 * None may ever be honoured: by the app (fast JWKS path and supabase-js fallback) or by the gateway.
 */

export interface Forgery {
  name: string;
  token: string;
}

const b64u = (v: string | Buffer) => Buffer.from(v).toString("base64url");
const part = (o: object) => b64u(JSON.stringify(o));

function hs256(header: object, payload: object, secret: Buffer | string): string {
  const input = `${part(header)}.${part(payload)}`;
  return `${input}.${createHmac("sha256", secret).update(input).digest("base64url")}`;
}

/** The gateway's public JWKS (what an attacker can read: it is served without any key). */
export async function publicJwks(): Promise<{ keys: JWK[] }> {
  const res = await fetch(new URL("/auth/v1/.well-known/jwks.json", stackEnv().supabaseUrl as string));
  if (res.status !== 200) throw new Error(`JWKS: ${res.status}`);
  return (await res.json()) as { keys: JWK[] };
}

/** Every forgery of `genuine` (a real access token of the victim). */
export async function forgeTokens(genuine: string): Promise<Forgery[]> {
  const header = decodeProtectedHeader(genuine);
  const claims = decodeJwt(genuine);
  const [h, p, s] = genuine.split(".");
  const jwksText = JSON.stringify(await publicJwks());
  const jwk = (JSON.parse(jwksText) as { keys: JWK[] }).keys[0];
  const pem = createPublicKey({ key: jwk as import("node:crypto").JsonWebKey, format: "jwk" }).export({ type: "spki", format: "pem" }) as string;
  const future = Math.floor(Date.now() / 1000) + 3600;
  const admin = { ...claims, exp: future, app_metadata: { ...(claims.app_metadata as object), role: "admin" } };

  // The attacker's own ES256 key pair: a "valid" signature, by the wrong key.
  const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
  const attackerJwk = { ...(await exportJWK(publicKey)), alg: "ES256" };
  const attacker = (hdr: Record<string, unknown>, payload = claims) =>
    new SignJWT(payload).setProtectedHeader({ alg: "ES256", typ: "JWT", ...hdr }).sign(privateKey);

  const forgeries: Forgery[] = [
    { name: "alg none, empty signature", token: `${part({ alg: "none", typ: "JWT" })}.${p}.` },
    { name: "alg None (case variant)", token: `${part({ alg: "None", typ: "JWT" })}.${p}.` },
    { name: "alg NONE with the genuine kid and signature", token: `${part({ alg: "NONE", typ: "JWT", kid: header.kid })}.${p}.${s}` },
    { name: "alg none claiming admin", token: `${part({ alg: "none", typ: "JWT" })}.${part(admin)}.` },
    { name: "alg EdDSA under the genuine kid (a verifier the key cannot serve)", token: `${part({ alg: "EdDSA", typ: "JWT", kid: header.kid })}.${p}.${s}` },
    { name: "alg PS256 under the genuine kid", token: `${part({ alg: "PS256", typ: "JWT", kid: header.kid })}.${p}.${s}` },
    { name: "HS256 keyed with the public JWK (JSON)", token: hs256({ alg: "HS256", typ: "JWT", kid: header.kid }, claims, JSON.stringify(jwk)) },
    { name: "HS256 keyed with the JWKS text", token: hs256({ alg: "HS256", typ: "JWT", kid: header.kid }, claims, jwksText) },
    { name: "HS256 keyed with the JWK x coordinate", token: hs256({ alg: "HS256", typ: "JWT" }, claims, String(jwk.x)) },
    { name: "HS256 keyed with the x coordinate bytes", token: hs256({ alg: "HS256", typ: "JWT" }, claims, Buffer.from(String(jwk.x), "base64url")) },
    { name: "HS256 keyed with the public key PEM", token: hs256({ alg: "HS256", typ: "JWT" }, claims, pem) },
    { name: "ES256 by the attacker's key under the genuine kid", token: await attacker({ kid: header.kid }) },
    { name: "ES256 by the attacker's key, unknown kid", token: await attacker({ kid: "attacker-kid-0001" }) },
    { name: "ES256 by the attacker's key, key embedded in the header (jwk)", token: await attacker({ jwk: attackerJwk }) },
    { name: "ES256 by the attacker's key, jku to the attacker's JWKS", token: await attacker({ jku: "http://127.0.0.1:9/jwks.json", kid: "attacker-kid-0002" }) },
    { name: "genuine header and signature, payload changed to admin", token: `${h}.${part(admin)}.${s}` },
    { name: "ES256 with an all-zero signature", token: `${h}.${p}.${b64u(Buffer.alloc(64))}` },
    { name: "genuine token with its signature truncated", token: `${h}.${p}.${s.slice(0, -6)}` },
    { name: "correctly signed but expired", token: await expiredTwin(claims) },
  ];
  if (JSON.stringify(forgeries.map((f) => f.name)) !== JSON.stringify(FORGERY_NAMES)) throw new Error("FORGERY_NAMES is out of date");
  return forgeries;
}

/** The names of `forgeTokens`'s forgeries in order, known before the stack is reached (one test case each). */
export const FORGERY_NAMES = [
  "alg none, empty signature",
  "alg None (case variant)",
  "alg NONE with the genuine kid and signature",
  "alg none claiming admin",
  "alg EdDSA under the genuine kid (a verifier the key cannot serve)",
  "alg PS256 under the genuine kid",
  "HS256 keyed with the public JWK (JSON)",
  "HS256 keyed with the JWKS text",
  "HS256 keyed with the JWK x coordinate",
  "HS256 keyed with the x coordinate bytes",
  "HS256 keyed with the public key PEM",
  "ES256 by the attacker's key under the genuine kid",
  "ES256 by the attacker's key, unknown kid",
  "ES256 by the attacker's key, key embedded in the header (jwk)",
  "ES256 by the attacker's key, jku to the attacker's JWKS",
  "genuine header and signature, payload changed to admin",
  "ES256 with an all-zero signature",
  "genuine token with its signature truncated",
  "correctly signed but expired",
];

/** The same claims, signed by the stack's own key, expired an hour ago (needs the stack's signing key). */
async function expiredTwin(claims: Record<string, unknown>): Promise<string> {
  const jwk = stackEnv().signingJwk;
  if (!jwk) throw new Error("the test stack has no signingJwk (tests/helpers/test-stack.ts)");
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ ...claims, iat: now - 7200, exp: now - 3600 })
    .setProtectedHeader({ alg: "ES256", kid: jwk.kid, typ: "JWT" })
    .sign(await importJWK(jwk, "ES256"));
}

/** Malformed bearer values: none may be read as a user, none may crash a handler (a 5xx). */
export const MALFORMED_BEARERS = ["", "null", "undefined", "a.b", "a.b.c.d", "....", "%00", "x".repeat(8192)];
