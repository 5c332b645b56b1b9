import { withRoute } from "@/lib/api/route";
import { getPublicPost, recordView, viewDevice } from "@/lib/backend/content/blog";

export const dynamic = "force-dynamic";

/**
 * GET /api/blog/posts/{slug} → the post with `body`, reading time and prev/next; 404 POST_NOT_FOUND for drafts,
 * archived, scheduled and unknown slugs alike. Counts a view once per device per day (docs/content.md).
 */
export const GET = withRoute({ auth: "public" }, async ({ db, params, clientAddress, serviceDb }) => {
  const post = await getPublicPost(db, params.slug ?? "");
  await recordView(serviceDb(), post.id, viewDevice(clientAddress));
  return post;
});
