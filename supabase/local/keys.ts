import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from "jose";
import { randomBytes, randomUUID } from "node:crypto";

/** Issuer of every token the local stack signs (Supabase uses `<url>/auth/v1`). */
export function issuerFor(supabaseUrl: string): string {
  return `${supabaseUrl.replace(/\/$/, "")}/auth/v1`;
}

export interface LocalKeys {
  /** ES256 private key (JWK with kid); its public half is served at /auth/v1/.well-known/jwks.json. */
  privateJwk: JWK;
  anonKey: string;
  serviceRoleKey: string;
  upstashToken: string;
}

/** The public half of an EC private JWK. */
export function publicJwkOf(privateJwk: JWK): JWK {
  const { d: _d, ...pub } = privateJwk;
  return { ...pub, use: "sig", alg: "ES256", key_ops: ["verify"] };
}

/** Sign Supabase-style project API keys (long-lived JWTs carrying only a role), as `supabase start` prints them. */
async function signApiKey(privateJwk: JWK, role: "anon" | "service_role", iss: string): Promise<string> {
  const key = await importJWK(privateJwk, "ES256");
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ role })
    .setProtectedHeader({ alg: "ES256", kid: privateJwk.kid, typ: "JWT" })
    .setIssuer(iss)
    .setIssuedAt(now)
    .setExpirationTime(now + 10 * 365 * 24 * 3600)
    .sign(key);
}

export async function generateLocalKeys(supabaseUrl: string): Promise<LocalKeys> {
  const { privateKey } = await generateKeyPair("ES256", { extractable: true });
  const privateJwk: JWK = { ...(await exportJWK(privateKey)), kid: randomUUID(), alg: "ES256" };
  const iss = issuerFor(supabaseUrl);
  return {
    privateJwk,
    anonKey: await signApiKey(privateJwk, "anon", iss),
    serviceRoleKey: await signApiKey(privateJwk, "service_role", iss),
    upstashToken: randomBytes(24).toString("base64url"),
  };
}
