-- The caps the product promises, held by the database so that an RPC called straight through the gateway (a user's
-- own token, no web route in between) meets the same cap as the route. Before this, create_extraction_job,
-- retry_extraction_job, create_saved_search and create_collection_from_filter took their caps as arguments, and any
-- caller could pass a larger one (P-81, docs/decisions.md).
--
-- lib/config.ts stays the one source of truth: a row's name is the config setting's name, the rows below hold the
-- config defaults (tests/db/app-limits.test.ts fails when the two differ), and the server writes its configured values
-- at start (set_app_limits, called by syncDatabaseLimits in lib/backend/limits.ts). Only the service role writes;
-- signed-in callers read (the functions that check a cap run as them; a cap is no secret: the 409s name it).
create table if not exists public.app_limits (
  name text primary key constraint app_limits_name check (name ~ '^[A-Z][A-Z0-9_]{0,63}$'),
  value integer not null constraint app_limits_value_positive check (value >= 1),
  updated_at timestamptz not null default now()
);
comment on table public.app_limits is
  'Caps enforced in SQL, one row per lib/config.ts setting of the same name; written by the server (service role) at start.';

alter table public.app_limits enable row level security;
drop policy if exists app_limits_read on public.app_limits;
create policy app_limits_read on public.app_limits for select to authenticated, service_role using (true);
revoke all on table public.app_limits from public, anon, authenticated;
grant select on table public.app_limits to authenticated;
grant select, insert, update on table public.app_limits to service_role;

insert into public.app_limits (name, value) values
  ('EXTRACTION_MAX_RUNNING_JOBS_PER_USER', 3),
  ('EXTRACTION_MAX_DOCUMENTS', 5000),
  ('SAVED_SEARCHES_MAX_PER_USER', 200),
  ('SAVE_FROM_FILTER_MAX_DOCUMENTS', 5000),
  ('SCHEMA_MAX_FIELDS', 100)
on conflict (name) do nothing;

-- One cap. A name with no row is a deployment error: refuse (fail closed) rather than run uncapped.
create or replace function public.app_limit(p_name text)
  returns integer
  language plpgsql stable security invoker
  set search_path = ''
  as $$
declare
  v integer;
begin
  select l.value into v from public.app_limits l where l.name = p_name;
  if v is null then
    raise exception 'no database limit named %', p_name using errcode = 'P0001';
  end if;
  return v;
end
$$;
comment on function public.app_limit(text) is 'The cap named like its lib/config.ts setting (app_limits); raises when none.';
revoke all on function public.app_limit(text) from public, anon;
grant execute on function public.app_limit(text) to authenticated, service_role;

-- The server's configured values ({"NAME": positive integer, ...}); names without a row are ignored (a row is added by
-- the migration that starts enforcing that cap). Answers how many rows changed.
create or replace function public.set_app_limits(p_limits jsonb)
  returns integer
  language plpgsql volatile security invoker
  set search_path = ''
  as $$
declare
  v_changed integer;
begin
  if p_limits is null or jsonb_typeof(p_limits) <> 'object' then
    raise exception 'limits must be a JSON object' using errcode = '22023', detail = 'limits';
  end if;
  if exists (select 1 from jsonb_each(p_limits) e
              where jsonb_typeof(e.value) <> 'number' or (e.value #>> '{}')::numeric <> trunc((e.value #>> '{}')::numeric)
                 or (e.value #>> '{}')::numeric < 1 or (e.value #>> '{}')::numeric > 2147483647) then
    raise exception 'every limit must be a positive integer' using errcode = '22023', detail = 'limits';
  end if;
  update public.app_limits l
     set value = (p_limits ->> l.name)::integer, updated_at = now()
   where p_limits ? l.name and l.value is distinct from (p_limits ->> l.name)::integer;
  get diagnostics v_changed = row_count;
  return v_changed;
end
$$;
revoke all on function public.set_app_limits(jsonb) from public, anon, authenticated;
grant execute on function public.set_app_limits(jsonb) to service_role;
