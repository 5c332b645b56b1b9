import { withRoute } from "@/lib/api/route";
import { blogCategories } from "@/lib/backend/content/blog";

export const dynamic = "force-dynamic";

/** GET /api/blog/categories → {categories: [{name, count}]} over published posts, most used first. */
export const GET = withRoute({ auth: "public" }, async ({ db }) => blogCategories(db));
