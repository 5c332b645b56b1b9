import { after } from "next/server";
import { withRoute } from "@/lib/api/route";
import { NlFilterRequestSchema, nlFilterRequest, recordNlFilterRequest } from "@/lib/backend/extractions/nl-filter";

export const dynamic = "force-dynamic";

/**
 * Natural-language question → `{filters, text_query, mode}` for review (spec: POST /extractions/base-schema/nl-filter).
 * Signed-in users only; without a model the rules translator answers (mode "rules"); with one: 422 NL_FILTER_INVALID,
 * 502 NL_FILTER_FAILED, 504 UPSTREAM_TIMEOUT (D-31). The analytics row is written after the response.
 */
export const POST = withRoute({ auth: "user", body: NlFilterRequestSchema, maxBodyBytes: 16 * 1024 }, async ({ body, identity, serviceDb }) =>
  nlFilterRequest(body.query, identity.userId, { record: (row) => after(() => recordNlFilterRequest(serviceDb, row)) }),
);
