import { errors as joseErrors, importJWK, jwtVerify, SignJWT, type JWK, type JWTPayload } from "jose";
import { publicJwkOf } from "../keys";

/** The roles our tokens may carry; the gateway switches to exactly these in Postgres. */
export const API_ROLES = ["anon", "authenticated", "service_role"] as const;
export type ApiRole = (typeof API_ROLES)[number];

export function isApiRole(role: unknown): role is ApiRole {
  return typeof role === "string" && (API_ROLES as readonly string[]).includes(role);
}

/** Claims of a verified token (user access token or project API key). */
export interface VerifiedClaims extends JWTPayload {
  role?: string;
  email?: string;
  session_id?: string;
  is_anonymous?: boolean;
  [claim: string]: unknown;
}

/** Why a token failed: callers translate this to GoTrue's or PostgREST's error shape. */
export type TokenFailure =
  | { kind: "expired"; message: string }
  | { kind: "claims"; message: string }
  | { kind: "decode"; message: string };

export type VerifyResult = { ok: true; claims: VerifiedClaims } | { ok: false; failure: TokenFailure };

type SigningKey = Awaited<ReturnType<typeof importJWK>>;

/**
 * Signs and verifies every JWT of the local stack with the one ES256 key of `supabase/local/keys.ts`.
 * Asymmetric keys let `supabase.auth.getClaims()` verify access tokens locally through the JWKS endpoint.
 */
export class TokenService {
  private constructor(
    private readonly privateKey: SigningKey,
    private readonly publicKey: SigningKey,
    readonly kid: string,
    readonly publicJwk: JWK,
  ) {}

  static async create(privateJwk: JWK): Promise<TokenService> {
    if (!privateJwk.kid) throw new Error("the gateway's private JWK needs a kid (clients pick the JWKS key by kid)");
    const publicJwk = publicJwkOf(privateJwk);
    const privateKey = await importJWK(privateJwk, "ES256");
    const publicKey = await importJWK({ ...publicJwk, key_ops: undefined }, "ES256");
    return new TokenService(privateKey, publicKey, privateJwk.kid, publicJwk);
  }

  /** Sign `claims` (which must include iat and exp) with the stack's key, kid in the header like GoTrue. */
  async sign(claims: Record<string, unknown>): Promise<string> {
    return new SignJWT(claims).setProtectedHeader({ alg: "ES256", kid: this.kid, typ: "JWT" }).sign(this.privateKey);
  }

  async verify(token: string): Promise<VerifyResult> {
    if (!token) return { ok: false, failure: { kind: "decode", message: "Empty JWT is sent in Authorization header" } };
    const parts = token.split(".").length;
    if (parts !== 3) return { ok: false, failure: { kind: "decode", message: `Expected 3 parts in JWT; got ${parts}` } };
    try {
      const { payload } = await jwtVerify(token, this.publicKey, { algorithms: ["ES256"] });
      return { ok: true, claims: payload as VerifiedClaims };
    } catch (e) {
      if (e instanceof joseErrors.JWTExpired) return { ok: false, failure: { kind: "expired", message: "JWT expired" } };
      if (e instanceof joseErrors.JWTClaimValidationFailed) {
        return { ok: false, failure: { kind: "claims", message: e.message } };
      }
      if (e instanceof joseErrors.JOSEAlgNotAllowed) {
        return { ok: false, failure: { kind: "decode", message: "Wrong or unsupported encoding algorithm" } };
      }
      if (e instanceof joseErrors.JWSSignatureVerificationFailed) {
        return { ok: false, failure: { kind: "decode", message: "JWT cryptographic operation failed" } };
      }
      return { ok: false, failure: { kind: "decode", message: "JWT couldn't be decoded" } };
    }
  }
}

/** `Authorization: Bearer <token>` → token; anything else → null. */
export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const m = /^\s*bearer\s+(\S+)\s*$/i.exec(header);
  return m ? m[1] : null;
}
