import { withRoute } from "@/lib/api/route";

export const GET = withRoute({ auth: "public" }, async ({ identity }) => ({
  user: identity.userId ? { id: identity.userId, email: identity.email, role: identity.role } : null,
}));
