import { withRoute } from "@/lib/api/route";
import { provision, ProvisionQuery } from "@/lib/backend/legislation";

export const dynamic = "force-dynamic";

/**
 * GET /api/legislation/{id}: a provision (PL/kk/279/§1, UK/ukpga/1861/100/s18) and the judgments applying it, with
 * counts per year and outcome; filters, sort and paging like the cited-by list; `format=csv` for the whole list.
 */
export const GET = withRoute({ auth: "public", query: ProvisionQuery }, async ({ params, query, identity }) => provision(params.id, query, identity));
