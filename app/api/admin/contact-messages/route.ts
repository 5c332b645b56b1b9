import { withRoute } from "@/lib/api/route";
import { ContactListQuery } from "@/lib/api/content-queries";
import { listContactMessages } from "@/lib/backend/content/contact";

export const dynamic = "force-dynamic";

/** GET /api/admin/contact-messages?page&limit&status → {messages, total, page, per_page, pages}, newest first. */
export const GET = withRoute({ auth: "admin", query: ContactListQuery }, async ({ db, query }) => listContactMessages(db, query));
