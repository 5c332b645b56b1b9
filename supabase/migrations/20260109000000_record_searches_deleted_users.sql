-- record_searches, again: a queued row whose account was deleted before the batch was flushed (the queue holds rows
-- up to SEARCH_ANALYTICS_FLUSH_MS) is dropped, as the deletion dropped the account's other rows (on delete cascade).
-- Before, that row's foreign-key violation failed the whole batch and every other searcher's rows in it were lost.
-- The batch is still one insert; only when it hits a deleted account are its rows written one by one (a
-- subtransaction each), skipping those. No read of auth.users is needed (service_role has none): the key check says it.

-- The insert itself, with the clamping of record_search, in one place for both paths below.
create or replace function public.insert_search_rows(p_rows jsonb)
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

create or replace function public.record_searches(p_rows jsonb)
returns integer
language plpgsql
volatile
security invoker
set search_path = ''
as $$
declare
  v_written integer := 0;
  v_row jsonb;
begin
  begin
    return public.insert_search_rows(p_rows);
  exception when foreign_key_violation then
    null; -- some account is gone: row by row below
  end;
  for v_row in select value from jsonb_array_elements(p_rows) loop
    begin
      v_written := v_written + public.insert_search_rows(jsonb_build_array(v_row));
    exception when foreign_key_violation then
      null; -- the account is gone, and its searches with it
    end;
  end loop;
  return v_written;
end
$$;

revoke all on function public.insert_search_rows(jsonb) from public, anon, authenticated;
grant execute on function public.insert_search_rows(jsonb) to service_role;
revoke all on function public.record_searches(jsonb) from public, anon, authenticated;
grant execute on function public.record_searches(jsonb) to service_role;
