-- The permalink by citation (/cite/<neutral citation or case number>): the ids of the judgments whose neutral
-- citation, else whose case number, equals the reference case-insensitively (whitespace runs count as one space).
-- At most two ids: one is a redirect, two mean "several judgments share it" (the caller sends the visitor to search).
-- Called with the service role (guests cannot read the table); the web tier then reads the hit as the visitor
-- (judgment_detail), so this never shows a judgment the visitor could not open.
-- The ILIKE prefilter (wildcards escaped) lets the trigram indexes narrow the rows before the exact comparison.

create index if not exists judgments_case_number_trgm on public.judgments using gin (case_number gin_trgm_ops);

create or replace function public.judgment_ids_by_citation(p_ref text)
returns setof uuid
language sql
stable
security invoker
set search_path = ''
as $$
  with ref as (
    select pg_catalog.lower(pg_catalog.regexp_replace(pg_catalog.btrim(p_ref), '\s+', ' ', 'g')) as norm,
           pg_catalog.regexp_replace(pg_catalog.regexp_replace(pg_catalog.btrim(p_ref), '([\\%_])', '\\\1', 'g'), '\s+', '%', 'g') as pattern
  ),
  by_ncn as (
    select j.id
      from public.judgments j, ref
     where ref.norm <> ''
       and j.base_neutral_citation_number ilike ref.pattern
       and pg_catalog.lower(pg_catalog.regexp_replace(pg_catalog.btrim(j.base_neutral_citation_number), '\s+', ' ', 'g')) = ref.norm
     limit 2
  ),
  by_case as (
    select j.id
      from public.judgments j, ref
     where ref.norm <> ''
       and not exists (select 1 from by_ncn)
       and j.case_number ilike ref.pattern
       and pg_catalog.lower(pg_catalog.regexp_replace(pg_catalog.btrim(j.case_number), '\s+', ' ', 'g')) = ref.norm
     limit 2
  )
  select id from by_ncn
  union all
  select id from by_case
$$;

revoke all on function public.judgment_ids_by_citation(text) from public, anon, authenticated;
grant execute on function public.judgment_ids_by_citation(text) to service_role;
