import { after } from "next/server";
import { z } from "zod";
import { guestCookieOf } from "@/lib/api/guest-meter";
import { withRoute } from "@/lib/api/route";
import { stampEvents, validateEventBatch, writeEvents } from "@/lib/backend/events";

export const dynamic = "force-dynamic";

/**
 * Product events from browsers (and API-key servers): validated whole (422 naming a bad event, nothing stored),
 * every auth_* refused, identity stamped from the caller's token, 202 at once; the write runs after the response
 * (`after()`), and its failures are only logged (spec: Events, capture path).
 */
export const POST = withRoute({ auth: "public", body: z.unknown(), maxBodyBytes: "events" }, async ({ req, body, identity, serviceDb }) => {
  const events = validateEventBatch(body);
  const rows = stampEvents(events, { userId: identity.userId, surface: identity.apiKey ? "api" : "web", guestCookie: guestCookieOf(req) });
  after(() => writeEvents(serviceDb(), rows));
  return Response.json({ accepted: rows.length }, { status: 202 });
});
