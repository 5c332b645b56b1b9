/** POST /api/reasoning-lines/discover: the form's fields plus the filter object (FILTER_INVALID; collection_ids refused, D-10). */
import type { z } from "zod";
import { filtersField } from "../filters";
import { DiscoverFieldsSchema } from "./analysis-lines";

export const DiscoverRequestSchema = DiscoverFieldsSchema.extend({ filters: filtersField({ collectionIds: "refuse" }) });
export type DiscoverRequest = z.infer<typeof DiscoverRequestSchema>;
