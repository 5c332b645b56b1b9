/** URL state of the public /search page: query, mode, the filters (jurisdiction, decision dates, trial court) and the page. */
export const SEARCH_MODES = ["text", "semantic", "hybrid"] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];
export const JURISDICTIONS = ["PL", "UK"] as const;
export type Jurisdiction = (typeof JURISDICTIONS)[number];
export const SEARCH_SORTS = ["relevance", "newest", "oldest", "cited_by"] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];
export const SEARCH_PAGE_SIZE = 10;
export const QUERY_MAX = 500;

export interface SearchUrlState {
  q: string;
  mode: SearchMode;
  jurisdiction: Jurisdiction[];
  /** Inclusive decision-date bounds as YYYY-MM-DD. */
  from: string;
  to: string;
  /**
   * The trial court (first instance: the court that convicted or sentenced), exact name in any case. The appeal
   * court's `court_name` is searchable but not filterable in the index (spec: Judgment table), and `court_level` holds
   * one value per jurisdiction (wrong for UK rows, spec item 6), so the extracted court names are the court filter a
   * researcher can use (spec audit defect 2).
   */
  court: string;
  /** Result order (the API's named sorts); absent = relevance. */
  sort?: SearchSort;
  page: number;
}

type ParamSource = { get(name: string): string | null; getAll(name: string): string[] };

const ISO = /^\d{4}-\d{2}-\d{2}$/;

export function parseSearchState(params: ParamSource): SearchUrlState {
  const mode = params.get("mode");
  const page = params.get("page");
  const sort = params.get("sort");
  const from = params.get("from") ?? "";
  const to = params.get("to") ?? "";
  return {
    q: (params.get("q") ?? "").slice(0, QUERY_MAX),
    mode: SEARCH_MODES.includes(mode as SearchMode) ? (mode as SearchMode) : "text",
    jurisdiction: [...new Set(params.getAll("jurisdiction").filter((j): j is Jurisdiction => JURISDICTIONS.includes(j as Jurisdiction)))],
    from: ISO.test(from) ? from : "",
    to: ISO.test(to) ? to : "",
    court: (params.get("court") ?? "").slice(0, 200),
    ...(sort && sort !== "relevance" && SEARCH_SORTS.includes(sort as SearchSort) ? { sort: sort as SearchSort } : {}),
    page: page && /^\d{1,5}$/.test(page) && Number(page) >= 1 ? Number(page) : 1,
  };
}

/** Whether the state asks for a search at all (otherwise /search shows its prompt). */
export function hasSearchCriteria(s: SearchUrlState): boolean {
  return s.q.trim().length > 0 || s.jurisdiction.length > 0 || !!s.from || !!s.to || !!s.court.trim();
}

export function serializeSearchState(s: SearchUrlState): string {
  const sp = new URLSearchParams();
  if (s.q.trim()) sp.set("q", s.q.trim());
  if (s.mode !== "text") sp.set("mode", s.mode);
  for (const j of s.jurisdiction) sp.append("jurisdiction", j);
  if (s.from) sp.set("from", s.from);
  if (s.to) sp.set("to", s.to);
  if (s.court.trim()) sp.set("court", s.court.trim());
  if (s.sort && s.sort !== "relevance") sp.set("sort", s.sort);
  if (s.page > 1) sp.set("page", String(s.page));
  const str = sp.toString();
  return str ? `?${str}` : "";
}

/** The ratio sent to the search API per mode; guests are forced to text by the server anyway. */
export function semanticRatio(mode: SearchMode): number {
  return mode === "text" ? 0 : mode === "semantic" ? 1 : 0.5;
}

