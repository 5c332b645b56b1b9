-- Extraction schemas: a user's own definitions of what to extract, owner-only by row-level security,
-- with every change kept as a numbered version. The fields and their JSON Schema form are validated by the backend
-- (zod + ajv, lib/backend/schemas) before they reach these functions; the database guards shape and ownership.
-- Every function is SECURITY INVOKER: RLS is the gate, so another user's schema is invisible (a plain 404, D-30).

create table public.extraction_schemas (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  name text not null constraint extraction_schemas_name_length check (char_length(btrim(name)) between 1 and 255),
  description text constraint extraction_schemas_description_length check (char_length(description) <= 2000),
  version integer not null default 1 constraint extraction_schemas_version_positive check (version >= 1),
  fields jsonb not null constraint extraction_schemas_fields_array check (jsonb_typeof(fields) = 'array'),
  json_schema jsonb not null constraint extraction_schemas_json_schema_object check (jsonb_typeof(json_schema) = 'object'),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.extraction_schemas is 'Extraction schemas owned by one user (RLS: owner only); version is the newest schema_versions.number.';
create index extraction_schemas_user_id_created_at_idx on public.extraction_schemas (user_id, created_at desc);

create table public.schema_versions (
  schema_id uuid not null references public.extraction_schemas (id) on delete cascade,
  number integer not null constraint schema_versions_number_positive check (number >= 1),
  name text not null,
  description text,
  fields jsonb not null,
  json_schema jsonb not null,
  note text constraint schema_versions_note_length check (char_length(note) <= 500),
  created_at timestamptz not null default now(),
  created_by uuid references auth.users (id) on delete set null,
  primary key (schema_id, number)
);
comment on table public.schema_versions is 'Every state an extraction schema has had; a rollback adds a new version equal to an old one.';

alter table public.extraction_schemas enable row level security;
alter table public.schema_versions enable row level security;

create policy extraction_schemas_owner on public.extraction_schemas
  for all to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()));

create policy schema_versions_owner on public.schema_versions
  for all to authenticated
  using (exists (select 1 from public.extraction_schemas s where s.id = schema_id and s.user_id = (select auth.uid())))
  with check (exists (select 1 from public.extraction_schemas s where s.id = schema_id and s.user_id = (select auth.uid())));

revoke all on table public.extraction_schemas, public.schema_versions from public, anon;
grant select, insert, update, delete on table public.extraction_schemas to authenticated, service_role;
-- Versions are history: written by the functions below, never rewritten.
grant select, insert on table public.schema_versions to authenticated, service_role;
grant delete on table public.schema_versions to service_role;

-- The row every schema function answers (spec: list schemas {id, name, description, version, created_at}; plus fields).
create type public.extraction_schema_row as (
  id uuid,
  user_id uuid,
  name text,
  description text,
  version integer,
  fields jsonb,
  json_schema jsonb,
  created_at timestamptz,
  updated_at timestamptz
);

create or replace function public.list_extraction_schemas(p_limit integer default 20, p_offset integer default 0)
  returns table (id uuid, name text, description text, version integer, created_at timestamptz, total_count bigint)
  language sql stable security invoker
  set search_path = ''
  as $$
  select s.id, s.name, s.description, s.version, s.created_at, count(*) over ()
  from public.extraction_schemas s
  order by s.created_at desc, s.id
  limit least(greatest(coalesce(p_limit, 20), 1), 100)
  offset least(greatest(coalesce(p_offset, 0), 0), 10000)
$$;

create or replace function public.get_extraction_schema(p_schema_id uuid)
  returns setof public.extraction_schema_row
  language sql stable security invoker
  set search_path = ''
  as $$
  select s.id, s.user_id, s.name, s.description, s.version, s.fields, s.json_schema, s.created_at, s.updated_at
  from public.extraction_schemas s
  where s.id = p_schema_id
$$;

create or replace function public.create_extraction_schema(p_name text, p_description text, p_fields jsonb, p_json_schema jsonb, p_note text default null)
  returns public.extraction_schema_row
  language plpgsql volatile security invoker
  set search_path = ''
  as $$
