-- One row per search (spec: Other records, search analytics row): raw query text, hit count, latency and mode live
-- here, never in app_events. user_id is null for guests and rows written before attribution. A user reads only their
-- own rows (RLS); rows are written by the search route through record_search (service_role). Deleting an account
-- deletes its search history: raw queries are personal data.

create table if not exists public.search_analytics (
  id uuid primary key default gen_random_uuid(),
  query text not null check (char_length(query) <= 1000),
  hit_count integer not null check (hit_count >= 0),
  latency_ms integer not null check (latency_ms >= 0),
  mode text not null check (mode ~ '^[a-z_]{1,32}$'),
  user_id uuid references auth.users (id) on delete cascade,
  created_at timestamptz not null default now()
);

create index if not exists search_analytics_user_created_idx on public.search_analytics (user_id, created_at desc) where user_id is not null;
create index if not exists search_analytics_created_idx on public.search_analytics (created_at);

alter table public.search_analytics enable row level security;
revoke all on table public.search_analytics from public, anon, authenticated;
grant select on table public.search_analytics to authenticated;
grant select, insert on table public.search_analytics to service_role;

drop policy if exists search_analytics_owner_read on public.search_analytics;
create policy search_analytics_owner_read on public.search_analytics
  for select to authenticated
  using (user_id = (select auth.uid()));

create or replace function public.record_search(
  p_query text,
  p_hit_count integer,
  p_latency_ms integer,
  p_mode text,
  p_user_id uuid default null
)
returns void
language sql
volatile
security invoker
set search_path = ''
as $$
  insert into public.search_analytics (query, hit_count, latency_ms, mode, user_id)
  values (left(p_query, 1000), greatest(p_hit_count, 0), greatest(p_latency_ms, 0), p_mode, p_user_id)
$$;

-- The caller's own recent searches, newest first. SECURITY INVOKER: RLS limits the rows; the WHERE says the same so
-- the plan uses the index and a misconfigured policy could not widen the answer.
create or replace function public.search_history(p_limit integer default 20, p_offset integer default 0)
returns table (id uuid, query text, hit_count integer, latency_ms integer, mode text, created_at timestamptz)
language sql
stable
security invoker
set search_path = ''
as $$
  select s.id, s.query, s.hit_count, s.latency_ms, s.mode, s.created_at
  from public.search_analytics s
  where s.user_id = (select auth.uid())
  order by s.created_at desc, s.id
  limit least(greatest(coalesce(p_limit, 20), 1), 100)
  offset greatest(coalesce(p_offset, 0), 0)
$$;

revoke all on function public.record_search(text, integer, integer, text, uuid) from public, anon, authenticated;
revoke all on function public.search_history(integer, integer) from public, anon, authenticated;
grant execute on function public.record_search(text, integer, integer, text, uuid) to service_role;
grant execute on function public.search_history(integer, integer) to authenticated;
