import { ApiError } from "@/lib/errors";
import { guestCookie, guestCookieOf } from "@/lib/api/guest-meter";
import { withRoute } from "@/lib/api/route";
import { guestMeter } from "@/lib/backend/guest";
import { logger } from "@/lib/logger";

export const dynamic = "force-dynamic";

/**
 * A visitor who just created an account ends their guest session (spec: guest allowance, "POST /api/guest/convert").
 * The session is deleted and the count reported; search history is not re-keyed. The cookie is cleared either way.
 */
export const POST = withRoute({ auth: "user" }, async ({ req }) => {
  let deleted: number;
  try {
    deleted = await guestMeter().remove(guestCookieOf(req));
  } catch (e) {
    logger.warn({ err: e instanceof Error ? e.message : String(e) }, "guest convert: limits store unavailable");
    throw new ApiError("GUEST_STORE_UNAVAILABLE", "The guest session could not be ended right now. Try again shortly.");
  }
  return Response.json({ deleted }, { headers: { "Set-Cookie": guestCookie("", 0) } });
});
