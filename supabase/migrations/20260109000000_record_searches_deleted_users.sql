-- record_searches, again: a queued row whose account was deleted before the batch was flushed (the queue holds rows
-- up to SEARCH_ANALYTICS_FLUSH_MS) is dropped, as the deletion dropped the account's other rows (on delete cascade).
-- Before, that row's foreign-key violation failed the whole batch and every other searcher's rows in it were lost.
-- The batch is still one insert; only when it hits a deleted account are its rows written one by one (a
-- subtransaction each), skipping those. No read of auth.users is needed (service_role has none): the key check says it.
create or replace function public.record_searches(p_rows jsonb)
returns integer
language plpgsql
volatile
security invoker
set search_path = ''
as $$
declare
  v_rows jsonb := case when jsonb_typeof(p_rows) = 'array' then p_rows else '[]'::jsonb end;
  v_written integer := 0;
  r record;
begin
  begin
    with ins as (
      insert into public.search_analytics (query, hit_count, latency_ms, mode, user_id)
      select left(x.query, 1000), greatest(coalesce(x.hit_count, 0), 0), greatest(coalesce(x.latency_ms, 0), 0), x.mode, x.user_id
        from jsonb_to_recordset(v_rows) as x(query text, hit_count integer, latency_ms integer, mode text, user_id uuid)
       where x.query is not null and x.mode is not null
      returning 1
    )
    select count(*)::integer into v_written from ins;
    return v_written;
  exception when foreign_key_violation then
    v_written := 0;
  end;
  for r in
    select x.query, x.hit_count, x.latency_ms, x.mode, x.user_id
      from jsonb_to_recordset(v_rows) as x(query text, hit_count integer, latency_ms integer, mode text, user_id uuid)
     where x.query is not null and x.mode is not null
  loop
    begin
      insert into public.search_analytics (query, hit_count, latency_ms, mode, user_id)
      values (left(r.query, 1000), greatest(coalesce(r.hit_count, 0), 0), greatest(coalesce(r.latency_ms, 0), 0), r.mode, r.user_id);
      v_written := v_written + 1;
    exception when foreign_key_violation then
      null; -- the account is gone, and its searches with it
    end;
  end loop;
  return v_written;
end
$$;

revoke all on function public.record_searches(jsonb) from public, anon, authenticated;
grant execute on function public.record_searches(jsonb) to service_role;
