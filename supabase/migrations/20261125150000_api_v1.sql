-- The reference API for servers (/api/v1) and the users' own API keys.
--
-- 1. api_keys gains an optional expiry and last_used_at (touched at most once a minute per key by the app); the lookup
--    skips expired keys. Users manage their own keys through service-role functions that take the verified user id
--    from the web tier (the table stays service-role only, as in 20260105000100_api_keys.sql): at most 10 active keys
--    per user (SK001 past it).
-- 2. api_v1_* functions let a key act as its user on user data with RLS applying: they switch the transaction to the
--    `authenticated` role with that user's claims (as PostgREST does for a bearer token) and then call the very
--    collection functions the web tier uses. SET ROLE is legal here because the functions are SECURITY INVOKER and
--    the session user (the gateway's or PostgREST's login role) is a member of `authenticated`.
-- 3. api_feedback: feedback sent through POST /api/v1/feedback; only admins read it (is_admin()).
-- 4. Statistics and trends of the corpus (public judgment data) and of search activity (popular queries only above a
--    minimum count, so no rare query text leaks).

-- 1. API keys --------------------------------------------------------------------------------------------------------
alter table public.api_keys add column if not exists expires_at timestamptz;
alter table public.api_keys add column if not exists last_used_at timestamptz;
create index if not exists api_keys_user_idx on public.api_keys (user_id) where revoked_at is null;

drop function if exists public.api_key_lookup(text);
create function public.api_key_lookup(p_prefix text)
returns table (id uuid, name text, key_hash text, user_id uuid, expires_at timestamptz)
language sql
stable
security invoker
set search_path = ''
as $$
  select k.id, k.name, k.key_hash, k.user_id, k.expires_at
  from public.api_keys k
  where k.prefix = p_prefix and k.revoked_at is null and (k.expires_at is null or k.expires_at > now())
$$;

-- Cheap: the app calls it at most once a minute per key, and the row is only rewritten when a minute has passed.
create or replace function public.api_key_touch(p_id uuid)
returns void
language sql
volatile
security invoker
set search_path = ''
as $$
  update public.api_keys set last_used_at = now()
  where id = p_id and (last_used_at is null or last_used_at < now() - interval '1 minute')
$$;

create or replace function public.api_key_list_for_user(p_user_id uuid)
returns table (id uuid, name text, prefix text, created_at timestamptz, last_used_at timestamptz, expires_at timestamptz)
language sql
stable
security invoker
set search_path = ''
as $$
  select k.id, k.name, k.prefix, k.created_at, k.last_used_at, k.expires_at
  from public.api_keys k
  where k.user_id = p_user_id and k.revoked_at is null
  order by k.created_at desc, k.id
$$;

-- Active = not revoked and not expired. The per-user advisory lock makes two concurrent creations count each other.
create or replace function public.api_key_create_for_user(
  p_user_id uuid, p_name text, p_prefix text, p_key_hash text, p_expires_at timestamptz, p_max_active integer
)
returns uuid
language plpgsql
volatile
security invoker
set search_path = ''
as $$
declare
  v_id uuid;
begin
  perform pg_advisory_xact_lock(hashtext('api_keys:' || p_user_id::text));
  if (select count(*) from public.api_keys k
      where k.user_id = p_user_id and k.revoked_at is null and (k.expires_at is null or k.expires_at > now())) >= p_max_active then
    raise exception 'at most % active API keys', p_max_active using errcode = 'SK001';
  end if;
  insert into public.api_keys (name, prefix, key_hash, user_id, expires_at)
  values (p_name, p_prefix, p_key_hash, p_user_id, p_expires_at)
  returning id into v_id;
  return v_id;
end
$$;

create or replace function public.api_key_revoke_for_user(p_user_id uuid, p_id uuid)
returns boolean
language sql
volatile
security invoker
set search_path = ''
as $$
  with revoked as (
    update public.api_keys set revoked_at = now()
    where id = p_id and user_id = p_user_id and revoked_at is null returning 1
  )
  select exists (select 1 from revoked)
$$;

