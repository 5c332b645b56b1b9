/**
 * Request schemas of topic modelling and the topics routes. The page's run form validates with the
 * same fields (./topics-form.ts), so a value the form accepts is one the API accepts. Ranges are the issue's; the
 * sample ceiling comes from lib/config.ts.
 */
import { z } from "zod";
import { safeText } from "@/lib/schema/text";
import { config } from "@/lib/config";
import { pageLimitParam, pageOffsetParam } from "./paging";
import { TopicRunFieldsSchema } from "./topics-form";
import { filtersField } from "../filters";

/**
 * POST /api/topic-modeling/analyze: the form's fields (./topics-form.ts) plus `filters` (checked by the one filter
 * parser, FILTER_INVALID naming the key) and the configured sample ceiling (TOPIC_SAMPLE_SIZE_MAX, at most the
 * issue's 2,000).
 */
export const AnalyzeTopicsSchema = TopicRunFieldsSchema.extend({ filters: filtersField({ collectionIds: "refuse" }) }).superRefine((v, ctx) => {
  const max = config().TOPIC_SAMPLE_SIZE_MAX;
  if (v.sample_size > max) ctx.addIssue({ code: "custom", path: ["sample_size"], message: `at most ${max} (TOPIC_SAMPLE_SIZE_MAX)` });
});
export type AnalyzeTopicsRequest = z.infer<typeof AnalyzeTopicsSchema>;

/** GET /api/topic-modeling/runs?limit=&offset= */
export const TopicRunsQuerySchema = z.strictObject({
  limit: pageLimitParam(),
  offset: pageOffsetParam(),
});

/** GET /api/search/topics/trending?limit= (default 10). */
export const TrendingQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(30).default(10),
});

/** A topic of the topics index: `<run_id>_<topic>` (lib/search/types.ts TopicIndexEntry). */
export const TOPIC_ID_PATTERN = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})_(\d{1,2})$/;

/** POST /api/search/topic-click {topic_id, query?}. */
export const TopicClickSchema = z.strictObject({
  topic_id: safeText().max(64).regex(TOPIC_ID_PATTERN, "must be a topic id from the topics index (<run_id>_<n>)"),
  query: safeText().max(200).optional(),
});

/** GET /api/search/topics/my-clicks?limit= */
export const MyClicksQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
