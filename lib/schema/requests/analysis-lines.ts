/** Request schemas of the judge fingerprint and reasoning-line routes; the pages validate with them too. */
import { z } from "zod";
import { safeText } from "@/lib/schema/text";
import { uuidSchema } from "../uuid";

const int32 = z.int().min(-2_147_483_648).max(2_147_483_647);

/** GET /api/judge-fingerprint/search?q=&limit= (q: at least 2 characters). */
export const JudgeSearchQuerySchema = z.strictObject({
  q: safeText().trim().min(2, "at least 2 characters").max(200),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

/** GET /api/judge-fingerprint/compare?judges=A,B[,C] (the count is checked by the backend: 2-3 names, else 422). */
export const JudgeCompareQuerySchema = z.strictObject({
  judges: safeText().min(1).max(700),
});

/**
 * POST /api/reasoning-lines/discover without its filter object: the page's form validates with this. The request
 * schema (./discover.ts) adds `filters`, kept apart so the page does not load the field registry.
 */
export const DiscoverFieldsSchema = z.strictObject({
  text_query: safeText().max(500).nullable().optional(),
  sample_size: z.int().min(20).max(500).default(200),
  num_clusters: z.int().min(2).max(20).default(6),
  seed: int32.default(42),
});

export const MemberRoleSchema = z.enum(["origin", "follows", "distinguishes", "departs"]);

/** POST /api/reasoning-lines/create: from a candidate (its members) or from a list of judgment ids. */
export const CreateLineSchema = z
  .strictObject({
    label: safeText().trim().min(1).max(200),
    description: safeText().max(2000).nullable().optional(),
    keywords: z.array(safeText().trim().min(1).max(100)).max(50).default([]),
    legal_question: safeText().max(1000).nullable().optional(),
    judgment_ids: z.array(uuidSchema).min(1).max(500).optional(),
    members: z
      .array(
        z.strictObject({
          judgment_id: uuidSchema,
          similarity: z.number().min(-1).max(1).optional(),
          role: MemberRoleSchema.optional(),
        }),
      )
      .min(1)
      .max(500)
      .optional(),
  })
  .refine((b) => (b.judgment_ids === undefined) !== (b.members === undefined), {
    message: "give either judgment_ids or members",
    path: ["judgment_ids"],
  });
export type CreateLineRequest = z.infer<typeof CreateLineSchema>;

/** GET /api/reasoning-lines/?page=&limit=&include_deleted= */
export const ListLinesQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  include_deleted: z.enum(["true", "false"]).default("false"),
});

/** GET /api/reasoning-lines/{id}[/...]?include_deleted= */
export const LineReadQuerySchema = z.strictObject({
  include_deleted: z.enum(["true", "false"]).default("false"),
});

/** POST /api/reasoning-lines/search. */
export const SearchLinesSchema = z.strictObject({ q: safeText().trim().min(1).max(200) });

/** POST /api/reasoning-lines/detect-events: every active line, or the ones listed. */
export const DetectEventsSchema = z.strictObject({ line_ids: z.array(uuidSchema).min(1).max(100).optional() });
