-- The citator's lists, cheaper again (docs/citations.md, "Speed"). citing_judgments (migration 20261209030000) read
-- its filtered citers (a materialised CTE) four times: a count, a per-year and a per-outcome grouping, and a window
-- function that numbered every citer in sort order before the page was cut from them. Now:
--   - total, by_year and by_outcome come from one grouping-sets pass over the citers;
--   - the page is a top-N cut in sort order (no row_number over all citers); its rows are ordered again by the same
--     keys, which end in the id, so the order is total and the same as before.
-- The citers are still gathered into an array first and probed by `id = any`: a join of the target index to judgments
-- in the statement itself was twice as slow (measured on the demo corpus, docs/citations.md).
-- The answer is unchanged: same keys, order and counts (tests/db/citations.test.ts, tests/api/citations.test.ts,
-- tests/api/legislation.test.ts).

create or replace function public.citing_judgments(
  p_cites text,
  p_jurisdiction text default null,
  p_court text default null,
  p_outcome text default null,
  p_from date default null,
  p_to date default null,
  p_sort text default 'newest',
  p_limit integer default 20,
  p_offset integer default 0)
  returns jsonb
  language plpgsql
  stable
  security definer
  set search_path = ''
  as $$
declare
  v_target uuid;
  v_ids uuid[];
  v_out jsonb;
begin
  -- A judgment id: its citers (null when it is no judgment: the cited-by route answers 404). Else a provision: the
  -- judgments whose cites hold it (a provision always has a page).
  if p_cites ~ '^[0-9a-f]{8}-[0-9a-f]{4}-' then
    if p_cites !~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
      return null;
    end if;
    v_target := p_cites::uuid;
    if not exists (select 1 from public.judgments where id = v_target) then
      return null;
    end if;
    select coalesce(array_agg(distinct r.source_judgment_id), '{}') into v_ids
      from public.judgment_references r
     where r.target_judgment_id = v_target;
  else
    select coalesce(array_agg(j.id), '{}') into v_ids
      from public.judgments j
     where j.cites @> array[p_cites];
  end if;

  with m as materialized (
    -- only columns of judgments_citing_list_idx: an index-only probe per citer
    select j.id, j.decision_date, j.outcome, j.cited_by_count
      from public.judgments j
     where j.id = any (v_ids)
       and (p_jurisdiction is null or j.jurisdiction = p_jurisdiction)
       and (p_court is null or j.court_name = p_court)
       and (p_outcome is null or j.outcome = p_outcome)
       and (p_from is null or j.decision_date >= p_from)
       and (p_to is null or j.decision_date <= p_to)
  ),
  counts as (
    -- one pass: per year (g = 1), per outcome (g = 2), all (g = 3; one row even when m is empty)
    select grouping(y, o) as g, y, o, count(*)::integer as n
      from (select extract(year from decision_date)::integer as y, coalesce(outcome, 'unknown') as o from m) s
     group by grouping sets ((y), (o), ())
  ),
  page as (
    select m.id from m
     order by case when p_sort = 'cited_by' then m.cited_by_count end desc nulls last,
              case when p_sort = 'oldest' then m.decision_date end asc nulls last,
              m.decision_date desc nulls last, m.id
     limit least(greatest(coalesce(p_limit, 20), 1), 1000)
    offset greatest(coalesce(p_offset, 0), 0)
  )
  select jsonb_build_object(
    'total', (select c.n from counts c where c.g = 3),
    'by_year', coalesce((select jsonb_agg(jsonb_build_object('year', c.y, 'count', c.n) order by c.y)
                           from counts c where c.g = 1 and c.y is not null), '[]'::jsonb),
    'by_outcome', coalesce((select jsonb_agg(jsonb_build_object('outcome', c.o, 'count', c.n) order by c.n desc, c.o)
                              from counts c where c.g = 2), '[]'::jsonb),
    'items', coalesce((
      select jsonb_agg(jsonb_build_object(
               'id', j.id, 'case_number', j.case_number, 'title', j.title, 'court_name', j.court_name,
               'decision_date', j.decision_date, 'jurisdiction', j.jurisdiction, 'outcome', j.outcome,
               'cited_by_count', j.cited_by_count,
               -- how many references of this judgment name the target (the judgment, or the provision or under it)
               'references', case when v_target is not null then (
                   select count(*)::integer from public.judgment_references r
                    where r.target_judgment_id = v_target and r.source_judgment_id = j.id)
                 else (
                   select count(*)::integer from public.judgment_references r
                    where r.source_judgment_id = j.id
                      and (r.canonical_id = p_cites or left(r.canonical_id, length(p_cites) + 1) = p_cites || '/')) end)
             -- the page's sort keys again (ending in the id: a total order)
             order by case when p_sort = 'cited_by' then j.cited_by_count end desc nulls last,
                      case when p_sort = 'oldest' then j.decision_date end asc nulls last,
                      j.decision_date desc nulls last, j.id)
        from page p join public.judgments j on j.id = p.id), '[]'::jsonb))
    into v_out;
  return v_out;
end
$$;
revoke execute on function public.citing_judgments(text, text, text, text, date, date, text, integer, integer) from public;
grant execute on function public.citing_judgments(text, text, text, text, date, date, text, integer, integer) to anon, authenticated, service_role;
