import { withRoute } from "@/lib/api/route";
import { createCohort } from "@/lib/backend/cohorts/citations";
import { CreateCohortSchema } from "@/lib/schema/requests/cohorts";

export const dynamic = "force-dynamic";

/** POST /api/cohorts {filters, text_query?, seed?} (signed in) → 201 {id, url, members_count, corpus_version, created_at}. */
export const POST = withRoute({ auth: "user", body: CreateCohortSchema }, async ({ body, db }) =>
  Response.json(await createCohort(db, body), { status: 201 }),
);
