/**
 * Cited cohorts ("Cite this cohort"): POST /api/cohorts stores the filter, text query, sample seed, the corpus version
 * id and the member id list under a short unguessable id; GET /api/cohorts/{id}, readable by anyone with the link,
 * answers the stored cohort and the same filter run now, with the judgments added and removed since. The corpus
 * version id says which seeded corpus the cohort was drawn from; the member lists are compared whatever the versions
 * (imports change the corpus without a new version), so `changed` is true when either differs.
 */
import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { DbClient } from "@/lib/supabase/db-client";
import { jsonArg } from "@/lib/supabase/json";
import { config } from "@/lib/config";
import { ApiError, fromDatabaseError } from "@/lib/errors";
import { COHORT_ID_PATTERN, type CreateCohortRequest } from "@/lib/schema/requests/cohorts";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
export const COHORT_ID_LENGTH = 12;

/** 12 base62 characters from the CSPRNG (~71 bits); bytes ≥ 248 are dropped so every character is equally likely. */
export function newCohortId(): string {
  let id = "";
  while (id.length < COHORT_ID_LENGTH) {
    for (const byte of randomBytes(16)) {
      if (byte < 248 && id.length < COHORT_ID_LENGTH) id += BASE62[byte % 62];
    }
  }
  return id;
}

export interface CreatedCohort {
  id: string;
  /** The permanent link: absolute when APP_URL is configured, else the path. */
  url: string;
  members_count: number;
  corpus_version: string | null;
  created_at: string;
}

const CreatedRow = z.object({ id: z.string(), members_count: z.number(), corpus_version: z.string().nullable(), created_at: z.string() });

export function cohortPath(id: string): string {
  return `/c/${id}`;
}

function cohortUrl(id: string): string {
  const base = config().APP_URL;
  return base ? new URL(cohortPath(id), base).toString() : cohortPath(id);
}

export async function createCohort(db: DbClient, req: CreateCohortRequest): Promise<CreatedCohort> {
  const cap = config().COHORT_CITE_MAX_DOCUMENTS;
  // A collision of two random 71-bit ids is not expected; one retry covers it without looping on another error.
  for (let attempt = 0; ; attempt++) {
    const { data, error } = await db.rpc("create_cohort_citation", {
      p_id: newCohortId(),
      p_filters: jsonArg(req.filters),
      p_text_query: req.text_query?.trim() || null,
      p_seed: req.seed ?? null,
      p_cap: cap,
    });
    if (error) {
      if (error.code === "23505" && attempt === 0) continue;
      if (error.code === "SC004") {
        const total = Number(error.details);
        throw new ApiError("FILTER_TOO_LARGE", `The filter matches ${total} judgments; at most ${cap} can be cited.`, { total, cap, jurisdiction: null });
      }
      throw fromDatabaseError(error);
    }
    const row = CreatedRow.parse(data);
    return { ...row, url: cohortUrl(row.id) };
  }
}

export interface CohortMember {
  id: string;
  case_number: string | null;
  title: string | null;
  jurisdiction: string;
  decision_date: string | null;
}

export interface CitedCohort {
  id: string;
  url: string;
  /** The filter object as it was cited (valid then; shown as stored even if the registry has moved on). */
  filters: Record<string, unknown>;
  text_query: string | null;
  seed: number | null;
  corpus_version: string | null;
  members_count: number;
  created_at: string;
  /** The first stored members, newest decision first (the full list stays in the database). */
  members: CohortMember[];
  /** The same filter now. */
  current: {
    corpus_version: string | null;
    members_count: number;
    /** True when the corpus version or the member list differs from the stored one. */
    changed: boolean;
    added_count: number;
    removed_count: number;
    /** Judgment ids matching now but not stored, and stored but not matching now (at most 500 each, sorted). */
    added: string[];
    removed: string[];
  };
}

const CitationRow = z.object({
  id: z.string(),
  filters: z.record(z.string(), z.unknown()),
  text_query: z.string().nullable(),
  seed: z.number().nullable(),
  corpus_version: z.string().nullable(),
  members_count: z.number(),
  created_at: z.string(),
  members: z.array(
    z.object({ id: z.string(), case_number: z.string().nullable(), title: z.string().nullable(), jurisdiction: z.string(), decision_date: z.string().nullable() }),
  ),
  current_corpus_version: z.string().nullable(),
  current_count: z.number(),
  added_count: z.number(),
  removed_count: z.number(),
  added: z.array(z.string()).nullable(),
  removed: z.array(z.string()).nullable(),
});

const cohortNotFound = () => new ApiError("COHORT_NOT_FOUND");

/** The id of a path, or 404 before any read (an id that cannot exist is not found, whatever it holds). */
export function cohortId(raw: string | undefined): string {
  if (!raw || !COHORT_ID_PATTERN.test(raw)) throw cohortNotFound();
  return raw;
}

/** A cited cohort by id through the service role (the link is the credential); 404 COHORT_NOT_FOUND when none. */
export async function getCohort(serviceDb: DbClient, rawId: string | undefined): Promise<CitedCohort> {
  const id = cohortId(rawId);
  const { data, error } = await serviceDb.rpc("cohort_citation", { p_id: id });
  if (error) throw fromDatabaseError(error);
  if (data === null) throw cohortNotFound();
  const row = CitationRow.parse(data);
  const changed = row.current_corpus_version !== row.corpus_version || row.added_count > 0 || row.removed_count > 0;
  return {
    id: row.id,
    url: cohortUrl(row.id),
    filters: row.filters,
    text_query: row.text_query,
    seed: row.seed,
    corpus_version: row.corpus_version,
    members_count: row.members_count,
    created_at: row.created_at,
    members: row.members,
    current: {
      corpus_version: row.current_corpus_version,
      members_count: row.current_count,
      changed,
      added_count: row.added_count,
      removed_count: row.removed_count,
      added: row.added ?? [],
      removed: row.removed ?? [],
    },
  };
}
