/**
 * Request schemas of the accounts area: saved searches and settings. The browser forms validate with these
 * same schemas. The filters inside a saved search's params are checked by the one filter parser (lib/schema/filters.ts
 * via lib/backend) when stored, not here, so an invalid filter is 422 FILTER_INVALID like on every filter route.
 */
import { z } from "zod";
import { safeJsonRecord, safeText } from "@/lib/schema/text";
import { ALERT_FREQUENCIES, SAVED_SEARCH_FOLDER_MAX, SAVED_SEARCH_KINDS, SAVED_SEARCH_NAME_MAX } from "./saved-search-limits";

export { ALERT_FREQUENCIES, SAVED_SEARCH_FOLDER_MAX, SAVED_SEARCH_KINDS, SAVED_SEARCH_NAME_MAX };
export type { AlertFrequency, SavedSearchKind } from "./saved-search-limits";
export const INTERFACE_LANGUAGES = ["en", "pl"] as const;

const name = safeText().trim().min(1, "Give the search a name.").max(SAVED_SEARCH_NAME_MAX);
const folder = safeText().trim().max(SAVED_SEARCH_FOLDER_MAX).nullable();
/** The page's query string as the browser had it ("" or "?…"): opening the saved search navigates to it unchanged. */
const pageUrl = safeText()
  .max(8192)
  .regex(/^(\?[^#\s]*)?$/, "url must be the page's query string, starting with ?")
  .default("");

/** params of kind "search": the /search page's mode, filter expression (engine syntax) and sort. */
export const SearchParamsSchema = z.strictObject({
  mode: z.enum(["text", "semantic", "hybrid"]).default("text"),
  filter: safeText().max(8192).default(""),
  sort: safeText().max(500).default(""),
  url: pageUrl,
});
export type SavedSearchParamsSearch = z.infer<typeof SearchParamsSchema>;

/** params of kind "extractions": the filter object `f` (BaseSchemaFilters) and the text query `q`. */
export const ExtractionsParamsSchema = z.strictObject({
  f: safeJsonRecord().default({}),
  q: safeText().max(1000).default(""),
  url: pageUrl,
});
export type SavedSearchParamsExtractions = z.infer<typeof ExtractionsParamsSchema>;

export const AlertSchema = z.strictObject({
  enabled: z.boolean(),
  frequency: z.enum(ALERT_FREQUENCIES).default("weekly"),
});

export const CreateSavedSearchSchema = z.strictObject({
  name,
  kind: z.enum(SAVED_SEARCH_KINDS),
  query: safeText().max(1000).default(""),
  params: safeJsonRecord().default({}),
  folder: folder.optional(),
  alert: AlertSchema.optional(),
});
export type CreateSavedSearch = z.infer<typeof CreateSavedSearchSchema>;

export const PatchSavedSearchSchema = z
  .strictObject({
    name: name.optional(),
    query: safeText().max(1000).optional(),
    params: safeJsonRecord().optional(),
    folder: folder.optional(),
    alert: z.strictObject({ enabled: z.boolean().optional(), frequency: z.enum(ALERT_FREQUENCIES).optional() }).optional(),
  })
  .refine((p) => Object.keys(p).length > 0, "Send at least one field to change.");
export type PatchSavedSearch = z.infer<typeof PatchSavedSearchSchema>;

export const SavedSearchListQuery = z.strictObject({
  folder: safeText().trim().min(1).max(SAVED_SEARCH_FOLDER_MAX).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

/** PATCH /api/settings/profile. */
export const ProfilePatchSchema = z
  .strictObject({
    display_name: safeText().trim().max(100).nullable().optional(),
    language: z.enum(INTERFACE_LANGUAGES).optional(),
    alerts_paused: z.boolean().optional(),
  })
  .refine((p) => Object.keys(p).length > 0, "Send at least one field to change.");

/** POST /api/settings/password. */
export const ChangePasswordSchema = z.strictObject({
  current_password: safeText().min(1).max(200),
  new_password: safeText().min(10, "At least 10 characters.").max(200),
});

/** The words a user types to delete the account. */
export const DELETE_ACCOUNT_CONFIRMATION = "DELETE";
/** POST /api/settings/delete-account. */
export const DeleteAccountSchema = z.strictObject({ confirmation: safeText().max(50) });

/** GET /api/unsubscribe?token= (public: the link in a digest). */
export const UnsubscribeQuery = z.strictObject({ token: safeText().min(1).max(500) });

/** GET /api/admin/mail. */
export const MailListQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).max(10_000).default(0),
});
