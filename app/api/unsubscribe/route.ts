import { withRoute } from "@/lib/api/route";
import { unsubscribe } from "@/lib/backend/alerts/unsubscribe";
import { UnsubscribeQuery } from "@/lib/schema/requests/accounts";

export const dynamic = "force-dynamic";

/**
 * POST /api/unsubscribe {token} → {unsubscribed, name}: public (the link in a digest works without signing in); the
 * signed one-use token is the authority. 400 UNSUBSCRIBE_TOKEN_INVALID for a forged or used token. A POST, not a GET,
 * so a mail scanner that fetches links cannot turn alerts off; the /unsubscribe page asks first.
 */
export const POST = withRoute({ auth: "public", body: UnsubscribeQuery }, async ({ body, serviceDb }) => unsubscribe(serviceDb(), body.token));
