/**
 * The cited cohort of /c/{id}, read while the page renders: the same backend function as GET /api/cohorts/{id}
 * (the link is the credential, so it reads with the service role), once per render (React cache).
 */
import { cache } from "react";
import { getCohort, type CitedCohort } from "@/lib/backend/cohorts/citations";
import { ApiError } from "@/lib/errors";
import { createServiceClient } from "@/lib/supabase/server";

export const pageCohort = cache(async (id: string): Promise<CitedCohort | null> => {
  try {
    return await getCohort(createServiceClient(), id);
  } catch (e) {
    if (e instanceof ApiError && e.code === "COHORT_NOT_FOUND") return null;
    throw e;
  }
});