revoke all on function public.api_key_lookup(text) from public, anon, authenticated;
revoke all on function public.api_key_touch(uuid) from public, anon, authenticated;
revoke all on function public.api_key_list_for_user(uuid) from public, anon, authenticated;
revoke all on function public.api_key_create_for_user(uuid, text, text, text, timestamptz, integer) from public, anon, authenticated;
revoke all on function public.api_key_revoke_for_user(uuid, uuid) from public, anon, authenticated;
grant execute on function public.api_key_lookup(text) to service_role;
grant execute on function public.api_key_touch(uuid) to service_role;
grant execute on function public.api_key_list_for_user(uuid) to service_role;
grant execute on function public.api_key_create_for_user(uuid, text, text, text, timestamptz, integer) to service_role;
grant execute on function public.api_key_revoke_for_user(uuid, uuid) to service_role;

-- 2. Acting as the key's user ----------------------------------------------------------------------------------------
-- Become `authenticated` with the user's claims for the rest of this transaction (one RPC = one transaction).
create or replace function public.api_v1_become_user(p_user_id uuid)
returns void
language plpgsql
volatile
security invoker
set search_path = ''
as $$
begin
  if p_user_id is null then
    raise exception 'a user is required' using errcode = '42501';
  end if;
  perform set_config('request.jwt.claims', json_build_object('sub', p_user_id, 'role', 'authenticated')::text, true);
  perform set_config('role', 'authenticated', true);
end
$$;

create or replace function public.api_v1_list_collections(p_user_id uuid, p_limit integer, p_offset integer)
returns jsonb
language plpgsql
volatile
security invoker
set search_path = ''
as $$
declare
  v_rows jsonb;
  v_total integer;
begin
  perform public.api_v1_become_user(p_user_id);
  select coalesce(jsonb_agg(to_jsonb(c)), '[]'::jsonb) into v_rows from public.list_collections(p_limit, p_offset) c;
  v_total := public.count_collections();
  return jsonb_build_object('collections', v_rows, 'total', v_total);
end
$$;

create or replace function public.api_v1_create_collection(
  p_user_id uuid, p_name text, p_description text, p_tags text[], p_document_ids uuid[]
)
returns jsonb
language plpgsql
volatile
security invoker
set search_path = ''
as $$
begin
  perform public.api_v1_become_user(p_user_id);
  return to_jsonb(public.create_collection(p_name, p_description, coalesce(p_tags, '{}'), coalesce(p_document_ids, '{}')));
end
$$;

