-- The citator's lists (docs/citations.md, "Speed"): citing_judgments answered the cited-by list of a judgment from
-- the judgments whose `cites` hold its id (GIN), reading every citer's whole row (wide: texts and extracted fields)
-- to filter, sort and count it per year and outcome, on every page: 31 ms through the app for a judgment cited 4,703
-- times. Now:
--   - a judgment's citers come from the references' target index (index-only: target, source);
--   - the filters, the sort and the counts read a covering index of judgments (id + the five columns they need), so a
--     citer costs an index probe, not a heap row; only the page's rows are read whole (title, case number);
--   - a cited-by item's number of references is counted on the same target index.
-- The answer is unchanged (same keys, order and counts).

-- Only case references resolve to a judgment (lib/citations/store.ts): stated, so the target index alone answers
-- "who cites this judgment" without reading each row's kind.
do $$
begin
  if not exists (select 1 from pg_constraint where conname = 'judgment_references_target_is_case') then
    alter table public.judgment_references
      add constraint judgment_references_target_is_case check (target_judgment_id is null or kind = 'case');
  end if;
end
$$;

create index if not exists judgments_citing_list_idx on public.judgments (id)
  include (decision_date, jurisdiction, outcome, court_name, cited_by_count);

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

  with m as (
    -- only columns of judgments_citing_list_idx: an index-only scan per citer
    select j.id, j.decision_date, j.outcome, j.cited_by_count
      from public.judgments j
     where j.id = any (v_ids)
       and (p_jurisdiction is null or j.jurisdiction = p_jurisdiction)
       and (p_court is null or j.court_name = p_court)
       and (p_outcome is null or j.outcome = p_outcome)
       and (p_from is null or j.decision_date >= p_from)
       and (p_to is null or j.decision_date <= p_to)
  ),
  page as (
    select m.id, row_number() over (
             order by case when p_sort = 'cited_by' then m.cited_by_count end desc nulls last,
                      case when p_sort = 'oldest' then m.decision_date end asc nulls last,
                      m.decision_date desc nulls last, m.id) as ord
      from m
     order by ord
     limit least(greatest(coalesce(p_limit, 20), 1), 1000)
    offset greatest(coalesce(p_offset, 0), 0)
  )
  select jsonb_build_object(
    'total', (select count(*) from m),
    'by_year', coalesce((select jsonb_agg(jsonb_build_object('year', y, 'count', n) order by y)
                           from (select extract(year from decision_date)::integer as y, count(*)::integer as n
                                   from m where decision_date is not null group by 1) t), '[]'::jsonb),
    'by_outcome', coalesce((select jsonb_agg(jsonb_build_object('outcome', o, 'count', n) order by n desc, o)
                              from (select coalesce(outcome, 'unknown') as o, count(*)::integer as n from m group by 1) t), '[]'::jsonb),
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
             order by p.ord)
        from page p join public.judgments j on j.id = p.id), '[]'::jsonb))
    into v_out;
  return v_out;
end
$$;
revoke execute on function public.citing_judgments(text, text, text, text, date, date, text, integer, integer) from public;
grant execute on function public.citing_judgments(text, text, text, text, date, date, text, integer, integer) to anon, authenticated, service_role;
