-- The citator in the search index (docs/citations.md): what each judgment cites, as the index filters it.
-- `cites` holds the canonical ids of the provisions the judgment applies with their ancestors (PL/kk/279/§1,
-- PL/kk/279, PL/kk) and the ids of the corpus judgments it cites; lib/citations/store.ts writes it with the
-- references, so a write moves updated_at and the search sync carries it to the index.
alter table public.judgments add column if not exists cites text[] not null default '{}';
-- The versions trigger compares every column: generated again so a change of what a judgment cites is recorded too.
select public.judgment_versions_define_trigger();


-- `cites @> array[id]`: the judgments applying a provision (or citing a judgment), for provision pages.
create index if not exists judgments_cites_idx on public.judgments using gin (cites);

-- One filtered, paged list of judgments for the citator's pages: the provision page (p_cites: a provision id, every
-- judgment whose cites hold it) and the "Cited by" panel (p_cites: a judgment id). Filters: jurisdiction, court name,
-- appeal outcome, decision date range; sort newest (default), oldest or cited_by; counts per year and per outcome of
-- the whole filtered set. Public like the judgments' own reads (SECURITY DEFINER, fixed search_path), read-only.
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
  language sql
  stable
  security definer
  set search_path = ''
  as $$
  with m as (
    select j.id, j.case_number, j.title, j.court_name, j.decision_date, j.jurisdiction, j.outcome, j.cited_by_count
      from public.judgments j
     where j.cites @> array[p_cites]
       and (p_jurisdiction is null or j.jurisdiction = p_jurisdiction)
       and (p_court is null or j.court_name = p_court)
       and (p_outcome is null or j.outcome = p_outcome)
       and (p_from is null or j.decision_date >= p_from)
       and (p_to is null or j.decision_date <= p_to)
  )
  -- null for a judgment id that is no judgment (the cited-by route answers 404); a provision always has a page.
  select case when p_cites ~ '^[0-9a-f]{8}-[0-9a-f]{4}-' and not exists (select 1 from public.judgments where id::text = p_cites)
    then null else jsonb_build_object(
    'total', (select count(*) from m),
    'by_year', coalesce((select jsonb_agg(jsonb_build_object('year', y, 'count', n) order by y)
                           from (select extract(year from decision_date)::integer as y, count(*)::integer as n
                                   from m where decision_date is not null group by 1) t), '[]'::jsonb),
    'by_outcome', coalesce((select jsonb_agg(jsonb_build_object('outcome', o, 'count', n) order by n desc, o)
                              from (select coalesce(outcome, 'unknown') as o, count(*)::integer as n from m group by 1) t), '[]'::jsonb),
    'items', coalesce((
      select jsonb_agg(to_jsonb(p) - 'ord' || jsonb_build_object('references', (
               -- how many references of this judgment name the target (the judgment, or the provision or under it)
               select count(*)::integer from public.judgment_references r
                where r.source_judgment_id = p.id
                  and (r.target_judgment_id::text = p_cites or r.canonical_id = p_cites
                       or left(r.canonical_id, length(p_cites) + 1) = p_cites || '/'))) order by p.ord)
        from (select m.*, row_number() over (
                       order by case when p_sort = 'cited_by' then m.cited_by_count end desc nulls last,
                                case when p_sort = 'oldest' then m.decision_date end asc nulls last,
                                m.decision_date desc nulls last, m.id) as ord
                from m
               order by ord
               limit least(greatest(coalesce(p_limit, 20), 1), 1000)
              offset greatest(coalesce(p_offset, 0), 0)) p), '[]'::jsonb)) end
$$;
revoke execute on function public.citing_judgments(text, text, text, text, date, date, text, integer, integer) from public;
grant execute on function public.citing_judgments(text, text, text, text, date, date, text, integer, integer) to anon, authenticated, service_role;

-- The provisions the corpus applies whose id is p_prefix or under it (all when null), with how many judgments cite
-- each (sub-provisions included: cites holds ancestors), most cited first. Judgment ids in cites are not provisions.
create or replace function public.legislation_lookup(p_prefix text default null, p_limit integer default 20)
  returns jsonb
  language sql
  stable
  security definer
  set search_path = ''
  as $$
  select coalesce(jsonb_agg(jsonb_build_object('id', c, 'count', n) order by n desc, c), '[]'::jsonb)
    from (select c, count(*)::integer as n
            from public.judgments j, unnest(j.cites) as c
           -- cites holds ancestors, so a judgment citing anything under p_prefix holds p_prefix: the GIN index finds them
           where (p_prefix is null or j.cites @> array[p_prefix])
             and (c like 'PL/%' or c like 'UK/%')
             and (p_prefix is null or c = p_prefix
                  or left(c, length(p_prefix) + 1) = p_prefix || '/')
           group by c
           order by count(*) desc, c
           limit least(greatest(coalesce(p_limit, 20), 1), 5000)) t
$$;
revoke execute on function public.legislation_lookup(text, integer) from public;
grant execute on function public.legislation_lookup(text, integer) to anon, authenticated, service_role;

-- citing_judgments serves the cited-by list now (filters, sort, counts per year and outcome).
drop function if exists public.judgment_cited_by(uuid, integer, integer);