-- The collection (null when it is not the user's: RLS hides it) and its newest p_documents members.
create or replace function public.api_v1_get_collection(p_user_id uuid, p_collection_id uuid, p_documents integer)
returns jsonb
language plpgsql
volatile
security invoker
set search_path = ''
as $$
declare
  v_row jsonb;
begin
  perform public.api_v1_become_user(p_user_id);
  select to_jsonb(c) into v_row from public.get_collection(p_collection_id) c;
  if v_row is null then
    return null;
  end if;
  return v_row || jsonb_build_object('documents', (
    select coalesce(jsonb_agg(jsonb_build_object('id', d.id, 'case_number', d.case_number, 'title', d.title, 'added_at', d.added_at)), '[]'::jsonb)
    from public.list_collection_documents(p_collection_id, p_documents, 0) d
  ));
end
$$;

revoke all on function public.api_v1_become_user(uuid) from public, anon, authenticated;
revoke all on function public.api_v1_list_collections(uuid, integer, integer) from public, anon, authenticated;
revoke all on function public.api_v1_create_collection(uuid, text, text, text[], uuid[]) from public, anon, authenticated;
revoke all on function public.api_v1_get_collection(uuid, uuid, integer) from public, anon, authenticated;
grant execute on function public.api_v1_become_user(uuid) to service_role;
grant execute on function public.api_v1_list_collections(uuid, integer, integer) to service_role;
grant execute on function public.api_v1_create_collection(uuid, text, text, text[], uuid[]) to service_role;
grant execute on function public.api_v1_get_collection(uuid, uuid, integer) to service_role;

-- 3. Feedback ----------------------------------------------------------------------------------------------------------
create table if not exists public.api_feedback (
  id uuid primary key default gen_random_uuid(),
  type text not null check (type in ('search', 'chat', 'document')),
  rating smallint not null check (rating between 1 and 5),
  comment text check (char_length(comment) <= 2000),
  context jsonb not null default '{}'::jsonb check (jsonb_typeof(context) = 'object'),
  user_id uuid references auth.users (id) on delete set null,
  api_key_id uuid references public.api_keys (id) on delete set null,
  created_at timestamptz not null default now()
);
create index if not exists api_feedback_created_idx on public.api_feedback (created_at desc);

alter table public.api_feedback enable row level security;
revoke all on table public.api_feedback from public, anon, authenticated;
grant select on table public.api_feedback to authenticated;
grant select, insert on table public.api_feedback to service_role;
drop policy if exists api_feedback_admin_read on public.api_feedback;
create policy api_feedback_admin_read on public.api_feedback for select to authenticated using ((select public.is_admin()));

create or replace function public.api_feedback_create(
  p_type text, p_rating integer, p_comment text, p_context jsonb, p_user_id uuid, p_api_key_id uuid
)
returns table (id uuid, created_at timestamptz)
language sql
volatile
security invoker
set search_path = ''
as $$
  insert into public.api_feedback (type, rating, comment, context, user_id, api_key_id)
  values (p_type, p_rating, p_comment, coalesce(p_context, '{}'::jsonb), p_user_id, p_api_key_id)
  returning api_feedback.id, api_feedback.created_at
$$;
revoke all on function public.api_feedback_create(text, integer, text, jsonb, uuid, uuid) from public, anon, authenticated;
grant execute on function public.api_feedback_create(text, integer, text, jsonb, uuid, uuid) to service_role;

-- 4. Statistics and trends ---------------------------------------------------------------------------------------------
create or replace function public.api_v1_statistics(
  p_jurisdiction text, p_date_from date, p_date_to date, p_min_query_count integer, p_days integer
)
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  with j as (
    select jurisdiction, court_level, decision_date
    from public.judgments
    where (p_jurisdiction is null or jurisdiction = p_jurisdiction)
      and (p_date_from is null or decision_date >= p_date_from)
      and (p_date_to is null or decision_date <= p_date_to)
  ),
  s as (
    select query from public.search_analytics
    where created_at >= now() - make_interval(days => p_days) and query <> ''
  )
  select jsonb_build_object(
    'total_documents', (select count(*) from j),
    'by_jurisdiction', (select coalesce(jsonb_object_agg(k, n), '{}'::jsonb) from (select jurisdiction k, count(*) n from j group by 1) t),
    'by_court_level', (select coalesce(jsonb_object_agg(k, n), '{}'::jsonb) from (select coalesce(court_level, 'unknown') k, count(*) n from j group by 1) t),
    'by_year', (select coalesce(jsonb_object_agg(k, n), '{}'::jsonb)
                from (select extract(year from decision_date)::int::text k, count(*) n from j where decision_date is not null group by 1) t),
    'search_activity', jsonb_build_object(
      'total_searches', (select count(*) from s),
      'avg_searches_per_day', (select round(count(*)::numeric / greatest(p_days, 1), 2) from s),
      'popular_queries', (select coalesce(jsonb_agg(jsonb_build_object('query', q, 'count', n) order by n desc, q), '[]'::jsonb)
                          from (select lower(btrim(query)) q, count(*) n from s group by 1 having count(*) >= p_min_query_count
                                order by 2 desc, 1 limit 10) t)
    )
  )
$$;

create or replace function public.api_v1_trends(p_months integer)
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  with j as (
    select to_char(date_trunc('month', decision_date), 'YYYY-MM') m, coalesce(case_type, 'unknown') ct
    from public.judgments
    where decision_date >= (date_trunc('month', now()) - make_interval(months => p_months - 1))::date
  )
  select jsonb_build_object('trends', jsonb_build_object(
    'decisions_by_month', (select coalesce(jsonb_agg(jsonb_build_object('month', m, 'count', n) order by m), '[]'::jsonb)
                           from (select m, count(*) n from j group by 1) t),
    'case_types_trend', (select coalesce(jsonb_object_agg(ct, months), '{}'::jsonb) from (
                           select ct, jsonb_agg(jsonb_build_object('month', m, 'count', n) order by m) months
                           from (select ct, m, count(*) n from j group by 1, 2) x group by ct) t)
  ))
$$;

revoke all on function public.api_v1_statistics(text, date, date, integer, integer) from public, anon, authenticated;
revoke all on function public.api_v1_trends(integer) from public, anon, authenticated;
grant execute on function public.api_v1_statistics(text, date, date, integer, integer) to service_role;
grant execute on function public.api_v1_trends(integer) to service_role;

-- 5. The document list and the search facets of the reference API ----------------------------------------------------
-- One page of judgment summaries with exact filters (court_name is not a filterable attribute of the search index, so
-- the list reads the table). `relevance` has no query to rank by here: it orders like `date`, documented in docs/api.md.
create or replace function public.api_v1_list_documents(
  p_jurisdiction text, p_court_name text, p_date_from date, p_date_to date, p_ascending boolean, p_limit integer, p_offset integer
)
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  with f as (
    select j.id, j.case_number, j.title, j.summary, j.court_name, j.jurisdiction, j.court_level, j.case_type,
           j.decision_type, j.outcome, j.decision_date, j.keywords
    from public.judgments j
    where (p_jurisdiction is null or j.jurisdiction = p_jurisdiction)
      and (p_court_name is null or j.court_name = p_court_name)
      and (p_date_from is null or j.decision_date >= p_date_from)
      and (p_date_to is null or j.decision_date <= p_date_to)
  ),
  page as (
    select * from f
    order by
      case when p_ascending then f.decision_date end asc nulls last,
      case when not p_ascending then f.decision_date end desc nulls last,
      f.id
    limit least(greatest(p_limit, 1), 100) offset greatest(p_offset, 0)
  )
  select jsonb_build_object(
    'total', (select count(*) from f),
    'results', (select coalesce(jsonb_agg(jsonb_strip_nulls(to_jsonb(page)) order by
                  case when p_ascending then page.decision_date end asc nulls last,
                  case when not p_ascending then page.decision_date end desc nulls last, page.id), '[]'::jsonb) from page)
  )
$$;

-- Counts by jurisdiction, court level, case type and decision year of the judgments matching the reference filters.
create or replace function public.api_v1_facets(
  p_jurisdiction text, p_court_level text, p_case_type text, p_date_from date, p_date_to date, p_keywords text[]
)
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  with f as (
    select j.jurisdiction, j.court_level, j.case_type, j.decision_date
    from public.judgments j
    where (p_jurisdiction is null or j.jurisdiction = p_jurisdiction)
      and (p_court_level is null or j.court_level = p_court_level)
      and (p_case_type is null or j.case_type = p_case_type)
      and (p_date_from is null or j.decision_date >= p_date_from)
      and (p_date_to is null or j.decision_date <= p_date_to)
      and (p_keywords is null or cardinality(p_keywords) = 0 or j.keywords @> p_keywords)
  )
  select jsonb_build_object(
    'facets', jsonb_build_object(
      'jurisdiction', (select coalesce(jsonb_object_agg(k, n), '{}'::jsonb) from (select jurisdiction k, count(*) n from f group by 1) t),
      'court_level', (select coalesce(jsonb_object_agg(k, n), '{}'::jsonb) from (select court_level k, count(*) n from f where court_level is not null group by 1) t),
      'case_type', (select coalesce(jsonb_object_agg(k, n), '{}'::jsonb) from (select case_type k, count(*) n from f where case_type is not null group by 1) t),
      'year', (select coalesce(jsonb_object_agg(k, n), '{}'::jsonb)
               from (select extract(year from decision_date)::int::text k, count(*) n from f where decision_date is not null group by 1) t)
    ),
    'total', (select count(*) from f)
  )
$$;

revoke all on function public.api_v1_list_documents(text, text, date, date, boolean, integer, integer) from public, anon, authenticated;
revoke all on function public.api_v1_facets(text, text, text, date, date, text[]) from public, anon, authenticated;
grant execute on function public.api_v1_list_documents(text, text, date, date, boolean, integer, integer) to service_role;
grant execute on function public.api_v1_facets(text, text, text, date, date, text[]) to service_role;
