import { notFound } from "@/lib/errors";
import { withRoute } from "@/lib/api/route";

export const dynamic = "force-dynamic";

/**
 * Any /api path no route serves: a JSON 404 instead of Next's HTML page. Not allowlisted, so signed-out callers get
 * the 401 of every other sign-in-required route (an unknown path reveals nothing to them).
 */
const unknownRoute = withRoute({ auth: "public" }, () => {
  throw notFound("API route");
});

export { unknownRoute as GET, unknownRoute as POST, unknownRoute as PUT, unknownRoute as PATCH, unknownRoute as DELETE };
