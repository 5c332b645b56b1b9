-- Review finding M7: product events never vanish. Before this, app_events had no DEFAULT partition, so an event
-- dated in a month whose partition the monthly job had not created failed with 23514 and was lost (the route had
-- already answered 202). Now:
--   * a DEFAULT partition catches any row no monthly partition holds (the safety net, normally empty);
--   * the job keeps this month and the next APP_EVENTS_MONTHS_AHEAD (3) months created, runs daily, not only on the
--     25th, so the default is only ever reached after weeks of the job not running;
--   * creating a monthly partition first moves that month's rows out of the default (PostgreSQL refuses to create a
--     partition for a range the default still holds rows of), in one transaction;
--   * app_events_partition_health() tells /api/health/status how far ahead partitions exist and what the default holds.

create table if not exists public.app_events_default partition of public.app_events default;
-- Default privileges would grant the new table to the API roles; a partition is reachable directly by name.
revoke all on table public.app_events_default from public, anon, authenticated;
alter table public.app_events_default enable row level security;

-- Same signature as before (one overload), new body: rows of p_month waiting in the default partition are moved into
-- the new monthly partition. SECURITY DEFINER because creating a partition needs ownership of app_events, which
-- service_role does not have.
create or replace function public.app_events_ensure_partition(p_month date)
returns text
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_start date := date_trunc('month', p_month)::date;
  v_from timestamptz := (v_start::text || ' 00:00:00+00')::timestamptz;
  v_to timestamptz := ((v_start + interval '1 month')::date::text || ' 00:00:00+00')::timestamptz;
  v_name text := format('app_events_y%sm%s', to_char(v_start, 'YYYY'), to_char(v_start, 'MM'));
  v_waiting jsonb;
begin
  if to_regclass(format('public.%I', v_name)) is not null then
    return v_name;
  end if;
  -- No insert may land this month's rows in the default between the move and the create (the create would fail).
  lock table public.app_events_default in exclusive mode;
  if to_regclass(format('public.%I', v_name)) is not null then
    return v_name; -- created by a concurrent caller while this one waited for the lock
  end if;
  with moved as (
    delete from public.app_events_default d where d.created_at >= v_from and d.created_at < v_to returning d.*
  )
  select jsonb_agg(to_jsonb(moved)) into v_waiting from moved;
  execute format('create table public.%I partition of public.app_events for values from (%L) to (%L)', v_name, v_from, v_to);
  execute format('revoke all on table public.%I from public, anon, authenticated', v_name);
  execute format('alter table public.%I enable row level security', v_name);
  if v_waiting is not null then
    insert into public.app_events
    select * from jsonb_populate_recordset(null::public.app_events, v_waiting);
    raise log 'app_events: moved % row(s) of % out of the default partition', jsonb_array_length(v_waiting), v_name;
  end if;
  return v_name;
end
$$;

-- The scheduled job: this month and the next three exist (the default partition is only a safety net). Returns the
-- next month's partition name, as before. Idempotent and cheap, so it runs daily.
create or replace function public.create_next_app_events_partition()
returns text
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_month date := date_trunc('month', (now() at time zone 'UTC'))::date;
  v_next text;
begin
  perform public.app_events_ensure_partition(v_month);
  v_next := public.app_events_ensure_partition((v_month + interval '1 month')::date);
  perform public.app_events_ensure_partition((v_month + interval '2 months')::date);
  perform public.app_events_ensure_partition((v_month + interval '3 months')::date);
  -- Rows of past months that reached the default (the job was down when they came) get their partition too.
  perform public.app_events_ensure_partition(m.month)
  from (select distinct date_trunc('month', d.created_at at time zone 'UTC')::date as month from public.app_events_default d) m;
  return v_next;
end
$$;

-- Partition readiness for /api/health/status: how many months after this one have a partition (consecutively, up to
-- 12), whether next month's exists, and how many rows wait in the default partition (counted up to 10,000).
create or replace function public.app_events_partition_health()
returns jsonb
language plpgsql
stable
security invoker
set search_path = ''
as $$
declare
  v_month date := date_trunc('month', (now() at time zone 'UTC'))::date;
  v_ahead integer := 0;
  v_default bigint;
  v_name text;
begin
  loop
    exit when v_ahead >= 12;
    v_name := 'app_events_y' || to_char(v_month + make_interval(months => v_ahead + 1), 'YYYY"m"MM');
    exit when to_regclass('public.' || v_name) is null;
    v_ahead := v_ahead + 1;
  end loop;
  select count(*) into v_default from (select 1 from public.app_events_default limit 10000) d;
  return jsonb_build_object(
    'current_month_ready', to_regclass('public.app_events_y' || to_char(v_month, 'YYYY"m"MM')) is not null,
    'months_ahead', v_ahead,
    'next_month_ready', v_ahead >= 1,
    'default_partition_rows', v_default
  );
end
$$;

revoke all on function public.app_events_ensure_partition(date) from public, anon, authenticated, service_role;
revoke all on function public.create_next_app_events_partition() from public, anon, authenticated;
revoke all on function public.app_events_partition_health() from public, anon, authenticated;
grant execute on function public.create_next_app_events_partition() to service_role;
grant execute on function public.app_events_partition_health() to service_role;

select public.create_next_app_events_partition();

-- Daily instead of the 25th (the same job name replaces the monthly schedule).
do $$
begin
  if exists (select 1 from pg_extension where extname = 'pg_cron') then
    perform cron.schedule('app-events-next-partition', '0 3 * * *', 'select public.create_next_app_events_partition()');
  end if;
end
$$;
