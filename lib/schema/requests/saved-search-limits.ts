/**
 * The saved-search constants without zod: the "Save search" button on /search imports these, and importing the
 * schemas module there put zod (~32 KB gzip) into the search page's first load; the button loads the schemas only
 * when the form is submitted.
 */
export const SAVED_SEARCH_KINDS = ["search", "extractions"] as const;
export type SavedSearchKind = (typeof SAVED_SEARCH_KINDS)[number];
export const ALERT_FREQUENCIES = ["daily", "weekly"] as const;
export type AlertFrequency = (typeof ALERT_FREQUENCIES)[number];
export const SAVED_SEARCH_NAME_MAX = 200;
export const SAVED_SEARCH_FOLDER_MAX = 100;
