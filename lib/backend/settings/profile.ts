/**
 * /settings Profile and Alerts: display name, interface language (also the digests' language),
 * pausing every alert at once, changing the password (the current one required) and deleting the account.
 */
import { z } from "zod";
import { ApiError, fromAuthError, fromDatabaseError } from "@/lib/errors";
import type { DbClient } from "@/lib/supabase/db-client";
import { jsonArg } from "@/lib/supabase/json";
import { createTokenClient } from "@/lib/supabase/server";
import { DELETE_ACCOUNT_CONFIRMATION } from "@/lib/schema/requests/accounts";
import { logger } from "@/lib/logger";
import type { Identity } from "../identity";

/** GET/PATCH /api/settings/profile. */
export interface Profile {
  email: string | null;
  display_name: string | null;
  language: "en" | "pl";
  alerts_paused: boolean;
}

const Row = z.object({
  display_name: z.string().nullable(),
  language: z.enum(["en", "pl"]).catch("en"),
  alerts_paused: z
    .boolean()
    .nullable()
    .transform((b) => b ?? false),
});

export async function getProfile(identity: Identity): Promise<Profile> {
  const { data, error } = await identity.db.rpc("get_my_settings");
  if (error) throw fromDatabaseError(error);
  return { email: identity.email, ...Row.parse(data) };
}

export async function updateProfile(
  identity: Identity,
  patch: { display_name?: string | null; language?: "en" | "pl"; alerts_paused?: boolean },
): Promise<Profile> {
  const { data, error } = await identity.db.rpc("update_my_settings", { p_patch: jsonArg(patch) });
  if (error) throw fromDatabaseError(error);
  return { email: identity.email, ...Row.parse(data) };
}

/**
 * Change the password: the current one is checked by signing in with it on a fresh client (the session of this
 * request is left alone), then the new one is set through the Auth admin API for exactly this user. Then every
 * session of the account ends except a new one for this caller: a session cookie is re-issued (a sign-in with the
 * new password through the request's own client, which writes the cookies), and the Auth server's sign-out with
 * scope "others" on that new session revokes the rest, this request's old session included, so a refresh token
 * copied from any earlier session stops working. A bearer caller gets no new token here and signs in again.
 * Access tokens already issued stay valid until they expire (JWT_EXPIRY, an hour by default; docs/accounts.md).
 */
export async function changePassword(identity: Identity, serviceDb: DbClient, body: { current_password: string; new_password: string }): Promise<void> {
  if (!identity.userId || !identity.email) throw new ApiError("UNAUTHORIZED");
  const probe = createTokenClient();
  const { error: wrong } = await probe.auth.signInWithPassword({ email: identity.email, password: body.current_password });
  if (wrong) {
    if (wrong.status === 400 || wrong.status === 401) throw new ApiError("CURRENT_PASSWORD_WRONG");
    throw fromAuthError(wrong);
  }
  // The probe's session is kept nowhere; end it so it does not linger in the gateway.
  await probe.auth.signOut({ scope: "local" }).catch(() => undefined);
  const { error } = await serviceDb.auth.admin.updateUserById(identity.userId, { password: body.new_password });
  if (error) throw fromAuthError(error);
  await endOtherSessions(identity, serviceDb, identity.email, body.new_password);
}

/** Sign in with the new password (the caller's cookie client re-issues the cookie), then revoke every other session. */
async function endOtherSessions(identity: Identity, serviceDb: DbClient, email: string, password: string): Promise<void> {
  const client = identity.via === "session" ? identity.db : createTokenClient();
  const { data, error } = await client.auth.signInWithPassword({ email, password });
  if (error || !data.session) throw error ? fromAuthError(error) : new ApiError("AUTH_REJECTED");
  const { error: revoke } = await serviceDb.auth.admin.signOut(data.session.access_token, "others");
  if (revoke) throw fromAuthError(revoke);
  if (identity.via !== "session") await client.auth.signOut({ scope: "local" }).catch(() => undefined);
}

/**
 * Delete the account after the typed confirmation: the Auth user goes, and with it (foreign keys, on delete cascade)
 * collections, saved searches, alert deliveries, settings and API keys; search analytics rows stay with user_id null.
 */
export async function deleteAccount(identity: Identity, serviceDb: DbClient, confirmation: string): Promise<void> {
  if (!identity.userId) throw new ApiError("UNAUTHORIZED");
  if (confirmation !== DELETE_ACCOUNT_CONFIRMATION) throw new ApiError("CONFIRMATION_MISMATCH");
  const { error } = await serviceDb.auth.admin.deleteUser(identity.userId);
  if (error) throw fromAuthError(error);
  // The session's refresh token died with the user; clearing the cookies is best effort.
  await identity.db.auth
    .signOut({ scope: "local" })
    .catch((e: unknown) => logger.debug({ err: String(e) }, "sign-out after account deletion"));
}