declare
  v_row public.extraction_schema_row;
begin
  if auth.uid() is null then
    raise exception 'a signed-in user is required to create a schema' using errcode = '42501';
  end if;
  insert into public.extraction_schemas (user_id, name, description, fields, json_schema)
  values (auth.uid(), btrim(p_name), p_description, p_fields, p_json_schema)
  returning extraction_schemas.id, extraction_schemas.user_id, extraction_schemas.name, extraction_schemas.description,
            extraction_schemas.version, extraction_schemas.fields, extraction_schemas.json_schema,
            extraction_schemas.created_at, extraction_schemas.updated_at into v_row;
  insert into public.schema_versions (schema_id, number, name, description, fields, json_schema, note, created_by)
  values (v_row.id, 1, v_row.name, v_row.description, v_row.fields, v_row.json_schema, coalesce(p_note, 'created'), auth.uid());
  return v_row;
end
$$;

-- Every change is a new version ("every change creates a version"). The row is locked first, so two
-- concurrent edits get consecutive numbers instead of colliding on the primary key.
create or replace function public.update_extraction_schema(
  p_schema_id uuid, p_name text, p_description text, p_fields jsonb, p_json_schema jsonb, p_note text default null)
  returns setof public.extraction_schema_row
  language plpgsql volatile security invoker
  set search_path = ''
  as $$
declare
  v_version integer;
begin
  select s.version into v_version from public.extraction_schemas s where s.id = p_schema_id for update;
  if v_version is null then
    return;
  end if;
  update public.extraction_schemas s
     set name = btrim(p_name), description = p_description, fields = p_fields, json_schema = p_json_schema,
         version = v_version + 1, updated_at = now()
   where s.id = p_schema_id;
  insert into public.schema_versions (schema_id, number, name, description, fields, json_schema, note, created_by)
  values (p_schema_id, v_version + 1, btrim(p_name), p_description, p_fields, p_json_schema, p_note, auth.uid());
  return query select * from public.get_extraction_schema(p_schema_id);
end
$$;

create or replace function public.delete_extraction_schema(p_schema_id uuid)
  returns boolean
  language sql volatile security invoker
  set search_path = ''
  as $$
  with d as (delete from public.extraction_schemas s where s.id = p_schema_id returning 1)
  select exists (select 1 from d)
$$;

create or replace function public.list_schema_versions(p_schema_id uuid)
  returns table (number integer, name text, description text, fields jsonb, json_schema jsonb, note text, created_at timestamptz, created_by uuid)
  language sql stable security invoker
  set search_path = ''
  as $$
  select v.number, v.name, v.description, v.fields, v.json_schema, v.note, v.created_at, v.created_by
  from public.schema_versions v
  where v.schema_id = p_schema_id
  order by v.number desc
$$;

-- p_numbers: the versions wanted (one for GET .../versions/{n}, two for compare).
create or replace function public.get_schema_versions(p_schema_id uuid, p_numbers integer[])
  returns table (number integer, name text, description text, fields jsonb, json_schema jsonb, note text, created_at timestamptz, created_by uuid)
  language sql stable security invoker
  set search_path = ''
  as $$
  select v.number, v.name, v.description, v.fields, v.json_schema, v.note, v.created_at, v.created_by
  from public.schema_versions v
  where v.schema_id = p_schema_id and v.number = any (coalesce(p_numbers, '{}'))
  order by v.number
$$;

do $$
declare
  fn text;
begin
  foreach fn in array array[
    'public.list_extraction_schemas(integer, integer)',
    'public.get_extraction_schema(uuid)',
    'public.create_extraction_schema(text, text, jsonb, jsonb, text)',
    'public.update_extraction_schema(uuid, text, text, jsonb, jsonb, text)',
    'public.delete_extraction_schema(uuid)',
    'public.list_schema_versions(uuid)',
    'public.get_schema_versions(uuid, integer[])'
  ] loop
    execute format('revoke all on function %s from public, anon', fn);
    execute format('grant execute on function %s to authenticated, service_role', fn);
  end loop;
end
$$;
