import { withRoute } from "@/lib/api/route";
import { submitContact } from "@/lib/backend/content/contact";
import { ContactSchema } from "@/lib/schema/requests/content";

export const dynamic = "force-dynamic";

/**
 * POST /api/contact {name, email, subject?, message, website} → 202 {status: "received"}. `website` is a honeypot:
 * filled, the answer is the same and nothing is stored. At most QUOTA_CONTACT_PER_HOUR (5) per client address → 429.
 */
export const POST = withRoute({ auth: "public", body: ContactSchema, quota: "contact" }, async ({ body, serviceDb }) =>
  Response.json(await submitContact(serviceDb(), body), { status: 202 }),
);
