/**
 * The unsubscribe link of a digest, used without signing in: a token we signed (./token.ts) turns the alert of its
 * saved search off, once — using it rotates the search's nonce, so the same link then answers 400.
 */
import { ApiError, fromDatabaseError } from "@/lib/errors";
import type { DbClient } from "@/lib/supabase/db-client";
import { unsubscribeSecret, verifyUnsubscribeToken } from "./token";

/** POST /api/unsubscribe. */
export interface UnsubscribeBody {
  unsubscribed: true;
  name: string;
}

export async function unsubscribe(serviceDb: DbClient, token: string, secret = unsubscribeSecret()): Promise<UnsubscribeBody> {
  const ids = verifyUnsubscribeToken(token, secret);
  if (!ids) throw new ApiError("UNSUBSCRIBE_TOKEN_INVALID");
  // Service role: the link works for a visitor who is not signed in; the signature and the nonce are the authority.
  const { data, error } = await serviceDb.rpc("unsubscribe_saved_search", { p_id: ids.savedSearchId, p_nonce: ids.nonce });
  if (error) throw fromDatabaseError(error);
  if (typeof data !== "string") throw new ApiError("UNSUBSCRIBE_TOKEN_INVALID");
  return { unsubscribed: true, name: data };
}
