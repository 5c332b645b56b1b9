/**
 * The Postgres full-text baseline of bench/search as a search *service*: the answer our GET /api/search/documents
 * gives, computed the way a search built on Postgres full text computes it, so the two can be compared end to end
 * over the same HTTP server ("HTTP end to end, warm").
 *
 * - matching and ranking: websearch_to_tsquery('simple', unaccent(q)) against `search_baseline_tsv` (the same fields
 *   and weight order as our index, bench/sql/search-baseline.sql), ordered by ts_rank_cd, id;
 * - the page: the displayed fields of each hit (the same list as the index's displayed attributes), null keys
 *   omitted, `_formatted` from ts_headline on the attributes the route highlights (title, case_number, court_name
 *   whole; summary cropped to 40 words), `_ranking_score`;
 * - `estimated_total`: the number of matches, capped at 1000 like ours;
 * - the JSON is assembled inside Postgres (json_agg), the cheapest way to get rows out of it.
 *
 * Filters: the bench's filter expressions are parsed by our parser (lib/search/filter) and compiled here to SQL for
 * the attributes the bench uses; any other attribute is refused rather than silently dropped.
 */
import type pg from "pg";
import type { SearchDocumentsBody } from "../../lib/backend/search";
import type { FilterNode, FilterValue } from "../../lib/search/filter/ast";
import { DISPLAYED_ATTRIBUTES } from "../../lib/search/index-settings";

/** Index attribute → Postgres column and how to compare it. */
const COLUMNS: Record<string, { column: string; kind: "text" | "text[]" | "number" | "epoch-date" }> = {
  jurisdiction: { column: "jurisdiction", kind: "text" },
  court_level: { column: "court_level", kind: "text" },
  case_type: { column: "case_type", kind: "text" },
  decision_date_ts: { column: "decision_date", kind: "epoch-date" },
  base_appeal_outcome: { column: "base_appeal_outcome", kind: "text[]" },
  base_num_victims: { column: "base_num_victims", kind: "number" },
};

const HIGHLIGHT = "StartSel=<mark>, StopSel=</mark>, HighlightAll=true";
const CROP = "StartSel=<mark>, StopSel=</mark>, MaxWords=40, MinWords=20, ShortWord=0";

/** SQL for a filter node; values go to `params` (never into the SQL text). */
export function filterToSql(node: FilterNode, params: unknown[]): string {
  const bind = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const col = (attribute: string) => {
    const c = COLUMNS[attribute];
    if (!c) throw new Error(`the Postgres baseline does not translate filters on ${attribute}`);
    return c;
  };
  const scalar = (kind: string, v: FilterValue): string => {
    if (kind === "epoch-date") return `to_timestamp(${bind(Number(v))})::date`;
    if (kind === "number") return `${bind(Number(v))}::numeric`;
    return `${bind(String(v))}::text`;
  };
  switch (node.type) {
    case "and":
    case "or":
      return `(${node.children.map((c) => filterToSql(c, params)).join(node.type === "and" ? " and " : " or ")})`;
    case "not":
      return `not coalesce(${filterToSql(node.child, params)}, false)`;
    case "compare": {
      const c = col(node.attribute);
      if (c.kind === "text[]") {
        if (node.op !== "=" && node.op !== "!=") throw new Error(`${node.op} on a list attribute`);
        return `${node.op === "!=" ? "not " : ""}coalesce(${bind(String(node.value))} = any(${c.column}), false)`;
      }
      const op = node.op === "!=" ? "is distinct from" : node.op;
      return `coalesce(${c.column} ${op} ${scalar(c.kind, node.value)}, false)`;
    }
    case "range": {
      const c = col(node.attribute);
      return `coalesce(${c.column} between ${scalar(c.kind, node.from)} and ${scalar(c.kind, node.to)}, false)`;
    }
    case "in": {
      const c = col(node.attribute);
      const list = bind(node.values.map(String));
      const sql = c.kind === "text[]" ? `${c.column} && ${list}::text[]` : `${c.column}::text = any(${list}::text[])`;
      return `${node.negated ? "not " : ""}coalesce(${sql}, false)`;
    }
    default:
      throw new Error(`the Postgres baseline does not translate ${node.type} filters`);
  }
}

export interface BaselineRequest {
  q: string;
  filter?: FilterNode;
  limit: number;
  offset: number;
}

/** The fields of our answer (GET /api/search/documents) that a keyword search without facets carries. */
export type BaselineBody = Pick<SearchDocumentsBody, "hits" | "query" | "limit" | "offset" | "estimated_total" | "processing_time_ms">;

const FIELDS = DISPLAYED_ATTRIBUTES.map((a) => `'${a}', j.${a}`).join(", ");

/** One search, answered from Postgres full text. */
export async function postgresFtsSearch(pool: pg.Pool, req: BaselineRequest): Promise<BaselineBody> {
  const t0 = performance.now();
  const params: unknown[] = [req.q, req.limit, req.offset];
  const where = req.filter ? `and ${filterToSql(req.filter, params)}` : "";
  const sql = `
    with q as (select websearch_to_tsquery('simple', public.immutable_unaccent($1)) as q),
    m as (
      select j.id, ts_rank_cd(j.search_baseline_tsv, q.q) as rank
        from public.judgments j, q
       where j.search_baseline_tsv @@ q.q ${where}
    ),
    page as (select id, rank from m order by rank desc, id limit $2 offset $3)
    select (select count(*) from (select 1 from m limit 1000) c)::int as total,
           coalesce((
             select json_agg(json_strip_nulls(json_build_object(${FIELDS},
                      '_formatted', json_build_object(
                        'title', ts_headline('simple', coalesce(j.title, ''), q.q, '${HIGHLIGHT}'),
                        'case_number', ts_headline('simple', coalesce(j.case_number, ''), q.q, '${HIGHLIGHT}'),
                        'court_name', ts_headline('simple', coalesce(j.court_name, ''), q.q, '${HIGHLIGHT}'),
                        'summary', ts_headline('simple', coalesce(j.summary, ''), q.q, '${CROP}')),
                      '_ranking_score', p.rank)) order by p.rank desc, p.id)
               from page p join public.judgments j using (id), q
           ), '[]'::json) as hits`;
  const { rows } = await pool.query<{ total: number; hits: Record<string, unknown>[] }>(sql, params);
  return {
    hits: rows[0].hits,
    query: req.q,
    limit: req.limit,
    offset: req.offset,
    estimated_total: rows[0].total,
    processing_time_ms: Math.round(performance.now() - t0),
  };
}
