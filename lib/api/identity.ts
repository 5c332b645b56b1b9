import type { SupabaseClient } from "@supabase/supabase-js";
import { createSessionClient, createTokenClient } from "@/lib/supabase/server";

export type Role = "anonymous" | "user" | "admin";

export interface Identity {
  role: Role;
  userId: string | null;
  email: string | null;
  /** How the caller proved who they are. */
  via: "session" | "bearer" | "none";
  /** A client acting as this caller (RLS applies). */
  db: SupabaseClient;
}

interface Claims {
  sub?: string;
  email?: string;
  role?: string;
  app_metadata?: { role?: string };
}

function roleOf(claims: Claims | null): Role {
  if (!claims?.sub || claims.role !== "authenticated") return "anonymous";
  return claims.app_metadata?.role === "admin" ? "admin" : "user";
}

function bearerOf(req: Request): string | null {
  const h = req.headers.get("authorization");
  const m = h?.match(/^Bearer\s+(\S+)$/i);
  return m ? m[1] : null;
}

/**
 * Resolve who is calling: a bearer token (servers, API clients) or the cookie session (browsers).
 * Reads verify the JWT locally with getClaims() (asymmetric keys); `strict` (used before writes) asks the auth server
 * with getUser() so a signed-out or deleted account is refused even while its token has not expired.
 */
export async function resolveIdentity(req: Request, { strict }: { strict: boolean }): Promise<Identity> {
  const bearer = bearerOf(req);
  const db = bearer ? createTokenClient(bearer) : await createSessionClient();
  const via: Identity["via"] = bearer ? "bearer" : "session";
  const anonymous = (): Identity => ({ role: "anonymous", userId: null, email: null, via: "none", db: bearer ? createTokenClient() : db });

  const { data, error } = bearer ? await db.auth.getClaims(bearer) : await db.auth.getClaims();
  if (error || !data?.claims) return anonymous();
  const claims = data.claims as Claims;
  const role = roleOf(claims);
  if (role === "anonymous") return anonymous();
  if (strict) {
    const { data: userData, error: userError } = bearer ? await db.auth.getUser(bearer) : await db.auth.getUser();
    if (userError || !userData.user || userData.user.id !== claims.sub) return anonymous();
    const strictRole: Role = userData.user.app_metadata?.role === "admin" ? "admin" : "user";
    return { role: strictRole, userId: userData.user.id, email: userData.user.email ?? null, via, db };
  }
  return { role, userId: claims.sub ?? null, email: claims.email ?? null, via, db };
}
