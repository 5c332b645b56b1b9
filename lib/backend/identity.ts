import type { DbClient } from "@/lib/supabase/db-client";
import type { VerifiedApiKey } from "./api-keys";

/**
 * Who is calling, as the backend modules see it. Resolved by the web tier (lib/api/identity.ts for requests,
 * lib/api/pages.ts for server-rendered pages) and passed down, so lib/backend never reaches up into lib/api.
 */
export type Role = "anonymous" | "user" | "admin";

export interface Identity {
  role: Role;
  userId: string | null;
  email: string | null;
  /** How the caller proved who they are ("apiKey": the reference API /api/v1, acting as the key's user). */
  via: "session" | "bearer" | "apiKey" | "none";
  /** A client acting as this caller (RLS applies). */
  db: DbClient;
  /**
   * The server API key presented in X-API-Key (server-to-server callers of /api/v1 and /api/events), verified against
   * its stored hash. A key alone is not user authorization (spec: Authentication 2): the user, if any, still comes
   * from the bearer token or the session.
   */
  apiKey?: VerifiedApiKey | null;
  /**
   * Hashed per-user rate-limit identity (spec: Authentication 2): an HMAC of the user id, so limit keys and logs never
   * carry the raw id. Null for anonymous callers.
   */
  rateLimitId?: string | null;
}
