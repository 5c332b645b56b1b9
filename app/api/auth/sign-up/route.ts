import { withRoute } from "@/lib/api/route";
import { signUp } from "@/lib/backend/auth/session";
import { CredentialsSchema } from "@/lib/schema/requests/auth";

export const POST = withRoute({ auth: "public", body: CredentialsSchema, maxBodyBytes: "credentials" }, async ({ body, db }) => {
  const result = await signUp(db, body);
  return Response.json(result, { status: 201 });
});
