-- Dashboard statistics: one precomputed row that GET /api/dashboard/stats reads (a primary-key read,
-- so the public page never aggregates 12k judgments per request), rebuilt by refresh_dashboard_stats() — daily by the
-- scheduler, after a full search sync, and on demand by an admin. Emptiness and coverage reuse the completeness
-- constants of 20260102000100_completeness.sql (is_empty, is_empty_enum_value, is_completed_status, coverage_ratio).

create table if not exists public.dashboard_stats (
  id boolean primary key default true check (id),
  stats jsonb not null check (jsonb_typeof(stats) = 'object'),
  computed_at timestamptz not null default now(),
  duration_ms integer not null default 0 check (duration_ms >= 0)
);
comment on table public.dashboard_stats is 'The single precomputed dashboard row (id = true); public read, written only by refresh_dashboard_stats().';

alter table public.dashboard_stats enable row level security;
revoke all on table public.dashboard_stats from public, anon, authenticated;
grant select on table public.dashboard_stats to anon, authenticated;
grant select, insert, update, delete on table public.dashboard_stats to service_role;
drop policy if exists dashboard_stats_public_read on public.dashboard_stats;
create policy dashboard_stats_public_read on public.dashboard_stats for select to anon, authenticated using (true);

-- The stored statistics with computed_at, or null before the first refresh.
create or replace function public.get_dashboard_stats() returns jsonb
language sql stable
security invoker
set search_path = ''
as $$
  select d.stats || pg_catalog.jsonb_build_object('computed_at', d.computed_at)
  from public.dashboard_stats d where d.id
$$;
revoke all on function public.get_dashboard_stats() from public;
grant execute on function public.get_dashboard_stats() to anon, authenticated, service_role;

-- Field coverage over the judgments whose base extraction completed: one ratio per base_ column, keyed by the field
-- name (the column without "base_"). Enum-coded columns (control enum_multi in structured.filter_fields) are empty
-- only when NULL or '' (is_empty_enum_value); every other column follows is_empty(to_jsonb(value)).
create or replace function public.dashboard_field_coverage() returns jsonb
language plpgsql stable
security invoker
set search_path = ''
as $$
declare
  v_cols text[];
  v_exprs text;
  v_total integer;
  v_counts integer[];
  v_by_field jsonb := '{}'::jsonb;
  v_covered bigint := 0;
begin
  select pg_catalog.array_agg(c.column_name::text order by c.ordinal_position)
    into v_cols
  from information_schema.columns c
  where c.table_schema = 'public' and c.table_name = 'judgments' and c.column_name like 'base\_%'
    -- The eight operational base_ columns are bookkeeping, not extracted fields (tests/db/admin-dashboard.test.ts checks
    -- the keys equal the registry's BASE_FIELDS).
    and c.column_name not in ('base_extraction_status', 'base_extraction_model', 'base_extracted_at', 'base_schema_key',
                              'base_schema_version', 'base_extraction_error', 'base_raw_extraction', 'base_search_tsv');
  if v_cols is null then
    return pg_catalog.jsonb_build_object('overall', null, 'by_field', '{}'::jsonb, 'total', 0);
  end if;
  select pg_catalog.string_agg(
           case when exists (select 1 from structured.filter_fields f where f.column_name = col and f.control = 'enum_multi')
             then pg_catalog.format('count(*) filter (where not public.is_empty_enum_value(j.%I::text))::integer', col)
             else pg_catalog.format('count(*) filter (where not public.is_empty(pg_catalog.to_jsonb(j.%I)))::integer', col)
           end, ', ' order by ord)
    into v_exprs
  from pg_catalog.unnest(v_cols) with ordinality as u(col, ord);
  execute 'select count(*)::integer, array[' || v_exprs || '] from public.judgments j where public.is_completed_status(j.base_extraction_status)'
    into v_total, v_counts;
  for i in 1 .. pg_catalog.array_length(v_cols, 1) loop
    v_by_field := v_by_field || pg_catalog.jsonb_build_object(pg_catalog.substr(v_cols[i], 6), public.coverage_ratio(v_counts[i], v_total));
    v_covered := v_covered + v_counts[i];
  end loop;
  return pg_catalog.jsonb_build_object(
    'overall', case when v_total = 0 then null else round(v_covered::numeric / (v_total::numeric * pg_catalog.array_length(v_cols, 1)), 4) end,
    'by_field', v_by_field,
    'total', v_total);
end
$$;
revoke all on function public.dashboard_field_coverage() from public;
grant execute on function public.dashboard_field_coverage() to service_role;

-- Rebuild the row. Service role only: the admin route calls it with the service client after checking the role.
create or replace function public.refresh_dashboard_stats() returns jsonb
language plpgsql volatile
security invoker
set search_path = ''
as $$
declare
  v_started timestamptz := pg_catalog.clock_timestamp();
  v_stats jsonb;
begin
  -- One refresh at a time; a second caller waits and then recomputes (cheap, and never half-written).
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('refresh_dashboard_stats'));
  select pg_catalog.jsonb_build_object(
    'total_judgments', (select count(*) from public.judgments),
    'by_jurisdiction', (select pg_catalog.jsonb_build_object(
        'PL', count(*) filter (where jurisdiction = 'PL'),
        'UK', count(*) filter (where jurisdiction = 'UK')) from public.judgments),
    'by_court_level', (select coalesce(pg_catalog.jsonb_object_agg(k, n), '{}'::jsonb)
        from (select coalesce(nullif(court_level, ''), 'unknown') as k, count(*) as n from public.judgments group by 1) s),
    'top_courts', (select coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object('name', name, 'count', n) order by n desc, name), '[]'::jsonb)
        from (select court_name as name, count(*) as n from public.judgments
              where court_name is not null and court_name <> '' group by 1 order by 2 desc, 1 limit 10) s),
    'decisions_per_year', (select coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object('year', y, 'PL', pl, 'UK', uk) order by y), '[]'::jsonb)
        from (select extract(year from decision_date)::integer as y,
                     count(*) filter (where jurisdiction = 'PL') as pl,
                     count(*) filter (where jurisdiction = 'UK') as uk
              from public.judgments where decision_date is not null group by 1) s),
    'date_range', (select pg_catalog.jsonb_build_object('min', min(decision_date), 'max', max(decision_date)) from public.judgments),
    'by_decision_type', (select coalesce(pg_catalog.jsonb_object_agg(k, n), '{}'::jsonb)
        from (select coalesce(nullif(decision_type, ''), 'unknown') as k, count(*) as n from public.judgments group by 1) s),
    'data_completeness', (select c - 'total' from public.dashboard_field_coverage() c),
    'top_keywords', (select coalesce(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object('value', v, 'count', n) order by n desc, v), '[]'::jsonb)
        from (select k as v, count(*) as n from public.judgments j, pg_catalog.unnest(j.keywords) as k
              where not public.is_empty(pg_catalog.to_jsonb(k)) group by 1 order by 2 desc, 1 limit 20) s)
  ) into v_stats;
  insert into public.dashboard_stats (id, stats, computed_at, duration_ms)
  values (true, v_stats, now(), greatest(0, (extract(epoch from pg_catalog.clock_timestamp() - v_started) * 1000)::integer))
  on conflict (id) do update set stats = excluded.stats, computed_at = excluded.computed_at, duration_ms = excluded.duration_ms;
  return public.get_dashboard_stats();
end
$$;
revoke all on function public.refresh_dashboard_stats() from public;
grant execute on function public.refresh_dashboard_stats() to service_role;
