import { cache } from "react";
import { ApiError } from "@/lib/api/errors";
import { pageIdentity } from "@/lib/api/identity";
import { documentMetadata } from "@/lib/backend/documents";
import { logger } from "@/lib/logger";
import { normaliseJudgment, type Judgment, type Raw } from "./judgment";

/**
 * Server-side read of a judgment's metadata for the page's first paint and its <title>, through the same backend
 * function as GET /api/documents/{id}/metadata (same rules, the visitor's own session). `cache` shares one read
 * between generateMetadata and the page.
 */
export const fetchJudgment = cache(async (id: string): Promise<{ judgment: Judgment | null; status: number }> => {
  try {
    const raw = await documentMetadata(id, await pageIdentity());
    return { judgment: normaliseJudgment(raw as Raw), status: 200 };
  } catch (e) {
    if (e instanceof ApiError) return { judgment: null, status: e.status };
    logger.error({ err: e instanceof Error ? e.message : String(e), id }, "judgment page: metadata read failed");
    return { judgment: null, status: 500 };
  }
});
