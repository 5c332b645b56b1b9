import { after } from "next/server";
import { withRoute } from "@/lib/api/route";
import { signOut } from "@/lib/backend/auth/session";
import { emitServerEvent } from "@/lib/backend/events";

/**
 * POST /api/auth/sign-out → {signed_out}. A real sign-out records `auth_signed_out` server side (R-EVT-027, D-25: the
 * browser may not send auth_* events), written after the response and never failing the sign-out.
 */
export const POST = withRoute({ auth: "public" }, async ({ db, serviceDb }) => {
  const userId = await signOut(db);
  if (userId !== null) after(() => emitServerEvent({ name: "auth_signed_out", userId, surface: "web", db: serviceDb() }));
  return { signed_out: userId !== null };
});
