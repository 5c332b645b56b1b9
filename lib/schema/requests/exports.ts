/**
 * Query strings of the export routes (lib/backend/exports): the format, the header mode and an optional locale for
 * the labels (else the interface locale: cookie, then Accept-Language). The lists' own parameters follow the routes
 * that show them: the structured filter as JSON text (`filters`), as the facets route takes it.
 */
import { z } from "zod";
import { safeText } from "@/lib/schema/text";
import { filtersQueryField } from "../filters";
import { CompareCohortsSchema } from "./cohorts";

export const exportParams = {
  format: z.enum(["csv", "xlsx", "jsonl"]).default("csv"),
  headers: z.enum(["labels", "codes"]).default("labels"),
  lang: z.enum(["en", "pl"]).optional(),
};

/**
 * GET /api/extractions/{id}/export: the job's own columns. Codes by default, as this route always answered (a job's
 * fields are named by its schema's author); unknown parameters are ignored, as before.
 */
export const JobExportQuery = z.object({ ...exportParams, headers: exportParams.headers.removeDefault().default("codes") });

/** GET /api/extractions/base-schema/export?filters=&text_query=: the cohort's rows. */
export const ExtractionRowsExportQuery = z.strictObject({
  ...exportParams,
  filters: filtersQueryField({ collectionIds: "refuse", maxChars: 20_000 }),
  text_query: safeText().max(1000).optional(),
});

/** GET /api/extractions/base-schema/aggregate/export: the aggregate request's fields as query parameters. */
export const AggregateExportQuery = z.strictObject({
  ...exportParams,
  filters: filtersQueryField({ collectionIds: "refuse", maxChars: 20_000 }),
  text_query: safeText().max(1000).optional(),
  /** Comma-separated field keys; absent = the default set. */
  fields: safeText().max(2000).optional(),
  sample_size: z.coerce.number().int().min(1).max(20_000).optional(),
  seed: z.coerce.number().int().min(-2_147_483_648).max(2_147_483_647).optional(),
  top_n: z.coerce.number().int().min(1).max(100).default(20),
});

/** GET /api/collections/{id}/export: the collection page's column presets. */
export const CollectionExportQuery = z.strictObject({
  ...exportParams,
  preset: z.enum(["basic", "citation", "full"]).default("basic"),
});

/**
 * POST /api/cohorts/compare/export: the compare request's body (two cohorts, fields, top_n, seed) plus the export's
 * parameters. A body, not a query string, because the compare route takes one: the two filters and the field list
 * would not fit a URL comfortably.
 */
export const CompareExportSchema = CompareCohortsSchema.extend(exportParams);
export type CompareExportRequest = z.infer<typeof CompareExportSchema>;
