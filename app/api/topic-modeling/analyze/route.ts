import { withRoute } from "@/lib/api/route";
import { analyzeAndIndex } from "@/lib/backend/topics/service";
import { AnalyzeTopicsSchema } from "@/lib/schema/requests/topics";

export const dynamic = "force-dynamic";

/**
 * POST /api/topic-modeling/analyze {sample_size, num_topics, num_keywords, time_periods, jurisdiction?, filters?, seed?}
 * → {run_id, topics, periods, params, corpus_size, computed_ms, model}. Signed in; counts against the
 * hourly topic-run quota (QUOTA_TOPIC_RUNS_PER_HOUR). The server stores the run as the caller's; an admin's run also
 * becomes the public topics index (P-83).
 */
export const POST = withRoute({ auth: "user", body: AnalyzeTopicsSchema, quota: "topicRuns" }, async ({ db, serviceDb, identity, body }) =>
  analyzeAndIndex(db, serviceDb(), identity, body),
);