function quote(v: string): string {
  return `"${v.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

/** YYYY-MM-DD → epoch seconds at 00:00 UTC. */
function dayStart(iso: string): number {
  return Math.floor(Date.parse(`${iso}T00:00:00Z`) / 1000);
}

/** Index attributes the Court box filters on: the extracted sentencing court and court of conviction. */
export const COURT_FILTER_ATTRIBUTES = ["base_sent_court_name", "base_conv_court_names"] as const;

/**
 * The search-engine filter expression for the page filters (spec: Search and documents — filter syntax; date ranges
 * go through the epoch-second twin `decision_date_ts`, inclusive of the whole last day; the court matches either
 * trial-court attribute).
 */
export function searchFilterExpression(s: SearchUrlState): string {
  const parts: string[] = [];
  if (s.jurisdiction.length > 0) parts.push(`jurisdiction IN [${s.jurisdiction.map(quote).join(", ")}]`);
  if (s.from) parts.push(`decision_date_ts >= ${dayStart(s.from)}`);
  if (s.to) parts.push(`decision_date_ts <= ${dayStart(s.to) + 86399}`);
  if (s.court.trim()) parts.push(`(${COURT_FILTER_ATTRIBUTES.map((a) => `${a} = ${quote(s.court.trim())}`).join(" OR ")})`);
  return parts.join(" AND ");
}

/** The page filters of a search: the state minus its query, mode and page. */
export type SearchPageFilters = Pick<SearchUrlState, "jurisdiction" | "from" | "to" | "court"> & { sort?: SearchSort };

const EPOCH_DAY = /^\d+$/;
const isoDay = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);
/** A quoted string as `quote` writes it, at the start of `s`: its value and the rest, or null. */
function unquote(s: string): [string, string] | null {
  const m = /^"((?:[^"\\]|\\.)*)"/.exec(s);
  return m ? [m[1].replace(/\\(.)/g, "$1"), s.slice(m[0].length)] : null;
}

/**
 * The page filters a stored search asked for (its engine filter expression and sort, as the search history keeps
 * them), or null when the expression holds anything the page's own filters could not have written: a search from the
 * API with filters of its own. Read part by part in the order searchFilterExpression writes them, then checked by
 * writing them again, so only an expression the page would write word for word is taken back.
 */
export function searchFiltersFromParams(params: { filter?: string; sort?: string; filters?: object } | null): SearchPageFilters | null {
  if (params?.filters) return null;
  const out: SearchPageFilters = { jurisdiction: [], from: "", to: "", court: "" };
  if (params?.sort) {
    if (!SEARCH_SORTS.includes(params.sort as SearchSort)) return null;
    if (params.sort !== "relevance") out.sort = params.sort as SearchSort;
  }
  const expr = params?.filter ?? "";
  let rest = expr;
  const next = (sep: string) => {
    if (rest.startsWith(sep)) rest = rest.slice(sep.length);
  };
  const jm = /^jurisdiction IN \[((?:"(?:PL|UK)"(?:, )?)+)\]/.exec(rest);
  if (jm) {
    out.jurisdiction = [...jm[1].matchAll(/"(PL|UK)"/g)].map((x) => x[1] as Jurisdiction);
    rest = rest.slice(jm[0].length);
    next(" AND ");
  }
  const fm = /^decision_date_ts >= (\d+)/.exec(rest);
  if (fm && EPOCH_DAY.test(fm[1])) {
    out.from = isoDay(Number(fm[1]));
    rest = rest.slice(fm[0].length);
    next(" AND ");
  }
  const tm = /^decision_date_ts <= (\d+)/.exec(rest);
  if (tm) {
    out.to = isoDay(Number(tm[1]) - 86399);
    rest = rest.slice(tm[0].length);
    next(" AND ");
  }
  const cm = new RegExp(`^\\(${COURT_FILTER_ATTRIBUTES[0]} = `).exec(rest);
  if (cm) {
    const q = unquote(rest.slice(cm[0].length));
    if (q) {
      out.court = q[0];
      rest = "";
    }
  }
  const state: SearchUrlState = { q: "", mode: "text", page: 1, ...out };
  return searchFilterExpression(state) === expr ? out : null;
}
