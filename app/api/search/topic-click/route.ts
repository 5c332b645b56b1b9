import { withRoute } from "@/lib/api/route";
import { guestCookieOf } from "@/lib/api/guest-meter";
import { clickTopic } from "@/lib/backend/topics/service";
import { TopicClickSchema } from "@/lib/schema/requests/topics";

export const dynamic = "force-dynamic";

/**
 * POST /api/search/topic-click {topic_id, query?} → 201 {topic_id, recorded} (public with an optional bearer, D-16).
 * Attributed to the user when signed in; a guest's click is counted per device: the browser's device id
 * (X-Device-Id, D-23), else the guest cookie, else a keyed hash of the client address.
 */
export const POST = withRoute({ auth: "public", body: TopicClickSchema }, async ({ req, identity, body, serviceDb, clientAddress }) =>
  Response.json(
    await clickTopic(serviceDb(), body, {
      userId: identity.userId,
      deviceId: req.headers.get("x-device-id"),
      guestSessionId: guestCookieOf(req),
      address: clientAddress,
    }),
    { status: 201 },
  ),
);
