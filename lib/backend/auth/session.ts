import type { AuthError, SupabaseClient, User } from "@supabase/supabase-js";
import { ApiError } from "@/lib/api/errors";
import type { Credentials } from "@/lib/schema/requests/auth";

export interface PublicUser {
  id: string;
  email: string | null;
  role: "user" | "admin";
}

export function publicUser(user: User): PublicUser {
  return { id: user.id, email: user.email ?? null, role: user.app_metadata?.role === "admin" ? "admin" : "user" };
}

/** Supabase Auth errors keep their status; their code becomes ours in upper case (e.g. invalid_credentials → INVALID_CREDENTIALS). */
function authError(error: AuthError): ApiError {
  const status = error.status && error.status >= 400 && error.status < 600 ? error.status : 500;
  if (status >= 500) return new ApiError(503, "AUTH_UNAVAILABLE", "The sign-in service is unavailable. Try again shortly.");
  const code = (error.code ?? "auth_error").toUpperCase();
  return new ApiError(status, code, error.message);
}

/** Sign up with e-mail and password; on the local stack (like Supabase's local default) no confirmation e-mail is needed. */
export async function signUp(db: SupabaseClient, { email, password }: Credentials): Promise<{ user: PublicUser; signedIn: boolean }> {
  const { data, error } = await db.auth.signUp({ email, password });
  if (error) throw authError(error);
  if (!data.user) throw new ApiError(500, "AUTH_ERROR", "Sign-up returned no user.");
  return { user: publicUser(data.user), signedIn: Boolean(data.session) };
}

export async function signIn(db: SupabaseClient, { email, password }: Credentials): Promise<PublicUser> {
  const { data, error } = await db.auth.signInWithPassword({ email, password });
  if (error) throw authError(error);
  return publicUser(data.user);
}

/** Sign out everywhere this session reaches; returns the user id that was signed out, if any. */
export async function signOut(db: SupabaseClient): Promise<string | null> {
  const { data } = await db.auth.getUser();
  const { error } = await db.auth.signOut({ scope: "local" });
  if (error && error.status !== 401 && error.status !== 403) throw authError(error);
  return data.user?.id ?? null;
}
