import type { User } from "@supabase/supabase-js";
import type { DbClient } from "@/lib/supabase/db-client";
import { ApiError, fromAuthError } from "@/lib/errors";
import type { Credentials } from "@/lib/schema/requests/auth";

export interface PublicUser {
  id: string;
  email: string | null;
  role: "user" | "admin";
}

export function publicUser(user: User): PublicUser {
  return { id: user.id, email: user.email ?? null, role: user.app_metadata?.role === "admin" ? "admin" : "user" };
}

/** Sign up with e-mail and password; on the local stack (like Supabase's local default) no confirmation e-mail is needed. */
export async function signUp(db: DbClient, { email, password }: Credentials): Promise<{ user: PublicUser; signedIn: boolean }> {
  const { data, error } = await db.auth.signUp({ email, password });
  if (error) throw fromAuthError(error);
  if (!data.user) throw new ApiError("AUTH_ERROR", "Sign-up returned no user.");
  return { user: publicUser(data.user), signedIn: Boolean(data.session) };
}

export async function signIn(db: DbClient, { email, password }: Credentials): Promise<PublicUser> {
  const { data, error } = await db.auth.signInWithPassword({ email, password });
  if (error) throw fromAuthError(error);
  return publicUser(data.user);
}

/** Sign out everywhere this session reaches; returns the user id that was signed out, if any. */
export async function signOut(db: DbClient): Promise<string | null> {
  const { data } = await db.auth.getUser();
  const { error } = await db.auth.signOut({ scope: "local" });
  if (error && error.status !== 401 && error.status !== 403) throw fromAuthError(error);
  return data.user?.id ?? null;
}
