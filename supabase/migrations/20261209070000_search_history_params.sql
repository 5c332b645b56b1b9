-- Search history keeps each search's filters (docs/cohorts.md, search history page): `params` holds what the search
-- route was asked besides the query text and mode — the engine filter expression (`filter`), the structured filter
-- object (`filters`), the named sort (`sort`) — so /history can show them and run the same search again.
-- The table's rules stay as they were: the owner reads (RLS search_analytics_owner_read) and deletes their own rows,
-- only the service role writes (record_searches), and an account's deletion leaves its rows anonymous
-- (user_id set null). An anonymous row has nobody to run it again, so its params go with the owner (the trigger
-- below): the query text and counts stay for the statistics, the filters do not.

alter table public.search_analytics
  add column if not exists params jsonb
  check (params is null or (jsonb_typeof(params) = 'object' and octet_length(params::text) <= 32768));

-- The batch insert, now with params (an object or nothing; anything else is stored as null).
create or replace function public.insert_search_rows(p_rows jsonb)
returns integer
language sql
volatile
security invoker
set search_path = ''
as $$
  with ins as (
    insert into public.search_analytics (query, hit_count, latency_ms, mode, user_id, params)
    select left(r.query, 1000), greatest(coalesce(r.hit_count, 0), 0), greatest(coalesce(r.latency_ms, 0), 0), r.mode, r.user_id,
           case when jsonb_typeof(r.params) = 'object' and r.params <> '{}'::jsonb and octet_length(r.params::text) <= 32768 then r.params end
      from jsonb_to_recordset(case when jsonb_typeof(p_rows) = 'array' then p_rows else '[]'::jsonb end)
           as r(query text, hit_count integer, latency_ms integer, mode text, user_id uuid, params jsonb)
     where r.query is not null and r.mode is not null
    returning 1
  )
  select count(*)::integer from ins
$$;
revoke all on function public.insert_search_rows(jsonb) from public, anon, authenticated;
grant execute on function public.insert_search_rows(jsonb) to service_role;

-- The history read, now with params (a new result column: the function is replaced, its grants restated).
drop function if exists public.search_history(integer, integer);
create function public.search_history(p_limit integer default 20, p_offset integer default 0)
returns table (id uuid, query text, hit_count integer, latency_ms integer, mode text, created_at timestamptz, params jsonb)
language sql
stable
security invoker
set search_path = ''
as $$
  select s.id, s.query, s.hit_count, s.latency_ms, s.mode, s.created_at, s.params
  from public.search_analytics s
  where s.user_id = (select auth.uid())
  order by s.created_at desc, s.id
  limit least(greatest(coalesce(p_limit, 20), 1), 100)
  offset greatest(coalesce(p_offset, 0), 0)
$$;
revoke all on function public.search_history(integer, integer) from public, anon, authenticated;
grant execute on function public.search_history(integer, integer) to authenticated;

-- An account's deletion sets user_id null (on delete set null): the row's filters go with its owner.
create or replace function public.search_analytics_drop_params_of_anonymous()
returns trigger
language plpgsql
security invoker
set search_path = ''
as $$
begin
  if new.user_id is null and old.user_id is not null then
    new.params := null;
  end if;
  return new;
end
$$;
revoke all on function public.search_analytics_drop_params_of_anonymous() from public, anon, authenticated;
drop trigger if exists search_analytics_drop_params_of_anonymous on public.search_analytics;
create trigger search_analytics_drop_params_of_anonymous
  before update of user_id on public.search_analytics
  for each row execute function public.search_analytics_drop_params_of_anonymous();
