-- Saved searches: a user's named searches of /search ("search": text query, mode, filter
-- expression, sort) and /search/extractions ("extractions": the filter object f and q), owner-only by row-level
-- security, with the RPC functions the HTTP routes call. Every function is SECURITY INVOKER: RLS is the gate, so
-- another user's saved search is simply invisible (a plain 404 upstream, D-30). Filters are validated by the app's
-- one filter parser before they reach these functions; the table only checks shapes and sizes.

create table public.saved_searches (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  name text not null constraint saved_searches_name_length check (char_length(btrim(name)) between 1 and 200 and char_length(name) <= 200),
  kind text not null constraint saved_searches_kind check (kind in ('search', 'extractions')),
  query text not null default '' constraint saved_searches_query_length check (char_length(query) <= 1000),
  params jsonb not null default '{}'::jsonb constraint saved_searches_params_object check (jsonb_typeof(params) = 'object' and pg_column_size(params) <= 32768),
  folder text constraint saved_searches_folder_length check (char_length(btrim(folder)) between 1 and 100 and char_length(folder) <= 100),
  alert_enabled boolean not null default false,
  alert_frequency text not null default 'weekly' constraint saved_searches_alert_frequency check (alert_frequency in ('daily', 'weekly')),
  -- The digest's watermark: judgments created after it are new for this search (null: since the alert was enabled).
  last_digest_at timestamptz,
  -- Rotated whenever an unsubscribe token is used, which makes every token issued before it void (one-use tokens).
  unsubscribe_nonce uuid not null default gen_random_uuid(),
  last_run_at timestamptz,
  use_count integer not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.saved_searches is 'Named searches of one user (RLS: owner only), optionally with an e-mail alert.';
create index saved_searches_user_created_idx on public.saved_searches (user_id, created_at desc, id);
create index saved_searches_alerted_idx on public.saved_searches (alert_frequency, user_id) where alert_enabled;

alter table public.saved_searches enable row level security;
create policy saved_searches_owner on public.saved_searches
  for all to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()));
revoke all on table public.saved_searches from public, anon;
grant select, insert, update, delete on table public.saved_searches to authenticated, service_role;

create or replace function public.saved_searches_touch_updated_at() returns trigger
  language plpgsql
  set search_path = ''
  as $$
begin
  new.updated_at := now();
  return new;
end
$$;
create trigger saved_searches_touch_updated_at
  before update on public.saved_searches
  for each row when (old.name is distinct from new.name or old.query is distinct from new.query
    or old.params is distinct from new.params or old.folder is distinct from new.folder
    or old.alert_enabled is distinct from new.alert_enabled or old.alert_frequency is distinct from new.alert_frequency)
  execute function public.saved_searches_touch_updated_at();

-- The columns the API shows (the nonce and the digest watermark stay inside).
create type public.saved_search_row as (
  id uuid,
  name text,
  kind text,
  query text,
  params jsonb,
  folder text,
  alert_enabled boolean,
  alert_frequency text,
  last_run_at timestamptz,
  use_count integer,
  created_at timestamptz,
  updated_at timestamptz
);

create or replace function public.list_saved_searches(p_folder text default null, p_limit integer default 20, p_offset integer default 0)
  returns table (item public.saved_search_row, total_count bigint)
  language sql stable security invoker
  set search_path = ''
  as $$
  select row(s.id, s.name, s.kind, s.query, s.params, s.folder, s.alert_enabled, s.alert_frequency, s.last_run_at,
             s.use_count, s.created_at, s.updated_at)::public.saved_search_row,
         count(*) over ()
  from public.saved_searches s
  where p_folder is null or s.folder = p_folder
  order by s.created_at desc, s.id
  limit least(greatest(coalesce(p_limit, 20), 1), 100)
  offset greatest(coalesce(p_offset, 0), 0)
$$;

create or replace function public.get_saved_search(p_id uuid)
  returns setof public.saved_search_row
  language sql stable security invoker
  set search_path = ''
  as $$
  select s.id, s.name, s.kind, s.query, s.params, s.folder, s.alert_enabled, s.alert_frequency, s.last_run_at,
         s.use_count, s.created_at, s.updated_at
  from public.saved_searches s
  where s.id = p_id
$$;

-- SS001: the caller already has p_max saved searches (409 SAVED_SEARCH_LIMIT upstream). The per-user advisory lock
-- makes two concurrent creates count one after the other.
create or replace function public.create_saved_search(
  p_name text,
  p_kind text,
  p_query text,
  p_params jsonb,
  p_folder text,
  p_alert_enabled boolean,
  p_alert_frequency text,
  p_max integer
)
  returns setof public.saved_search_row
  language plpgsql volatile security invoker
  set search_path = ''
  as $$
declare
  v_id uuid;
