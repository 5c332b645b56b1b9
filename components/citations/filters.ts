/** The citing-list filters as query parameters: shared by the server-rendered provision pages and the client panel. */
export const CITING_SORTS = ["newest", "oldest", "cited_by"] as const;
export type CitingSort = (typeof CITING_SORTS)[number];

export interface CitingFilterValues {
  jurisdiction?: "PL" | "UK";
  court?: string;
  outcome?: string;
  date_from?: string;
  date_to?: string;
  sort?: CitingSort;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The filters of a query string or form, blanks and malformed values dropped (the API would refuse them). */
export function citingFiltersOf(get: (k: string) => string | null | undefined): CitingFilterValues {
  const v: CitingFilterValues = {};
  const j = get("jurisdiction");
  if (j === "PL" || j === "UK") v.jurisdiction = j;
  const court = get("court")?.trim().slice(0, 300);
  if (court) v.court = court;
  const outcome = get("outcome")?.trim().slice(0, 100);
  if (outcome) v.outcome = outcome;
  const from = get("date_from");
  if (from && DATE.test(from)) v.date_from = from;
  const to = get("date_to");
  if (to && DATE.test(to)) v.date_to = to;
  const sort = get("sort");
  if (sort && (CITING_SORTS as readonly string[]).includes(sort) && sort !== "newest") v.sort = sort as CitingSort;
  return v;
}

/** The filters as query parameters (for the API, the page's own links and the CSV link). */
export function citingParams(v: CitingFilterValues, extra: Record<string, string | number> = {}): URLSearchParams {
  const p = new URLSearchParams();
  for (const [k, val] of Object.entries(v)) if (val) p.set(k, String(val));
  for (const [k, val] of Object.entries(extra)) p.set(k, String(val));
  return p;
}

