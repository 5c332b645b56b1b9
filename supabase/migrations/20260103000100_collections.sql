-- Collections: a user's named sets of judgments, owner-only by row-level security, plus the RPC functions the HTTP
-- routes call (the app reaches the database only through RPC). Every function is SECURITY INVOKER, so RLS is the
-- gate: another user's collection is simply invisible (a plain 404 upstream, D-30). Service-role callers bypass RLS
-- and must guard ownership themselves (spec: Database function interface, rule 6).

create table public.collections (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  name text not null constraint collections_name_length check (char_length(btrim(name)) between 1 and 255 and char_length(name) <= 255),
  description text constraint collections_description_length check (char_length(description) <= 1000),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.collections is 'Named sets of judgments owned by one user (RLS: owner only).';
create index collections_user_id_created_at_idx on public.collections (user_id, created_at desc);

create table public.collection_documents (
  collection_id uuid not null references public.collections (id) on delete cascade,
  judgment_id uuid not null references public.judgments (id) on delete cascade,
  added_at timestamptz not null default now(),
  primary key (collection_id, judgment_id)
);
comment on table public.collection_documents is 'Membership pairs (collection, judgment); adding an existing pair is an upsert.';
-- The collection_ids filter key probes membership by judgment.
create index collection_documents_judgment_id_idx on public.collection_documents (judgment_id, collection_id);

alter table public.collections enable row level security;
alter table public.collection_documents enable row level security;

-- (select auth.uid()) is evaluated once per statement instead of once per row.
create policy collections_owner on public.collections
  for all to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()));

create policy collection_documents_owner on public.collection_documents
  for all to authenticated
  using (exists (select 1 from public.collections c where c.id = collection_id and c.user_id = (select auth.uid())))
  with check (exists (select 1 from public.collections c where c.id = collection_id and c.user_id = (select auth.uid())));

-- Anonymous callers have no collections; the default privileges of the bootstrap granted them table rights.
revoke all on table public.collections, public.collection_documents from public, anon;
grant select, insert, update, delete on table public.collections, public.collection_documents to authenticated, service_role;

create or replace function public.collections_touch_updated_at() returns trigger
  language plpgsql
  set search_path = ''
  as $$
begin
  new.updated_at := now();
  return new;
end
$$;
create trigger collections_touch_updated_at
  before update on public.collections
  for each row execute function public.collections_touch_updated_at();

-- The shape every collection RPC returns (spec: Collection, with document_count).
create type public.collection_row as (
  id uuid,
  user_id uuid,
  name text,
  description text,
  created_at timestamptz,
  updated_at timestamptz,
  document_count bigint
);

create or replace function public.list_collections()
  returns setof public.collection_row
  language sql stable security invoker
  set search_path = ''
  as $$
  select c.id, c.user_id, c.name, c.description, c.created_at, c.updated_at,
         (select count(*) from public.collection_documents d where d.collection_id = c.id)
  from public.collections c
  order by c.created_at desc, c.id
$$;

create or replace function public.get_collection(p_collection_id uuid)
  returns setof public.collection_row
  language sql stable security invoker
  set search_path = ''
  as $$
  select c.id, c.user_id, c.name, c.description, c.created_at, c.updated_at,
         (select count(*) from public.collection_documents d where d.collection_id = c.id)
  from public.collections c
  where c.id = p_collection_id
$$;

-- Raised for a collection the caller cannot see; the HTTP layer answers 404 COLLECTION_NOT_FOUND (never which id).
create or replace function public.create_collection(p_name text, p_description text default null)
  returns public.collection_row
  language plpgsql volatile security invoker
  set search_path = ''
  as $$
declare
  v_row public.collection_row;
begin
  if auth.uid() is null then
    raise exception 'a signed-in user is required to create a collection' using errcode = '42501';
  end if;
  if p_name is null or char_length(btrim(p_name)) not between 1 and 255 or char_length(p_name) > 255 then
    raise exception 'name must be 1 to 255 characters' using errcode = '22023', detail = 'name';
  end if;
  if char_length(p_description) > 1000 then
    raise exception 'description must be at most 1000 characters' using errcode = '22023', detail = 'description';
  end if;
  insert into public.collections (user_id, name, description)
  values (auth.uid(), btrim(p_name), p_description)
  returning id, user_id, name, description, created_at, updated_at, 0::bigint into v_row;
  return v_row;
end
$$;

