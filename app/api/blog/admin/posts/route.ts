import { withRoute } from "@/lib/api/route";
import { BlogAdminListQuery } from "@/lib/api/content-queries";
import { adminCreatePost, adminListPosts } from "@/lib/backend/content/blog";
import { CreateBlogPostSchema } from "@/lib/schema/requests/content";

export const dynamic = "force-dynamic";

/** GET /api/blog/admin/posts?page&limit&status&q → every post (any status), most recently edited first. */
export const GET = withRoute({ auth: "admin", query: BlogAdminListQuery }, async ({ db, query }) => adminListPosts(db, query));

/**
 * POST /api/blog/admin/posts {title, slug?, excerpt?, body?, category?, tags?, status?, published_at?, author_name?}
 * → 201 the post. The slug is derived from the title unless given and made unique with a suffix.
 */
export const POST = withRoute({ auth: "admin", body: CreateBlogPostSchema, maxBodyBytes: "content" }, async ({ db, identity, body }) =>
  Response.json(await adminCreatePost(db, identity, body), { status: 201 }),
);
