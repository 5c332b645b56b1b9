-- The sync state the health endpoint reports for the search engine (spec: health status, "a sync state with
-- last_completed_at and last_error"). Read through the service role only, like the runs table itself.
create or replace function public.search_sync_state()
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  select jsonb_build_object(
    'last_completed_at',
      (select max(r.completed_at) from public.search_sync_runs r where r.completed_at is not null and r.error is null),
    'last_error',
      (select r.error from public.search_sync_runs r where r.completed_at is not null order by r.completed_at desc limit 1)
  )
$$;

revoke all on function public.search_sync_state() from public, anon, authenticated;
grant execute on function public.search_sync_state() to service_role;
