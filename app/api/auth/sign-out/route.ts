import { withRoute } from "@/lib/api/route";
import { signOut } from "@/lib/backend/auth/session";

export const POST = withRoute({ auth: "public" }, async ({ db }) => {
  const userId = await signOut(db);
  return { signed_out: userId !== null };
});
