import { createSessionClient } from "@/lib/supabase/server";

export interface SessionUser {
  id: string;
  email: string | null;
  role: "user" | "admin";
}

/**
 * The signed-in user for server-rendered pages (header state, gated pages), read from the session cookies with
 * getClaims() (local JWT verification; writes re-check with getUser() in the route handlers). Null when signed out or
 * when the auth backend is not configured — a page must still render then.
 */
export async function getSessionUser(): Promise<SessionUser | null> {
  try {
    const db = await createSessionClient();
    const { data, error } = await db.auth.getClaims();
    const claims = data?.claims as { sub?: string; email?: string; role?: string; app_metadata?: { role?: string } } | undefined;
    if (error || !claims?.sub || claims.role !== "authenticated") return null;
    return { id: claims.sub, email: claims.email ?? null, role: claims.app_metadata?.role === "admin" ? "admin" : "user" };
  } catch {
    return null;
  }
}
