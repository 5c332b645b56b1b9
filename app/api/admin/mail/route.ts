import { withRoute } from "@/lib/api/route";
import { listMail } from "@/lib/backend/admin-mail";
import { MailListQuery } from "@/lib/schema/requests/accounts";

export const dynamic = "force-dynamic";

/** GET /api/admin/mail?limit=&offset= → the local SMTP server's messages, newest first (admins only). */
export const GET = withRoute({ auth: "admin", query: MailListQuery }, async ({ db, query }) => listMail(db, query));
