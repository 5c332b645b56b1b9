-- Reasoning lines: the `merged` status. The spec's access table is the whole web surface of reasoning
-- lines ("the web tier accepts only these method and path combinations"), so no merge route is added: a merge is what
-- the admin operation detect-events already detects (two active lines sharing at least half of the smaller one's
-- members), and it now acts on it. The absorbed line (fewer members; on a tie the newer) moves its members that the
-- surviving line lacks into it, is marked `merged`, and both lines get a `merge` event naming each other. A merged
-- line keeps its own members and events (like a deleted one) and stays readable by id (GET /{id}, /timeline: an old
-- link shows where the line went); lists, the overview behind the DAG, related and search, and the citation edges
-- skip merged lines as they skip deleted ones, unless an admin asks include_deleted.

create or replace function public.reasoning_line_merge(p_into uuid, p_from uuid)
  returns jsonb
  language plpgsql volatile security invoker
  set search_path = ''
  as $$
declare
  v_moved integer;
  v_shared integer;
begin
  perform public.reasoning_lines_require_admin();
  if p_into = p_from then
    raise exception 'a line cannot absorb itself' using errcode = '22023', detail = 'line_ids';
  end if;
  -- Both must be active; lock them in id order so two concurrent merges cannot deadlock.
  perform 1 from public.reasoning_lines l where l.id in (p_into, p_from) and l.status = 'active' order by l.id for update;
  if (select count(*) from public.reasoning_lines l where l.id in (p_into, p_from) and l.status = 'active') <> 2 then
    raise exception 'no such active reasoning line' using errcode = 'P0002';
  end if;
  select count(*) into v_shared
    from public.reasoning_line_members a join public.reasoning_line_members b on b.judgment_id = a.judgment_id
   where a.line_id = p_from and b.line_id = p_into;
  insert into public.reasoning_line_members (line_id, judgment_id, position, decision_date, similarity, role)
  select p_into, m.judgment_id, 1000000 + m.position, m.decision_date, m.similarity,
         case when m.role = 'origin' then 'follows' else m.role end
    from public.reasoning_line_members m
   where m.line_id = p_from
     and not exists (select 1 from public.reasoning_line_members x where x.line_id = p_into and x.judgment_id = m.judgment_id);
  get diagnostics v_moved = row_count;
  -- Positions follow decision date (then id) again, as at creation; the earliest member is the origin.
  with ordered as (
    select m.judgment_id, (row_number() over (order by m.decision_date nulls last, m.judgment_id) - 1)::integer as pos
      from public.reasoning_line_members m where m.line_id = p_into
  )
  update public.reasoning_line_members m
     set position = o.pos,
         role = case when o.pos = 0 then 'origin' when m.role = 'origin' then 'follows' else m.role end
    from ordered o
   where m.line_id = p_into and m.judgment_id = o.judgment_id;
  update public.reasoning_lines l set status = 'merged' where l.id = p_from;
  update public.reasoning_lines l set updated_at = now() where l.id = p_into;
  return jsonb_build_object('into', p_into, 'from', p_from, 'shared_members', v_shared, 'moved_members', v_moved);
end
$$;
revoke all on function public.reasoning_line_merge(uuid, uuid) from public, anon;
grant execute on function public.reasoning_line_merge(uuid, uuid) to authenticated, service_role;

create or replace function public.reasoning_lines_list(p_limit integer, p_offset integer, p_include_deleted boolean default false)
  returns jsonb
  language sql stable security invoker
  set search_path = ''
  as $$
  with visible as (
    select l.* from public.reasoning_lines l
     where l.status = 'active' or (coalesce(p_include_deleted, false) and public.is_admin())
  )
  select jsonb_build_object(
    'total', (select count(*) from visible),
    'lines', coalesce((
      select jsonb_agg(public.reasoning_line_json(v) order by v.created_at desc, v.id)
        from (select * from visible order by created_at desc, id
              limit least(greatest(coalesce(p_limit, 20), 1), 100) offset greatest(coalesce(p_offset, 0), 0)) v), '[]'::jsonb))
$$;

create or replace function public.reasoning_lines_overview(p_include_deleted boolean default false)
  returns jsonb
  language sql stable security invoker
  set search_path = ''
  as $$
  select coalesce(jsonb_agg(public.reasoning_line_json(l) || jsonb_build_object(
           'members', coalesce((
             select jsonb_agg(jsonb_build_object('judgment_id', m.judgment_id, 'decision_date', m.decision_date,
                                                 'case_number', j.case_number) order by m.position)
               from public.reasoning_line_members m join public.judgments j on j.id = m.judgment_id
              where m.line_id = l.id), '[]'::jsonb))
         order by l.created_at, l.id), '[]'::jsonb)
    from public.reasoning_lines l
   where l.status = 'active' or (coalesce(p_include_deleted, false) and public.is_admin())
$$;

create or replace function public.reasoning_line_citations(p_include_deleted boolean default false)
  returns table (cited_line uuid, citing_line uuid, citations bigint)
  language sql stable security invoker
  set search_path = ''
  as $$
  with lines as (
    select l.id from public.reasoning_lines l
     where l.status = 'active' or (coalesce(p_include_deleted, false) and public.is_admin())
  ),
  m as (
    select mm.line_id, j.id, j.case_number, j.full_text
      from public.reasoning_line_members mm join lines on lines.id = mm.line_id
      join public.judgments j on j.id = mm.judgment_id
  )
  select a.line_id, b.line_id, count(*)
    from m a join m b on b.line_id <> a.line_id and b.id <> a.id
   where a.case_number is not null and char_length(a.case_number) >= 5 and strpos(b.full_text, a.case_number) > 0
   group by 1, 2
$$;

