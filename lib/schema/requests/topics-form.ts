/**
 * The fields of a topic run with the ranges, free of server settings so the /topics form can
 * validate with them in the browser. The API schema (./topics.ts AnalyzeTopicsSchema) is this object plus the
 * configured sample ceiling and the filter object, so the form accepts nothing the API refuses.
 */
import { z } from "zod";

export const TOPIC_RUN_DEFAULTS = { sample_size: 500, num_topics: 8, num_keywords: 8, time_periods: 6, seed: 42 } as const;

export const TopicRunFieldsSchema = z.strictObject({
  sample_size: z.int().min(20).max(2000).default(TOPIC_RUN_DEFAULTS.sample_size),
  num_topics: z.int().min(2).max(30).default(TOPIC_RUN_DEFAULTS.num_topics),
  num_keywords: z.int().min(3).max(15).default(TOPIC_RUN_DEFAULTS.num_keywords),
  time_periods: z.int().min(2).max(12).default(TOPIC_RUN_DEFAULTS.time_periods),
  jurisdiction: z.array(z.enum(["PL", "UK"])).min(1).max(2).optional(),
  seed: z.int().min(-2_147_483_648).max(2_147_483_647).default(TOPIC_RUN_DEFAULTS.seed),
});
export type TopicRunFields = z.infer<typeof TopicRunFieldsSchema>;
