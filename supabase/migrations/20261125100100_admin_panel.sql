-- Administration panel: the read functions behind /api/admin/*, the access snapshot the web
-- tier caches to refuse banned users and revoked admins, and the scheduler's job-run record. Every function here is
-- executable by service_role only: the routes call them with the service client after withRoute verified the admin
-- role. Those reading auth.users are SECURITY DEFINER (the auth schema is the identity provider's; on Supabase only
-- its owner reads it), with search_path pinned and no caller-controlled SQL.

-- Who is banned now and who holds the admin role now (ids only), read every few seconds per app process.
create or replace function public.auth_access_snapshot() returns jsonb
language sql stable
security definer
set search_path = ''
as $$
  select pg_catalog.jsonb_build_object(
    'banned', coalesce((select pg_catalog.jsonb_agg(u.id) from auth.users u
                        where u.banned_until is not null and u.banned_until > now() and u.deleted_at is null), '[]'::jsonb),
    'admins', coalesce((select pg_catalog.jsonb_agg(u.id) from auth.users u
                        where u.raw_app_meta_data ->> 'role' = 'admin' and u.deleted_at is null), '[]'::jsonb),
    'at', now())
$$;
revoke all on function public.auth_access_snapshot() from public;
grant execute on function public.auth_access_snapshot() to service_role;

-- Users for the panel: e-mail substring (case-insensitive, LIKE metacharacters escaped), role, created, last sign-in,
-- banned, collections count; newest first.
create or replace function public.admin_list_users(p_q text default null, p_page integer default 1, p_limit integer default 20)
returns jsonb
language sql stable
security definer
set search_path = ''
as $$
  with matched as (
    select u.id, u.email, u.created_at, u.last_sign_in_at, u.banned_until,
           coalesce(u.raw_app_meta_data ->> 'role', '') = 'admin' as is_admin
    from auth.users u
    where u.deleted_at is null
      and (coalesce(p_q, '') = '' or u.email ilike '%' || pg_catalog.replace(pg_catalog.replace(pg_catalog.replace(p_q, '\', '\\'), '%', '\%'), '_', '\_') || '%')
  ), page as (
    select m.* from matched m order by m.created_at desc, m.id
    limit greatest(1, least(p_limit, 100)) offset (greatest(p_page, 1) - 1) * greatest(1, least(p_limit, 100))
  )
  select pg_catalog.jsonb_build_object(
    'total', (select count(*) from matched),
    'users', coalesce((select pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
        'id', p.id, 'email', p.email, 'role', case when p.is_admin then 'admin' else 'user' end,
        'created_at', p.created_at, 'last_sign_in_at', p.last_sign_in_at,
        'banned', p.banned_until is not null and p.banned_until > now(),
        'collections', (select count(*) from public.collections c where c.user_id = p.id))
      order by p.created_at desc, p.id) from page p), '[]'::jsonb))
$$;
revoke all on function public.admin_list_users(text, integer, integer) from public;
grant execute on function public.admin_list_users(text, integer, integer) to service_role;

-- One user's role and ban state (the "before" of an audit entry), or null.
create or replace function public.admin_user_state(p_user_id uuid) returns jsonb
language sql stable
security definer
set search_path = ''
as $$
  select pg_catalog.jsonb_build_object(
    'id', u.id, 'email', u.email,
    'role', case when u.raw_app_meta_data ->> 'role' = 'admin' then 'admin' else 'user' end,
    'banned', u.banned_until is not null and u.banned_until > now())
  from auth.users u where u.id = p_user_id and u.deleted_at is null
$$;
revoke all on function public.admin_user_state(uuid) from public;
grant execute on function public.admin_user_state(uuid) to service_role;

create or replace function public.admin_stats() returns jsonb
language sql stable
security definer
set search_path = ''
as $$
  select pg_catalog.jsonb_build_object(
    'users', (select pg_catalog.jsonb_build_object(
        'total', count(*),
        'admins', count(*) filter (where u.raw_app_meta_data ->> 'role' = 'admin'),
        'new_7d', count(*) filter (where u.created_at > now() - interval '7 days'),
        'active_7d', count(*) filter (where u.last_sign_in_at > now() - interval '7 days'),
        'banned', count(*) filter (where u.banned_until > now()))
      from auth.users u where u.deleted_at is null),
    'judgments', (select pg_catalog.jsonb_build_object(
        'total', count(*),
        'PL', count(*) filter (where j.jurisdiction = 'PL'),
        'UK', count(*) filter (where j.jurisdiction = 'UK'),
        'base_extracted', count(*) filter (where public.is_completed_status(j.base_extraction_status)))
      from public.judgments j),
    'collections', (select count(*) from public.collections),
    'searches', (select pg_catalog.jsonb_build_object(
        'total', count(*),
        'last_24h', count(*) filter (where s.created_at > now() - interval '24 hours'),
        'zero_result_rate', public.coverage_ratio((count(*) filter (where s.hit_count = 0))::integer, count(*)::integer))
      from public.search_analytics s),
    'events_7d', (select coalesce(pg_catalog.jsonb_object_agg(name, n), '{}'::jsonb)
      from (select e.name, count(*) as n from public.app_events e where e.created_at > now() - interval '7 days' group by 1) s))
$$;
revoke all on function public.admin_stats() from public;
grant execute on function public.admin_stats() to service_role;

-- Recent product events and searches, newest first, before a cursor. Events carry name and surface only: never their
-- properties (spec: Events — no raw query text in events). Searches carry their query (the search analytics row is
-- where raw query text lives), the hit count and mode. User e-mail for signed-in callers.
create or replace function public.admin_activity(p_limit integer default 50, p_before timestamptz default null)
returns jsonb
language sql stable
security definer
set search_path = ''
as $$
  select coalesce(pg_catalog.jsonb_agg(pg_catalog.to_jsonb(a) order by a.at desc, a.id desc), '[]'::jsonb)
  from (
    select * from (
      (select 'event' as kind, e.id::text as id, e.created_at as at, e.name as name, e.surface as detail,
              null::integer as hit_count, u.email as user_email
       from public.app_events e left join auth.users u on u.id = e.user_id
       where p_before is null or e.created_at < p_before
       order by e.created_at desc limit greatest(1, least(p_limit, 200)))
      union all
      (select 'search', s.id::text, s.created_at, s.mode, pg_catalog.left(s.query, 200), s.hit_count, u.email
       from public.search_analytics s left join auth.users u on u.id = s.user_id
       where p_before is null or s.created_at < p_before
       order by s.created_at desc limit greatest(1, least(p_limit, 200)))
    ) both_kinds order by at desc, id desc limit greatest(1, least(p_limit, 200))
  ) a
$$;
revoke all on function public.admin_activity(integer, timestamptz) from public;
grant execute on function public.admin_activity(integer, timestamptz) to service_role;

-- The admin audit log for the panel (service role reads it for the route; admins could also read it under RLS).
create or replace function public.admin_audit_entries(p_limit integer default 50, p_before timestamptz default null)
returns jsonb
language sql stable
security definer
set search_path = ''
as $$
  select coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
      'id', l.id, 'at', l.at, 'actor_id', l.actor_id, 'actor_email', u.email, 'action', l.action,
      'target_type', l.target_type, 'target_id', l.target_id, 'before', l.before, 'after', l.after) order by l.at desc, l.id desc), '[]'::jsonb)
  from (select * from public.admin_audit_log x where p_before is null or x.at < p_before
        order by x.at desc, x.id desc limit greatest(1, least(p_limit, 200))) l
  left join auth.users u on u.id = l.actor_id
$$;
revoke all on function public.admin_audit_entries(integer, timestamptz) from public;
grant execute on function public.admin_audit_entries(integer, timestamptz) to service_role;

-- Judgments by extraction status (base, structure, deep), by jurisdiction and year; completeness comes from the
-- dashboard row (already computed with the same constants).
create or replace function public.admin_documents_stats() returns jsonb
language sql stable
security invoker
set search_path = ''
as $$
  select pg_catalog.jsonb_build_object(
    'total', (select count(*) from public.judgments),
    'extraction', pg_catalog.jsonb_build_object(
      'base', (select coalesce(pg_catalog.jsonb_object_agg(k, n), '{}'::jsonb) from
               (select coalesce(nullif(base_extraction_status, ''), 'none') k, count(*) n from public.judgments group by 1) s),
      'structure', (select coalesce(pg_catalog.jsonb_object_agg(k, n), '{}'::jsonb) from
               (select coalesce(nullif(structure_extraction_status, ''), 'none') k, count(*) n from public.judgments group by 1) s),
      'deep', (select coalesce(pg_catalog.jsonb_object_agg(k, n), '{}'::jsonb) from
               (select coalesce(nullif(deep_analysis_status, ''), 'none') k, count(*) n from public.judgments group by 1) s)),
    'by_jurisdiction_year', (select coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object('year', y, 'PL', pl, 'UK', uk) order by y nulls last), '[]'::jsonb)
      from (select extract(year from decision_date)::integer y, count(*) filter (where jurisdiction = 'PL') pl,
                   count(*) filter (where jurisdiction = 'UK') uk from public.judgments group by 1) s),
    'completeness', (select d.stats -> 'data_completeness' from public.dashboard_stats d where d.id),
    'completeness_computed_at', (select d.computed_at from public.dashboard_stats d where d.id))
$$;
revoke all on function public.admin_documents_stats() from public;
grant execute on function public.admin_documents_stats() to service_role;

-- Scheduler bookkeeping: the last run of each scheduled job, whichever process ran it.
create table if not exists public.scheduled_job_runs (
  name text primary key check (name ~ '^[a-z][a-z0-9_]{0,63}$'),
  last_started_at timestamptz,
  last_finished_at timestamptz,
  last_ok boolean,
  last_error text check (char_length(last_error) <= 2000)
);
comment on table public.scheduled_job_runs is 'Last run and result per scheduled job (written by the scheduler; shown on /admin/system).';
alter table public.scheduled_job_runs enable row level security;
revoke all on table public.scheduled_job_runs from public, anon, authenticated;
grant select, insert, update on table public.scheduled_job_runs to service_role;

create or replace function public.record_job_run(p_name text, p_ok boolean, p_error text default null, p_started_at timestamptz default null)
returns void
language sql volatile
security invoker
set search_path = ''
as $$
  insert into public.scheduled_job_runs (name, last_started_at, last_finished_at, last_ok, last_error)
  values (p_name, coalesce(p_started_at, now()), now(), p_ok, pg_catalog.left(p_error, 2000))
  on conflict (name) do update set last_started_at = excluded.last_started_at, last_finished_at = excluded.last_finished_at,
    last_ok = excluded.last_ok, last_error = excluded.last_error
$$;
revoke all on function public.record_job_run(text, boolean, text, timestamptz) from public;
grant execute on function public.record_job_run(text, boolean, text, timestamptz) to service_role;

-- Database facts for /admin/system: size, the last sync runs, the scheduler's jobs.
create or replace function public.admin_system_facts() returns jsonb
language sql stable
security invoker
set search_path = ''
as $$
  select pg_catalog.jsonb_build_object(
    'database_bytes', pg_catalog.pg_database_size(pg_catalog.current_database()),
    'sync_runs', (select coalesce(pg_catalog.jsonb_agg(pg_catalog.to_jsonb(r) order by r.started_at desc), '[]'::jsonb) from
        (select id, kind, engine, started_at, completed_at, error, documents, chunks, deleted
         from public.search_sync_runs order by started_at desc limit 10) r),
    'jobs', (select coalesce(pg_catalog.jsonb_agg(pg_catalog.to_jsonb(j) order by j.name), '[]'::jsonb) from public.scheduled_job_runs j))
$$;
revoke all on function public.admin_system_facts() from public;
grant execute on function public.admin_system_facts() to service_role;
