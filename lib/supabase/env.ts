import { config } from "@/lib/config";
import { ApiError } from "@/lib/errors";

/** Supabase address and keys, or a 503 DATABASE_UNAVAILABLE when the service has none configured. */
export function supabaseEnv(): { url: string; anonKey: string; serviceRoleKey?: string } {
  const c = config();
  if (!c.SUPABASE_URL || !c.SUPABASE_ANON_KEY) {
    throw new ApiError("DATABASE_UNAVAILABLE", "The database is not configured.");
  }
  return { url: c.SUPABASE_URL, anonKey: c.SUPABASE_ANON_KEY, serviceRoleKey: c.SUPABASE_SERVICE_ROLE_KEY };
}
