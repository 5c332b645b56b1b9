-- First-party product events (spec: Events). Monthly range partitions on created_at (rule 5), readable and writable
-- by service_role only; user_id is nulled when the account is deleted; created_at is always the server's clock.
-- Sign-up and sign-in are recorded by triggers on auth.users, so no client can forge them (rule 1).

create table if not exists public.app_events (
  id uuid not null default gen_random_uuid(),
  created_at timestamptz not null default now(),
  name text not null check (name ~ '^[a-z][a-z0-9_]{0,63}$'),
  properties jsonb not null default '{}'::jsonb
    check (jsonb_typeof(properties) = 'object' and octet_length(properties::text) <= 16384),
  user_id uuid references auth.users (id) on delete set null,
  guest_session_id uuid,
  session_id uuid,
  -- web or api for events posted by clients; null for events the database itself emits (auth triggers).
  surface text check (surface in ('web', 'api')),
  locale text check (char_length(locale) <= 35),
  app_version text check (char_length(app_version) <= 64),
  primary key (id, created_at)
) partition by range (created_at);

create index if not exists app_events_user_id_idx on public.app_events (user_id) where user_id is not null;
create index if not exists app_events_name_created_at_idx on public.app_events (name, created_at);

alter table public.app_events enable row level security;
revoke all on table public.app_events from public, anon, authenticated;
grant select, insert on table public.app_events to service_role;

-- Ensure the partition holding p_month (any day of it, UTC). Internal: called by the two functions below.
-- SECURITY DEFINER because creating a partition needs ownership of app_events, which service_role does not have.
create or replace function public.app_events_ensure_partition(p_month date)
returns text
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_start date := date_trunc('month', p_month)::date;
  v_name text := format('app_events_y%sm%s', to_char(v_start, 'YYYY'), to_char(v_start, 'MM'));
begin
  if to_regclass(format('public.%I', v_name)) is null then
    begin
      execute format(
        'create table public.%I partition of public.app_events for values from (%L) to (%L)',
        v_name,
        (v_start::text || ' 00:00:00+00')::timestamptz,
        ((v_start + interval '1 month')::date::text || ' 00:00:00+00')::timestamptz
      );
    exception when duplicate_table then
      -- Created concurrently by another caller: that is the idempotent outcome.
      null;
    end;
    -- Default privileges would grant the new table to the API roles; a partition is reachable directly by name.
    execute format('revoke all on table public.%I from public, anon, authenticated', v_name);
    execute format('alter table public.%I enable row level security', v_name);
  end if;
  return v_name;
end
$$;

-- The scheduled job (the 25th of each month): make sure this month's and next month's partitions exist; returns the
-- next month's partition name. Idempotent.
create or replace function public.create_next_app_events_partition()
returns text
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  v_now date := (now() at time zone 'UTC')::date;
begin
  perform public.app_events_ensure_partition(v_now);
  return public.app_events_ensure_partition((date_trunc('month', v_now) + interval '1 month')::date);
end
$$;

-- Insert a validated batch (lib/backend/events.ts validates every field first; the CHECKs above re-check the shape).
-- created_at is never taken from the input.
create or replace function public.insert_app_events(p_events jsonb)
returns integer
language sql
volatile
security invoker
set search_path = ''
as $$
  with ins as (
    insert into public.app_events (name, properties, user_id, guest_session_id, session_id, surface, locale, app_version)
    select
      e ->> 'name',
      coalesce(e -> 'properties', '{}'::jsonb),
      nullif(e ->> 'user_id', '')::uuid,
      nullif(e ->> 'guest_session_id', '')::uuid,
      nullif(e ->> 'session_id', '')::uuid,
      e ->> 'surface',
      e ->> 'locale',
      e ->> 'app_version'
    from jsonb_array_elements(p_events) as e
    returning 1
  )
  select count(*)::integer from ins
$$;

revoke all on function public.app_events_ensure_partition(date) from public, anon, authenticated, service_role;
revoke all on function public.create_next_app_events_partition() from public, anon, authenticated;
revoke all on function public.insert_app_events(jsonb) from public, anon, authenticated;
grant execute on function public.create_next_app_events_partition() to service_role;
grant execute on function public.insert_app_events(jsonb) to service_role;

-- auth_signed_up on account creation, auth_signed_in when last_sign_in_at changes (spec: Events, event names).
-- SECURITY DEFINER: the auth server's role may not write public.app_events. A failure to record never blocks a
-- sign-up or sign-in: it is downgraded to a warning (every layer is fire-and-forget).
create or replace function public.app_events_from_auth_users()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    insert into public.app_events (name, user_id) values ('auth_signed_up', new.id);
  elsif new.last_sign_in_at is not null and new.last_sign_in_at is distinct from old.last_sign_in_at then
    insert into public.app_events (name, user_id) values ('auth_signed_in', new.id);
  end if;
  return null;
exception when others then
  raise warning 'app_events: % on auth.users not recorded: %', tg_op, sqlerrm;
  return null;
end
$$;

revoke all on function public.app_events_from_auth_users() from public, anon, authenticated, service_role;

drop trigger if exists app_events_auth_signed_up on auth.users;
create trigger app_events_auth_signed_up
  after insert on auth.users
  for each row execute function public.app_events_from_auth_users();

drop trigger if exists app_events_auth_signed_in on auth.users;
create trigger app_events_auth_signed_in
  after update of last_sign_in_at on auth.users
  for each row execute function public.app_events_from_auth_users();

-- This month and the next exist from the start; the scheduler (lib/backend/scheduler.ts locally, pg_cron on a
-- Supabase project) keeps one month ahead.
select public.create_next_app_events_partition();

do $$
begin
  if exists (select 1 from pg_extension where extname = 'pg_cron') then
    perform cron.schedule('app-events-next-partition', '0 3 25 * *', 'select public.create_next_app_events_partition()');
  end if;
end
$$;
