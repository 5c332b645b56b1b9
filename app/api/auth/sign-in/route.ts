import { withRoute } from "@/lib/api/route";
import { signIn } from "@/lib/backend/auth/session";
import { CredentialsSchema } from "@/lib/schema/requests/auth";

export const POST = withRoute({ auth: "public", body: CredentialsSchema, maxBodyBytes: "credentials" }, async ({ body, db }) => ({ user: await signIn(db, body) }));
