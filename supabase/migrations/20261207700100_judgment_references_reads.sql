-- Reads of the citation graph behind GET /api/documents/{id}/references and /cited-by. Both routes are public like the
-- judgment's own reads (metadata, html: lib/auth/public-routes.ts), so a guest reads them too, while anon has no
-- select on judgments or judgment_references (migration 20261124000500). Hence SECURITY DEFINER, as judgment_detail:
-- why: each answers for one judgment id the caller already holds, with what the public document page shows of the
-- judgments concerned (id, case number, title, court, date, outcome), paged (at most 100 a page); nothing here lists
-- the corpus. Null for an id that is no judgment (the route answers 404).

create or replace function public.judgment_references_of(p_id uuid)
  returns jsonb
  language sql
  stable
  security definer
  set search_path = ''
  as $$
  select case when not exists (select 1 from public.judgments where id = p_id) then null else
    coalesce((
      select jsonb_agg(jsonb_build_object(
               'kind', r.kind,
               'jurisdiction', r.jurisdiction,
               'origin', r.origin,
               'text', r.raw_text,
               'start', r.span_start,
               'end', r.span_end,
               'canonical_id', r.canonical_id,
               'resolved', r.resolved,
               'target_id', r.target_judgment_id,
               'target', case when t.id is null then null else jsonb_build_object(
                           'id', t.id, 'case_number', t.case_number, 'title', t.title, 'court_name', t.court_name,
                           'decision_date', t.decision_date, 'jurisdiction', t.jurisdiction) end,
               'court', r.court,
               'date', r.cited_date,
               'case_name', r.case_name,
               'group', r.citation_group)
             order by r.ordinal)
        from public.judgment_references r
        left join public.judgments t on t.id = r.target_judgment_id
       where r.source_judgment_id = p_id), '[]'::jsonb) end
$$;
revoke execute on function public.judgment_references_of(uuid) from public;
grant execute on function public.judgment_references_of(uuid) to anon, authenticated, service_role;

-- The judgments citing p_id, newest first (then id), each once with the number of its references to p_id; total =
-- distinct citing judgments (= judgments.cited_by_count after a rebuild). Limit 1-100, offset >= 0 (the route
-- validates; clamped here too).
create or replace function public.judgment_cited_by(p_id uuid, p_limit integer default 20, p_offset integer default 0)
  returns jsonb
  language sql
  stable
  security definer
  set search_path = ''
  as $$
  with citing as (
    select r.source_judgment_id as id, count(*)::integer as refs
      from public.judgment_references r
     where r.target_judgment_id = p_id and r.kind = 'case'
     group by r.source_judgment_id
  )
  select case when not exists (select 1 from public.judgments where id = p_id) then null else jsonb_build_object(
    'total', (select count(*) from citing),
    'items', coalesce((
      select jsonb_agg(jsonb_build_object(
               'id', p.id, 'case_number', p.case_number, 'title', p.title, 'court_name', p.court_name,
               'decision_date', p.decision_date, 'jurisdiction', p.jurisdiction, 'outcome', p.outcome,
               'cited_by_count', p.cited_by_count, 'references', p.refs)
             order by p.decision_date desc nulls last, p.id)
        from (select j.id, j.case_number, j.title, j.court_name, j.decision_date, j.jurisdiction, j.outcome, j.cited_by_count, c.refs
                from citing c join public.judgments j on j.id = c.id
               order by j.decision_date desc nulls last, j.id
               limit least(greatest(coalesce(p_limit, 20), 1), 100)
              offset greatest(coalesce(p_offset, 0), 0)) p), '[]'::jsonb)) end
$$;
revoke execute on function public.judgment_cited_by(uuid, integer, integer) from public;
grant execute on function public.judgment_cited_by(uuid, integer, integer) to anon, authenticated, service_role;
