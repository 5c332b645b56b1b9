-- Collection create takes document_ids[] and tags[] (spec: reference endpoints, R-END-142), and the list is paged
-- (R-LIM-028, R-END-151; spec audit defects 11 and 12). RLS and grants are unchanged: every
-- function stays SECURITY INVOKER with a pinned search_path, EXECUTE for authenticated and service_role only, and one
-- overload per name (the REST layer resolves by argument names; defaults keep the old calls working).

-- Tags: at most 20, each 1 to 50 characters, no surrounding blanks, no duplicates. The HTTP schema checks the same
-- limits first (CreateCollectionSchema, lib/schema/requests/structured.ts) so the caller gets the field named; this is the backstop.
create or replace function public.collection_tags_valid(p_tags text[])
  returns boolean
  language sql immutable parallel safe
  set search_path = ''
  as $$
  select p_tags is not null
     and cardinality(p_tags) <= 20
     and not exists (
       select 1 from unnest(p_tags) t(tag)
        where t.tag is null or t.tag <> btrim(t.tag) or char_length(t.tag) not between 1 and 50
     )
     and cardinality(p_tags) = (select count(distinct t.tag) from unnest(p_tags) t(tag))
$$;
grant execute on function public.collection_tags_valid(text[]) to anon, authenticated, service_role;

alter table public.collections
  add column tags text[] not null default '{}'
  constraint collections_tags_valid check (public.collection_tags_valid(tags));

-- Every collection record carries its tags.
alter type public.collection_row add attribute tags text[];

-- Recreated for the new row shape; p_limit null = every row (the SQL callers), the HTTP layer always pages.
drop function public.list_collections();
create function public.list_collections(p_limit integer default null, p_offset integer default 0)
  returns setof public.collection_row
  language sql stable security invoker
  set search_path = ''
  as $$
  select c.id, c.user_id, c.name, c.description, c.created_at, c.updated_at,
         (select count(*) from public.collection_documents d where d.collection_id = c.id), c.tags
  from public.collections c
  order by c.created_at desc, c.id
  limit case when p_limit is null then null else least(greatest(p_limit, 1), 100) end
  offset least(greatest(coalesce(p_offset, 0), 0), 10000)
$$;

-- The caller's collection count (RLS), the total of the paged list.
create function public.count_collections()
  returns integer
  language sql stable security invoker
  set search_path = ''
  as $$
  select count(*)::integer from public.collections
$$;

create or replace function public.get_collection(p_collection_id uuid)
  returns setof public.collection_row
  language sql stable security invoker
  set search_path = ''
  as $$
  select c.id, c.user_id, c.name, c.description, c.created_at, c.updated_at,
         (select count(*) from public.collection_documents d where d.collection_id = c.id), c.tags
  from public.collections c
  where c.id = p_collection_id
$$;

-- One call creates the collection with its tags and first documents, atomically: an unknown document id raises
-- SC002 (detail = the missing ids, as add_collection_documents) and the whole call is rolled back, so nothing is
-- created on error. The id count is capped by the HTTP schema (MAX_BATCH_DOCUMENT_IDS), as for add_collection_documents.
drop function public.create_collection(text, text);
create function public.create_collection(
  p_name text,
  p_description text default null,
  p_tags text[] default null,
  p_document_ids uuid[] default null
)
  returns public.collection_row
  language plpgsql volatile security invoker
  set search_path = ''
  as $$
declare
  v_row public.collection_row;
  v_tags text[] := coalesce(p_tags, '{}');
  v_missing text;
  v_added bigint := 0;
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
  if not public.collection_tags_valid(v_tags) then
    raise exception 'tags: at most 20 distinct tags of 1 to 50 characters' using errcode = '22023', detail = 'tags';
  end if;
  select string_agg(x.id::text, ',' order by x.id) into v_missing
  from (select distinct u.id from unnest(coalesce(p_document_ids, '{}')) u(id)) x
  where not exists (select 1 from public.judgments j where j.id = x.id);
  if v_missing is not null then
    raise exception 'unknown document ids' using errcode = 'SC002', detail = v_missing;
  end if;
  insert into public.collections (user_id, name, description, tags)
  values (auth.uid(), btrim(p_name), p_description, v_tags)
  returning id, user_id, name, description, created_at, updated_at, 0::bigint, tags into v_row;
  if cardinality(coalesce(p_document_ids, '{}')) > 0 then
    insert into public.collection_documents (collection_id, judgment_id)
    select v_row.id, u.id from (select distinct unnest(p_document_ids) as id) u;
    get diagnostics v_added = row_count;
    v_row.document_count := v_added;
  end if;
  return v_row;
end
$$;

do $$
declare
  fn text;
begin
  foreach fn in array array[
    'public.list_collections(integer, integer)',
    'public.count_collections()',
    'public.create_collection(text, text, text[], uuid[])'
  ] loop
    execute format('revoke all on function %s from public, anon', fn);
    execute format('grant execute on function %s to authenticated, service_role', fn);
  end loop;
end
$$;
