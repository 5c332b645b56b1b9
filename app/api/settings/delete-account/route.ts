import { withRoute } from "@/lib/api/route";
import { deleteAccount } from "@/lib/backend/settings/profile";
import { DeleteAccountSchema } from "@/lib/schema/requests/accounts";

export const dynamic = "force-dynamic";

/** POST /api/settings/delete-account {confirmation: "DELETE"} → 204; any other text is 422 CONFIRMATION_MISMATCH. */
export const POST = withRoute({ auth: "user", body: DeleteAccountSchema }, async ({ identity, body, serviceDb }) => {
  await deleteAccount(identity, serviceDb(), body.confirmation);
  return new Response(null, { status: 204 });
});
