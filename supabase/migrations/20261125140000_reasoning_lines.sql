-- Reasoning lines: three global stores with no owner column (spec: Other records). Any signed-in
-- user reads; only administrators write (spec: the Reasoning lines access table). The gate is the database's, not only
-- the web tier's: RLS write policies require public.is_admin() (the verified token's app_metadata.role), so a
-- non-admin token calling these RPCs straight through PostgREST changes nothing (42501). Deleting a line sets its
-- status to 'deleted' (no delete grant at all): members and events are kept, and only admins see deleted lines.

create table if not exists public.reasoning_lines (
  id uuid primary key default gen_random_uuid(),
  label text not null check (char_length(btrim(label)) between 1 and 200 and char_length(label) <= 200),
  description text check (char_length(description) <= 2000),
  keywords text[] not null default '{}' check (cardinality(keywords) <= 50),
  legal_question text check (char_length(legal_question) <= 1000),
  status text not null default 'active' check (status in ('active', 'merged', 'deleted')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.reasoning_lines is 'Lines of reasoning running through several judgments: global, no owner.';

create table if not exists public.reasoning_line_members (
  line_id uuid not null references public.reasoning_lines (id) on delete cascade,
  judgment_id uuid not null references public.judgments (id) on delete cascade,
  position integer not null check (position >= 0),
  decision_date date,
  similarity real check (similarity between -1 and 1),
  role text not null check (role in ('origin', 'follows', 'distinguishes', 'departs')),
  primary key (line_id, judgment_id)
);
comment on table public.reasoning_line_members is 'Judgments of a line, ordered by decision date (position 0 = origin).';
create index if not exists reasoning_line_members_judgment_idx on public.reasoning_line_members (judgment_id);

create table if not exists public.reasoning_line_events (
  id uuid primary key default gen_random_uuid(),
  line_id uuid not null references public.reasoning_lines (id) on delete cascade,
  kind text not null check (kind in ('drift', 'split', 'merge', 'reversal', 'new_member')),
  at timestamptz not null default now(),
  details jsonb not null default '{}'::jsonb check (jsonb_typeof(details) = 'object'),
  detected_by text not null check (char_length(detected_by) between 1 and 100)
);
comment on table public.reasoning_line_events is 'What happened to a line (drift, split, merge, reversal, new member), with evidence in details.';
create index if not exists reasoning_line_events_line_idx on public.reasoning_line_events (line_id, at);

alter table public.reasoning_lines enable row level security;
alter table public.reasoning_line_members enable row level security;
alter table public.reasoning_line_events enable row level security;

revoke all on table public.reasoning_lines, public.reasoning_line_members, public.reasoning_line_events from public, anon, authenticated;
-- No delete grant: a line is never removed, only marked deleted (members and events stay with it).
grant select, insert, update on table public.reasoning_lines, public.reasoning_line_members, public.reasoning_line_events to authenticated;
grant all on table public.reasoning_lines, public.reasoning_line_members, public.reasoning_line_events to service_role;

-- Reads: every signed-in user, deleted lines (and what hangs off them) for admins only.
create policy reasoning_lines_read on public.reasoning_lines for select to authenticated
  using (status <> 'deleted' or (select public.is_admin()));
create policy reasoning_line_members_read on public.reasoning_line_members for select to authenticated
  using (exists (select 1 from public.reasoning_lines l where l.id = line_id));
create policy reasoning_line_events_read on public.reasoning_line_events for select to authenticated
  using (exists (select 1 from public.reasoning_lines l where l.id = line_id));
-- Writes: administrators only.
create policy reasoning_lines_admin_insert on public.reasoning_lines for insert to authenticated
  with check ((select public.is_admin()));
create policy reasoning_lines_admin_update on public.reasoning_lines for update to authenticated
  using ((select public.is_admin())) with check ((select public.is_admin()));
create policy reasoning_line_members_admin_insert on public.reasoning_line_members for insert to authenticated
  with check ((select public.is_admin()));
create policy reasoning_line_members_admin_update on public.reasoning_line_members for update to authenticated
  using ((select public.is_admin())) with check ((select public.is_admin()));
create policy reasoning_line_events_admin_insert on public.reasoning_line_events for insert to authenticated
  with check ((select public.is_admin()));

create or replace function public.reasoning_lines_touch_updated_at() returns trigger
  language plpgsql
  set search_path = ''
  as $$
begin
  new.updated_at := now();
  return new;
end
$$;
create trigger reasoning_lines_touch_updated_at
  before update on public.reasoning_lines
  for each row execute function public.reasoning_lines_touch_updated_at();
revoke all on function public.reasoning_lines_touch_updated_at() from public, anon, authenticated;

-- One line as the API shows it (members counted, first and last member dates).
create or replace function public.reasoning_line_json(p_line public.reasoning_lines)
  returns jsonb
  language sql stable security invoker
  set search_path = ''
  as $$
  select to_jsonb(p_line) || jsonb_build_object(
    'member_count', (select count(*) from public.reasoning_line_members m where m.line_id = p_line.id),
    'first_date', (select min(m.decision_date) from public.reasoning_line_members m where m.line_id = p_line.id),
    'last_date', (select max(m.decision_date) from public.reasoning_line_members m where m.line_id = p_line.id))
$$;

create or replace function public.reasoning_lines_require_admin() returns void
  language plpgsql stable
  set search_path = ''
  as $$
begin
  -- A clear refusal before any write (RLS would refuse too, with a less telling message).
  if not public.is_admin() then
    raise exception 'only administrators change reasoning lines' using errcode = '42501';
  end if;
end
$$;

-- Store a line with its members: p_members = [{judgment_id, similarity?, role?}]. Positions follow decision date
-- (then id); the earliest member is the origin unless a role says otherwise. Unknown judgment ids: 22023.
create or replace function public.reasoning_line_create(
  p_label text,
  p_description text,
  p_keywords text[],
  p_legal_question text,
  p_members jsonb
)
  returns jsonb
  language plpgsql volatile security invoker
  set search_path = ''
  as $$
declare
  v_line public.reasoning_lines;
  v_wanted integer;
  v_found integer;
begin
  perform public.reasoning_lines_require_admin();
  if jsonb_typeof(p_members) is distinct from 'array' or jsonb_array_length(p_members) not between 1 and 500 then
    raise exception 'members must hold 1 to 500 judgments' using errcode = '22023', detail = 'members';
  end if;
  select count(distinct (e ->> 'judgment_id')) into v_wanted from jsonb_array_elements(p_members) e;
  select count(*) into v_found from public.judgments j
   where j.id in (select (e ->> 'judgment_id')::uuid from jsonb_array_elements(p_members) e);
  if v_found <> v_wanted then
    raise exception 'unknown judgment id among the members' using errcode = '22023', detail = 'members';
  end if;
  insert into public.reasoning_lines (label, description, keywords, legal_question)
  values (btrim(p_label), p_description, coalesce(p_keywords, '{}'), p_legal_question)
  returning * into v_line;
  insert into public.reasoning_line_members (line_id, judgment_id, position, decision_date, similarity, role)
  select v_line.id, m.id, (row_number() over (order by m.decision_date nulls last, m.id) - 1)::integer, m.decision_date, m.similarity,
         coalesce(m.role, case when row_number() over (order by m.decision_date nulls last, m.id) = 1 then 'origin' else 'follows' end)
    from (
      select distinct on (j.id) j.id, j.decision_date, (e ->> 'similarity')::real as similarity, e ->> 'role' as role
        from jsonb_array_elements(p_members) e
        join public.judgments j on j.id = (e ->> 'judgment_id')::uuid
       order by j.id
    ) m;
  return public.reasoning_line_json(v_line);
end
$$;

-- A page of lines, newest first; deleted ones only when asked and the caller is an admin (RLS hides them otherwise).
create or replace function public.reasoning_lines_list(p_limit integer, p_offset integer, p_include_deleted boolean default false)
  returns jsonb
  language sql stable security invoker
  set search_path = ''
  as $$
  with visible as (
    select l.* from public.reasoning_lines l
     where l.status <> 'deleted' or (coalesce(p_include_deleted, false) and public.is_admin())
  )
  select jsonb_build_object(
    'total', (select count(*) from visible),
    'lines', coalesce((
      select jsonb_agg(public.reasoning_line_json(v) order by v.created_at desc, v.id)
        from (select * from visible order by created_at desc, id
              limit least(greatest(coalesce(p_limit, 20), 1), 100) offset greatest(coalesce(p_offset, 0), 0)) v), '[]'::jsonb))
$$;

-- Every visible line with its member ids, keywords and member citations' owners (the DAG, related, search read it).
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
   where l.status <> 'deleted' or (coalesce(p_include_deleted, false) and public.is_admin())
$$;

-- One line with its members (ordered) and events; null when the caller cannot see it (404 upstream).
create or replace function public.reasoning_line_get(p_id uuid, p_include_deleted boolean default false)
  returns jsonb
  language sql stable security invoker
  set search_path = ''
  as $$
  select public.reasoning_line_json(l) || jsonb_build_object(
    'members', coalesce((
      select jsonb_agg(jsonb_build_object('judgment_id', m.judgment_id, 'position', m.position, 'decision_date', m.decision_date,
                                          'similarity', m.similarity, 'role', m.role, 'case_number', j.case_number,
                                          'title', j.title, 'jurisdiction', j.jurisdiction, 'court_name', j.court_name)
                       order by m.position)
        from public.reasoning_line_members m join public.judgments j on j.id = m.judgment_id
       where m.line_id = l.id), '[]'::jsonb),
    'events', coalesce((
      select jsonb_agg(to_jsonb(e) - 'line_id' order by e.at, e.id)
        from public.reasoning_line_events e where e.line_id = l.id), '[]'::jsonb))
    from public.reasoning_lines l
   where l.id = p_id and (l.status <> 'deleted' or (coalesce(p_include_deleted, false) and public.is_admin()))
$$;

-- Mark a line deleted (the lifecycle: active | merged → deleted). Returns {before, after} for the audit log; P0002
-- when there is no such line (or it is already deleted).
create or replace function public.reasoning_line_delete(p_id uuid)
  returns jsonb
  language plpgsql volatile security invoker
  set search_path = ''
  as $$
declare
  v_before text;
begin
  perform public.reasoning_lines_require_admin();
  select l.status into v_before from public.reasoning_lines l where l.id = p_id and l.status <> 'deleted' for update;
  if not found then
    raise exception 'no such reasoning line' using errcode = 'P0002';
  end if;
  update public.reasoning_lines l set status = 'deleted' where l.id = p_id;
  return jsonb_build_object('id', p_id, 'before', v_before, 'after', 'deleted');
end
$$;

-- Persist detected events: p_events = [{line_id, kind, details}]. Returns the stored events.
create or replace function public.reasoning_line_add_events(p_events jsonb, p_detected_by text)
  returns jsonb
  language plpgsql volatile security invoker
  set search_path = ''
  as $$
declare
  v_out jsonb;
begin
  perform public.reasoning_lines_require_admin();
  if jsonb_typeof(p_events) is distinct from 'array' or jsonb_array_length(p_events) > 1000 then
    raise exception 'events must be an array of at most 1000' using errcode = '22023', detail = 'events';
  end if;
  with ins as (
    insert into public.reasoning_line_events (line_id, kind, details, detected_by)
    select (e ->> 'line_id')::uuid, e ->> 'kind', coalesce(e -> 'details', '{}'::jsonb), p_detected_by
      from jsonb_array_elements(p_events) with ordinality x(e, i)
     order by x.i
    returning *
  )
  select coalesce(jsonb_agg(to_jsonb(ins) order by ins.at, ins.id), '[]'::jsonb) into v_out from ins;
  return v_out;
end
$$;

-- The fields reasoning-line analysis reads for a set of judgments (at most 2,000), with the first 4,000 characters of
-- the full text (the search engine embeds the head of the text only: lib/search/document.ts embeddingText).
create or replace function public.reasoning_judgments(p_ids uuid[])
  returns setof jsonb
  language sql stable security invoker
  set search_path = ''
  as $$
  select jsonb_build_object(
    'id', j.id, 'case_number', j.case_number, 'title', j.title, 'summary', j.summary, 'base_case_name', j.base_case_name,
    'keywords', j.keywords, 'legal_topics', j.legal_topics, 'cited_legislation', j.cited_legislation,
    'base_keywords', j.base_keywords, 'jurisdiction', j.jurisdiction, 'decision_date', j.decision_date,
    'court_name', j.court_name, 'base_appeal_outcome', j.base_appeal_outcome, 'base_neutral_citation_number', j.base_neutral_citation_number,
    'full_text', left(j.full_text, 4000))
    from public.judgments j
   where j.id = any (p_ids[1:2000])
$$;

-- Judge lookups by index (judge profile p50 ≤ 200 ms). Measured on the full corpus (12,307
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

-- Citations between visible lines: how many times a member of one line names, by case number, a member of another
-- (the reasoning-line DAG's "cites" edges). Read over the full texts, so only lines' members are scanned.
create or replace function public.reasoning_line_citations(p_include_deleted boolean default false)
  returns table (cited_line uuid, citing_line uuid, citations bigint)
  language sql stable security invoker
  set search_path = ''
  as $$
  with lines as (
    select l.id from public.reasoning_lines l
     where l.status <> 'deleted' or (coalesce(p_include_deleted, false) and public.is_admin())
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

do $$
declare
  fn text;
begin
  foreach fn in array array[
    'public.reasoning_line_json(public.reasoning_lines)',
    'public.reasoning_lines_require_admin()',
    'public.reasoning_line_create(text, text, text[], text, jsonb)',
    'public.reasoning_lines_list(integer, integer, boolean)',
    'public.reasoning_lines_overview(boolean)',
    'public.reasoning_line_get(uuid, boolean)',
    'public.reasoning_line_delete(uuid)',
    'public.reasoning_line_add_events(jsonb, text)',
    'public.reasoning_judgments(uuid[])',
    'public.judge_search(text, integer)',
    'public.judge_record(text, integer)',
    'public.reasoning_line_citations(boolean)'
  ] loop
    execute format('revoke all on function %s from public, anon', fn);
    execute format('grant execute on function %s to authenticated, service_role', fn);
  end loop;
end
$$;
