import { withRoute } from "@/lib/api/route";
import { PublicationListQuery } from "@/lib/api/content-queries";
import { createPublication, listPublications } from "@/lib/backend/content/publications";
import { CreatePublicationSchema } from "@/lib/schema/requests/content";

export const dynamic = "force-dynamic";

/**
 * GET /api/publications?page&limit&kind&year&status → {publications, total, page, per_page, pages, facets}: published
 * records for everyone (status=draft|all shows drafts to admins only); limit clamped to 1..50.
 */
export const GET = withRoute({ auth: "public", query: PublicationListQuery }, async ({ db, identity, query }) => listPublications(db, identity, query));

/** POST /api/publications (admin) → 201 the record. */
export const POST = withRoute({ auth: "admin", body: CreatePublicationSchema }, async ({ db, identity, body }) =>
  Response.json(await createPublication(db, identity, body), { status: 201 }),
);