-- p_patch holds the keys to change: name (1-255 characters), description (string up to 1000, or null to clear).
create or replace function public.update_collection(p_collection_id uuid, p_patch jsonb)
  returns setof public.collection_row
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
    if v_key not in ('name', 'description') then
      raise exception 'unknown collection field "%"', v_key using errcode = '22023', detail = v_key;
    end if;
  end loop;
  if p_patch ? 'name' and (jsonb_typeof(p_patch -> 'name') <> 'string'
      or char_length(btrim(p_patch ->> 'name')) not between 1 and 255 or char_length(p_patch ->> 'name') > 255) then
    raise exception 'name must be 1 to 255 characters' using errcode = '22023', detail = 'name';
  end if;
  if p_patch ? 'description' and (jsonb_typeof(p_patch -> 'description') not in ('string', 'null')
      or char_length(p_patch ->> 'description') > 1000) then
    raise exception 'description must be a string of at most 1000 characters, or null' using errcode = '22023', detail = 'description';
  end if;
  update public.collections c
     set name = case when p_patch ? 'name' then btrim(p_patch ->> 'name') else c.name end,
         description = case when p_patch ? 'description' then p_patch ->> 'description' else c.description end
   where c.id = p_collection_id;
  return query select * from public.get_collection(p_collection_id);
end
$$;

create or replace function public.delete_collection(p_collection_id uuid)
  returns boolean
  language sql volatile security invoker
  set search_path = ''
  as $$
  with d as (delete from public.collections c where c.id = p_collection_id returning 1)
  select exists (select 1 from d)
$$;

-- How many of the listed collections the caller can see (owns, under RLS). from-filter compares it with the number
-- of distinct ids so it can answer 404 without saying which id failed.
create or replace function public.count_visible_collections(p_collection_ids uuid[])
  returns integer
  language sql stable security invoker
  set search_path = ''
  as $$
  select count(*)::integer from public.collections c where c.id = any (coalesce(p_collection_ids, '{}'))
$$;

create or replace function public.list_collection_documents(p_collection_id uuid, p_limit integer default 20, p_offset integer default 0)
  returns table (id uuid, case_number text, title text, jurisdiction text, decision_date date, added_at timestamptz, total_count bigint)
  language sql stable security invoker
  set search_path = ''
  as $$
  select j.id, j.case_number, j.title, j.jurisdiction, j.decision_date, d.added_at, count(*) over ()
  from public.collection_documents d
  join public.judgments j on j.id = d.judgment_id
  where d.collection_id = p_collection_id
  order by d.added_at desc, j.id
  limit least(greatest(coalesce(p_limit, 20), 1), 100)
  offset least(greatest(coalesce(p_offset, 0), 0), 10000)
$$;

-- Adds judgments to a collection the caller owns; existing pairs are kept (upsert). Returns how many pairs are new.
-- Unknown judgment ids raise (SQLSTATE SC002, detail = the missing ids) and nothing is added.
create or replace function public.add_collection_documents(p_collection_id uuid, p_document_ids uuid[])
  returns integer
  language plpgsql volatile security invoker
  set search_path = ''
  as $$
declare
  v_missing text;
  v_added integer;
begin
  if not exists (select 1 from public.collections c where c.id = p_collection_id) then
    raise exception 'collection not found' using errcode = 'SC001';
  end if;
  select string_agg(x.id::text, ',' order by x.id) into v_missing
  from (select distinct u.id from unnest(coalesce(p_document_ids, '{}')) u(id)) x
  where not exists (select 1 from public.judgments j where j.id = x.id);
  if v_missing is not null then
    raise exception 'unknown document ids' using errcode = 'SC002', detail = v_missing;
  end if;
  insert into public.collection_documents (collection_id, judgment_id)
  select p_collection_id, u.id from (select distinct unnest(p_document_ids) as id) u
  on conflict do nothing;
  get diagnostics v_added = row_count;
  if v_added > 0 then
    update public.collections c set updated_at = now() where c.id = p_collection_id;
  end if;
  return v_added;
end
$$;

create or replace function public.remove_collection_documents(p_collection_id uuid, p_document_ids uuid[])
  returns integer
  language plpgsql volatile security invoker
  set search_path = ''
  as $$
declare
  v_removed integer;
begin
  if not exists (select 1 from public.collections c where c.id = p_collection_id) then
    raise exception 'collection not found' using errcode = 'SC001';
  end if;
  delete from public.collection_documents d
   where d.collection_id = p_collection_id and d.judgment_id = any (coalesce(p_document_ids, '{}'));
  get diagnostics v_removed = row_count;
  if v_removed > 0 then
    update public.collections c set updated_at = now() where c.id = p_collection_id;
  end if;
  return v_removed;
end
$$;

-- D-02 style grants: signed-in users and the service role only.
do $$
declare
  fn text;
begin
  foreach fn in array array[
    'public.list_collections()',
    'public.get_collection(uuid)',
    'public.create_collection(text, text)',
    'public.update_collection(uuid, jsonb)',
    'public.delete_collection(uuid)',
    'public.count_visible_collections(uuid[])',
    'public.list_collection_documents(uuid, integer, integer)',
    'public.add_collection_documents(uuid, uuid[])',
    'public.remove_collection_documents(uuid, uuid[])'
  ] loop
    execute format('revoke all on function %s from public, anon', fn);
    execute format('grant execute on function %s to authenticated, service_role', fn);
  end loop;
end
$$;
revoke all on function public.collections_touch_updated_at() from public, anon, authenticated;
