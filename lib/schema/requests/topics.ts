/**
 * Request schemas of topic modelling and the topics routes (issue 16, item 1). The page's run form validates with
 * AnalyzeTopicsSchema too, so a value the form accepts is one the API accepts. Ranges are the issue's; the sample
 * ceiling and the trending limit come from lib/config.ts.
 */
import { z } from "zod";
import { config } from "@/lib/config";
import { uuidSchema } from "../uuid";
import { pageLimitParam, pageOffsetParam } from "./paging";

const int32 = z.int().min(-2_147_483_648).max(2_147_483_647);

/** POST /api/topic-modeling/analyze. `filters` is checked by the one filter parser (FILTER_INVALID naming the key). */
export const AnalyzeTopicsSchema = z.strictObject({
  sample_size: z
    .int()
    .min(20)
    .refine((n) => n <= config().TOPIC_SAMPLE_SIZE_MAX, { message: "sample_size is above TOPIC_SAMPLE_SIZE_MAX" })
    .default(500),
  num_topics: z.int().min(2).max(30).default(8),
  num_keywords: z.int().min(3).max(15).default(8),
  time_periods: z.int().min(2).max(12).default(6),
  jurisdiction: z.array(z.enum(["PL", "UK"])).min(1).max(2).optional(),
  filters: z.unknown().optional(),
  seed: int32.default(42),
});
export type AnalyzeTopicsRequest = z.infer<typeof AnalyzeTopicsSchema>;
/** What the form edits (before defaults are applied). */
export type AnalyzeTopicsInput = z.input<typeof AnalyzeTopicsSchema>;

/** GET /api/topic-modeling/runs?limit=&offset= */
export const TopicRunsQuerySchema = z.strictObject({
  limit: pageLimitParam(),
  offset: pageOffsetParam(),
});

/** The id of a run in a path. */
export const TopicRunIdSchema = uuidSchema;

/** GET /api/search/topics/trending?limit= (default 10). */
export const TrendingQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(30).default(10),
});

/** A topic of the topics index: `<run_id>_<topic>` (lib/search/types.ts TopicIndexEntry). */
export const TOPIC_ID_PATTERN = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})_(\d{1,2})$/;

/** POST /api/search/topic-click {topic_id, query?}. */
export const TopicClickSchema = z.strictObject({
  topic_id: z.string().max(64).regex(TOPIC_ID_PATTERN, "must be a topic id from the topics index (<run_id>_<n>)"),
  query: z.string().max(200).optional(),
});

/** GET /api/search/topics/my-clicks?limit= */
export const MyClicksQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
