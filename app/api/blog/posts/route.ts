import { withRoute } from "@/lib/api/route";
import { BlogListQuery } from "@/lib/api/content-queries";
import { listPublicPosts } from "@/lib/backend/content/blog";

export const dynamic = "force-dynamic";

/**
 * GET /api/blog/posts?page&limit&category&tag&q&sort=published_at|title&order=desc|asc → {posts, total, page, per_page,
 * pages}: published posts whose date has come. limit is clamped to 1..BLOG_PAGE_SIZE_MAX (50), page to ≥ 1; `q` is a
 * literal, case-insensitive substring of title, excerpt or body.
 */
export const GET = withRoute({ auth: "public", query: BlogListQuery }, async ({ db, query }) => listPublicPosts(db, query));
