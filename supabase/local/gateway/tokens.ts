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

  /**
   * Tokens whose signature verified, by their text, with their claims (deep-frozen: every caller shares them). An
   * ES256 verification costs ~0.1-0.2 ms of CPU and every RPC checks two tokens (the apikey and the bearer, often the
   * same anon key); a signature over the same bytes verifies the same way every time, so only the time claims are
   * judged again on a hit, exactly as jose judges them (see `timeFailure`). Bounded: the oldest entry goes first.
   */
  private readonly verified = new Map<string, VerifiedClaims>();
  static readonly VERIFIED_CACHE_SIZE = 1000;

  async verify(token: string): Promise<VerifyResult> {
    if (!token) return { ok: false, failure: { kind: "decode", message: "Empty JWT is sent in Authorization header" } };
    const known = this.verified.get(token);
    if (known) {
      const failure = timeFailure(known);
      if (!failure) return { ok: true, claims: known };
      this.verified.delete(token);
      return { ok: false, failure };
    }
    const parts = token.split(".").length;
    if (parts !== 3) return { ok: false, failure: { kind: "decode", message: `Expected 3 parts in JWT; got ${parts}` } };
    try {
      const { payload } = await jwtVerify(token, this.publicKey, { algorithms: ["ES256"] });
      const claims = deepFreeze(payload as VerifiedClaims);
      if (this.verified.size >= TokenService.VERIFIED_CACHE_SIZE) this.verified.delete(this.verified.keys().next().value as string);
      this.verified.set(token, claims);
      return { ok: true, claims };
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

/**
 * jose's time checks of a verified token (jwtVerify with no clock tolerance and no maxTokenAge): not yet valid when
 * nbf > now, expired when exp <= now, in whole seconds. Their types were checked when the token first verified.
 */
function timeFailure(claims: VerifiedClaims): TokenFailure | null {
  const now = Math.floor(Date.now() / 1000);
  if (typeof claims.nbf === "number" && claims.nbf > now) return { kind: "claims", message: '"nbf" claim timestamp check failed' };
  if (typeof claims.exp === "number" && claims.exp <= now) return { kind: "expired", message: "JWT expired" };
  return null;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** `Authorization: Bearer <token>` → token; anything else → null. */
export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const m = /^\s*bearer\s+(\S+)\s*$/i.exec(header);
  return m ? m[1] : null;
}
