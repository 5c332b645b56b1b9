-- Judge lookups by index (issue 16 target: judge profile p50 ≤ 200 ms). Measured on the full corpus (12,307
-- judgments): matching names by unaccent(lower()) over every row's `judges` read the whole heap, ~450 ms for the match
-- alone and ~1.3 s for judge_record under load. Folded names become an indexed array (exact match for the profile)
-- and the flattened names a trigram index (containment for the search).

-- The folded (lower case, unaccented) names of a `judges` value, for the index and for its lookups.
create or replace function public.judge_name_keys(p_judges jsonb)
  returns text[]
  language sql immutable parallel safe
  set search_path = ''
  as $$
  select coalesce(array_agg(public.immutable_unaccent(lower(e ->> 'name'))), '{}'::text[])
    from jsonb_array_elements(case when jsonb_typeof(p_judges) = 'array' then p_judges else '[]'::jsonb end) e
$$;
grant execute on function public.judge_name_keys(jsonb) to authenticated, service_role;

create index if not exists judgments_judge_name_keys_gin on public.judgments using gin (public.judge_name_keys(judges));
create index if not exists judgments_judges_flat_folded_trgm on public.judgments
  using gin (public.immutable_unaccent(lower(judges_flat)) gin_trgm_ops);

create or replace function public.judge_search(p_query text, p_limit integer default 20)
  returns table (name text, jurisdiction text, judgments bigint)
  language sql stable security invoker
  set search_path = ''
  as $$
  with pattern as (
    select '%' || replace(replace(replace(public.immutable_unaccent(lower(btrim(p_query))), '\', '\\'), '%', '\%'), '_', '\_') || '%' as p
  )
  select e ->> 'name', j.jurisdiction, count(*)
    from pattern, public.judgments j cross join lateral jsonb_array_elements(j.judges) e
   -- The row filter uses the trigram index; the element filter keeps only the names that match.
   where public.immutable_unaccent(lower(j.judges_flat)) like pattern.p
     and public.immutable_unaccent(lower(e ->> 'name')) like pattern.p
   group by 1, 2
   order by 3 desc, 1, 2
   limit least(greatest(coalesce(p_limit, 20), 1), 100)
$$;

create or replace function public.judge_record(p_name text, p_max_texts integer default 300)
  returns jsonb
  language sql stable security invoker
  set search_path = ''
  as $$
  with sat as (
    select j.id, j.case_number, j.jurisdiction, j.court_name, j.decision_date, e ->> 'name' as name, coalesce(e ->> 'role', '') as role
      from public.judgments j cross join lateral jsonb_array_elements(j.judges) e
     where public.judge_name_keys(j.judges) @> array[public.immutable_unaccent(lower(btrim(p_name)))]
       and public.immutable_unaccent(lower(e ->> 'name')) = public.immutable_unaccent(lower(btrim(p_name)))
  ),
  one as (select distinct on (id) * from sat order by id, role)
  select case when not exists (select 1 from one) then null else jsonb_build_object(
    'name', (select s.name from one s group by s.name order by count(*) desc, s.name limit 1),
    'jurisdiction', (select s.jurisdiction from one s group by s.jurisdiction order by count(*) desc, s.jurisdiction limit 1),
    'judgments', (select count(*) from one),
    'first', (select min(decision_date) from one),
    'last', (select max(decision_date) from one),
    -- A presiding reporter counts in both; a judge who neither presides nor reports is a member.
    'presiding', (select count(*) from one where role ~* '(przewodnicz|presid)'),
    'reporting', (select count(*) from one where role ~* '(sprawozd|report)'),
    'member', (select count(*) from one where role !~* '(przewodnicz|presid|sprawozd|report)'),
    'courts', coalesce((select jsonb_agg(jsonb_build_object('name', c.court_name, 'count', c.n) order by c.n desc, c.court_name)
                          from (select court_name, count(*) as n from one where court_name is not null group by court_name) c), '[]'::jsonb),
    'documents', coalesce((select jsonb_agg(jsonb_build_object('document_id', t.id, 'case_number', t.case_number, 'text', j.full_text)
                                            order by t.decision_date desc nulls last, t.id)
                             from (select * from one order by decision_date desc nulls last, id
                                   limit least(greatest(coalesce(p_max_texts, 300), 1), 2000)) t
                             join public.judgments j on j.id = t.id), '[]'::jsonb)) end
$$;
