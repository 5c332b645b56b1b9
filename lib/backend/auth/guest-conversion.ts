import { guestMeter } from "@/lib/backend/guest";
import { logger } from "@/lib/logger";

/**
 * A visitor who has just created an account (and is signed in by it) ends their guest session, the same step as
 * POST /api/guest/convert (R-STA-016): otherwise, once signed out again, they would keep the spent allowance.
 * Unlike the convert route this never fails the request: the account exists already, and the session still expires
 * on its own (D-12). Returns how many sessions were deleted (0 or 1).
 */
export async function endGuestSessionAfterSignUp(guestCookie: string | null): Promise<number> {
  try {
    return await guestMeter().remove(guestCookie);
  } catch (e) {
    logger.warn({ err: e instanceof Error ? e.message : String(e) }, "sign-up: guest session not ended (limits store unavailable)");
    return 0;
  }
}