begin
  if auth.uid() is null then
    raise exception 'a signed-in user is required' using errcode = '42501';
  end if;
  perform pg_advisory_xact_lock(hashtextextended('saved_searches:' || auth.uid()::text, 0));
  if (select count(*) from public.saved_searches s where s.user_id = auth.uid()) >= p_max then
    raise exception 'at most % saved searches per user', p_max using errcode = 'SS001';
  end if;
  insert into public.saved_searches (user_id, name, kind, query, params, folder, alert_enabled, alert_frequency, last_digest_at)
  values (auth.uid(), btrim(p_name), p_kind, coalesce(p_query, ''), coalesce(p_params, '{}'::jsonb), nullif(btrim(p_folder), ''),
          coalesce(p_alert_enabled, false), coalesce(p_alert_frequency, 'weekly'), now())
  returning id into v_id;
  return query select * from public.get_saved_search(v_id);
end
$$;

-- p_patch holds the keys to change (validated by the app): name, query, params, folder (null clears), alert_enabled,
-- alert_frequency. Enabling an alert starts its watermark now: the first digest lists what is new from then on.
create or replace function public.update_saved_search(p_id uuid, p_patch jsonb)
  returns setof public.saved_search_row
  language plpgsql volatile security invoker
  set search_path = ''
  as $$
declare
  v_key text;
begin
  if p_patch is null or jsonb_typeof(p_patch) <> 'object' then
    raise exception 'patch must be a JSON object' using errcode = '22023', detail = 'patch';
  end if;
  for v_key in select jsonb_object_keys(p_patch) loop
    if v_key not in ('name', 'query', 'params', 'folder', 'alert_enabled', 'alert_frequency') then
      raise exception 'unknown saved search field "%"', v_key using errcode = '22023', detail = v_key;
    end if;
  end loop;
  update public.saved_searches s
     set name = case when p_patch ? 'name' then btrim(p_patch ->> 'name') else s.name end,
         query = case when p_patch ? 'query' then coalesce(p_patch ->> 'query', '') else s.query end,
         params = case when p_patch ? 'params' then p_patch -> 'params' else s.params end,
         folder = case when p_patch ? 'folder' then nullif(btrim(p_patch ->> 'folder'), '') else s.folder end,
         alert_enabled = case when p_patch ? 'alert_enabled' then (p_patch ->> 'alert_enabled')::boolean else s.alert_enabled end,
         alert_frequency = case when p_patch ? 'alert_frequency' then p_patch ->> 'alert_frequency' else s.alert_frequency end,
         last_digest_at = case when p_patch ? 'alert_enabled' and (p_patch ->> 'alert_enabled')::boolean and not s.alert_enabled
                               then now() else s.last_digest_at end
   where s.id = p_id;
  return query select * from public.get_saved_search(p_id);
end
$$;

create or replace function public.delete_saved_search(p_id uuid)
  returns boolean
  language sql volatile security invoker
  set search_path = ''
  as $$
  with d as (delete from public.saved_searches s where s.id = p_id returning 1)
  select exists (select 1 from d)
$$;

-- A run: use_count + 1 and last_run_at = now(); no row when the caller cannot see it.
create or replace function public.mark_saved_search_run(p_id uuid)
  returns setof public.saved_search_row
  language plpgsql volatile security invoker
  set search_path = ''
  as $$
begin
  update public.saved_searches s set use_count = s.use_count + 1, last_run_at = now() where s.id = p_id;
  return query select * from public.get_saved_search(p_id);
end
$$;

grant execute on function
  public.list_saved_searches(text, integer, integer),
  public.get_saved_search(uuid),
  public.create_saved_search(text, text, text, jsonb, text, boolean, text, integer),
  public.update_saved_search(uuid, jsonb),
  public.delete_saved_search(uuid),
  public.mark_saved_search_run(uuid)
  to authenticated, service_role;

-- The unsubscribe link of a digest (no sign-in): the app has checked the token's signature; the nonce in it must still
-- be the current one, and using it rotates the nonce, so each link works once. Service role only (it crosses users).
create or replace function public.unsubscribe_saved_search(p_id uuid, p_nonce uuid)
  returns text
  language sql volatile security invoker
  set search_path = ''
  as $$
  update public.saved_searches s
     set alert_enabled = false, unsubscribe_nonce = gen_random_uuid()
   where s.id = p_id and s.unsubscribe_nonce = p_nonce
  returning s.name
$$;
revoke execute on function public.unsubscribe_saved_search(uuid, uuid) from public, anon, authenticated;
grant execute on function public.unsubscribe_saved_search(uuid, uuid) to service_role;

-- The caller's folder names with their counts, for the /saved page's folder list.
create or replace function public.list_saved_search_folders()
  returns table (folder text, count bigint)
  language sql stable security invoker
  set search_path = ''
  as $$
  select s.folder, count(*) from public.saved_searches s where s.folder is not null group by s.folder order by s.folder
$$;
grant execute on function public.list_saved_search_folders() to authenticated, service_role;
