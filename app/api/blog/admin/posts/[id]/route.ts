import { withRoute } from "@/lib/api/route";
import { adminDeletePost, adminGetPost, adminPatchPost, postId } from "@/lib/backend/content/blog";
import { PatchBlogPostSchema } from "@/lib/schema/requests/content";

export const dynamic = "force-dynamic";

/** GET /api/blog/admin/posts/{id} → the post in any status; 404 POST_NOT_FOUND. */
export const GET = withRoute({ auth: "admin" }, async ({ db, params }) => adminGetPost(db, postId(params.id)));

/** PATCH /api/blog/admin/posts/{id}: any field; publishing stamps published_at now unless given (future = scheduled). */
export const PATCH = withRoute({ auth: "admin", body: PatchBlogPostSchema, maxBodyBytes: "content" }, async ({ db, identity, params, body }) =>
  adminPatchPost(db, identity, postId(params.id), body),
);

/** DELETE /api/blog/admin/posts/{id} → 204. */
export const DELETE = withRoute({ auth: "admin" }, async ({ db, identity, params }) => {
  await adminDeletePost(db, identity, postId(params.id));
  return new Response(null, { status: 204 });
});
