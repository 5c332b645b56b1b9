-- Search analytics rows written in batches: the search route queues rows in process and flushes them with one call
-- (lib/backend/search-analytics.ts), instead of one RPC per search on the hot path. Same clamping as record_search;
-- anything but a JSON array writes nothing. service_role only, like record_search.
create or replace function public.record_searches(p_rows jsonb)
returns integer
language sql
volatile
security invoker
set search_path = ''
as $$
  with ins as (
    insert into public.search_analytics (query, hit_count, latency_ms, mode, user_id)
    select left(r.query, 1000), greatest(coalesce(r.hit_count, 0), 0), greatest(coalesce(r.latency_ms, 0), 0), r.mode, r.user_id
      from jsonb_to_recordset(case when jsonb_typeof(p_rows) = 'array' then p_rows else '[]'::jsonb end)
           as r(query text, hit_count integer, latency_ms integer, mode text, user_id uuid)
     where r.query is not null and r.mode is not null
    returning 1
  )
  select count(*)::integer from ins
$$;

revoke all on function public.record_searches(jsonb) from public, anon, authenticated;
grant execute on function public.record_searches(jsonb) to service_role;
