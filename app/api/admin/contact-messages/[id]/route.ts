import { withRoute } from "@/lib/api/route";
import { contactMessageId, setContactStatus } from "@/lib/backend/content/contact";
import { ContactStatusSchema } from "@/lib/schema/requests/content";

export const dynamic = "force-dynamic";

/** PATCH /api/admin/contact-messages/{id} {status: new | read | archived}; 404 CONTACT_MESSAGE_NOT_FOUND. */
export const PATCH = withRoute({ auth: "admin", body: ContactStatusSchema }, async ({ db, identity, params, body }) =>
  setContactStatus(db, identity, contactMessageId(params.id), body.status),
);
