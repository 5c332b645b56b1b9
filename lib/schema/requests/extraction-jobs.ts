/** Request bodies and queries of the extraction job routes. */
import { z } from "zod";
import { safeText } from "@/lib/schema/text";
import { config } from "@/lib/config";
import { uuidSchema } from "@/lib/schema/uuid";

export const JOB_STATUSES = ["queued", "running", "completed", "completed_empty", "completed_with_errors", "failed", "cancelled"] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
export const DOCUMENT_STATUSES = ["pending", "completed", "failed", "skipped"] as const;

/**
 * POST /api/extractions {schema_id | "base", collection_id | document_ids (1-5,000), idempotency_key?,
 * allow_unextractable?}. Without a model, a schema with fields rules cannot fill is refused unless
 * `allow_unextractable` confirms the run (those fields then show as needing a model).
 */
export const createExtractionRequest = () =>
  z
    .object({
      schema_id: z.union([z.literal("base"), uuidSchema]),
      collection_id: uuidSchema.optional(),
      document_ids: z.array(uuidSchema).min(1).max(config().EXTRACTION_MAX_DOCUMENTS).optional(),
      idempotency_key: safeText().trim().min(1).max(200).optional(),
      allow_unextractable: z.boolean().optional(),
    })
    .strict()
    .superRefine((b, ctx) => {
      if ((b.collection_id === undefined) === (b.document_ids === undefined)) {
        ctx.addIssue({ code: "custom", path: ["document_ids"], message: "give either collection_id or document_ids (1-5,000), not both" });
      }
    });
export type CreateExtractionRequest = z.infer<ReturnType<typeof createExtractionRequest>>;

export const listJobsQuery = z.object({
  status: z.enum(JOB_STATUSES).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(20),
});

export const resultsQuery = z.object({
  status: z.enum(DOCUMENT_STATUSES).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  page_size: z.coerce.number().int().min(1).max(500).default(50),
});

/** POST /api/admin/extractions/base-schema/backfill: every pending judgment, or the newest `limit` of them. */
export const backfillRequest = z.object({ limit: z.number().int().min(1).max(1_000_000).optional() }).strict();
