-- Publications: the group's research outputs. RLS: anyone reads published records, admins read and
-- write all. collection_ids are optional links to the creator's own collections (checked by the app against what
-- the creator can see; shown only to admins).

create table if not exists public.publications (
  id uuid primary key default gen_random_uuid(),
  title text not null constraint publications_title_length check (char_length(btrim(title)) between 1 and 300 and char_length(title) <= 300),
  authors text[] not null default '{}' constraint publications_authors_count check (cardinality(authors) between 1 and 50),
  venue text constraint publications_venue_length check (char_length(venue) <= 300),
  year integer not null constraint publications_year_range check (year between 1900 and 2100),
  abstract text constraint publications_abstract_length check (char_length(abstract) <= 5000),
  url text constraint publications_url_length check (char_length(url) <= 2000 and url ~ '^https?://'),
  doi text constraint publications_doi_format check (char_length(doi) <= 200 and doi ~ '^10\.[0-9]{4,9}/\S+$'),
  kind text not null constraint publications_kind check (kind in ('paper', 'dataset', 'report', 'software')),
  status text not null default 'draft' constraint publications_status check (status in ('draft', 'published')),
  collection_ids uuid[] not null default '{}' constraint publications_collections_count check (cardinality(collection_ids) <= 20),
  created_by uuid default auth.uid() references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.publications is 'Research outputs (papers, datasets, reports, software). RLS: anyone reads published; admins all.';
create index if not exists publications_public_idx on public.publications (year desc, created_at desc) where status = 'published';

alter table public.publications enable row level security;
revoke all on public.publications from public, anon, authenticated;
grant select on public.publications to anon, authenticated;
grant insert, update, delete on public.publications to authenticated;
grant all on public.publications to service_role;

create policy publications_public_read on public.publications
  for select to anon, authenticated
  using (status = 'published');
create policy publications_admin_all on public.publications
  for all to authenticated
  using ((select public.is_admin()))
  with check ((select public.is_admin()));

create trigger publications_touch_updated_at
  before update on public.publications
  for each row execute function public.blog_posts_touch_updated_at();

-- What RLS lets the caller see, filtered (p_status null = every visible record: an admin's drafts included).
create or replace function public.publications_list(
  p_kind text default null,
  p_year integer default null,
  p_status text default null,
  p_limit integer default 20,
  p_offset integer default 0
) returns table (
  id uuid, title text, authors text[], venue text, year integer, abstract text, url text, doi text, kind text,
  status text, collection_ids uuid[], created_at timestamptz, updated_at timestamptz, total_count bigint
)
  language sql stable security invoker
  set search_path = ''
  as $$
  select p.id, p.title, p.authors, p.venue, p.year, p.abstract, p.url, p.doi, p.kind, p.status, p.collection_ids,
         p.created_at, p.updated_at, count(*) over ()
  from public.publications p
  where (p_kind is null or p.kind = p_kind)
    and (p_year is null or p.year = p_year)
    and (p_status is null or p.status = p_status)
  order by p.year desc, p.created_at desc, p.id
  limit greatest(p_limit, 0) offset greatest(p_offset, 0)
$$;
grant execute on function public.publications_list(text, integer, text, integer, integer) to anon, authenticated, service_role;

-- The years and kinds that have visible records (the page's filter choices).
create or replace function public.publications_facets()
  returns table (facet text, value text, count bigint)
  language sql stable security invoker
  set search_path = ''
  as $$
  select 'kind', p.kind, count(*) from public.publications p where p.status = 'published' group by p.kind
  union all
  select 'year', p.year::text, count(*) from public.publications p where p.status = 'published' group by p.year
  order by 1, 2 desc
$$;
grant execute on function public.publications_facets() to anon, authenticated, service_role;

create or replace function public.publications_get(p_id uuid)
  returns setof public.publications
  language sql stable security invoker
  set search_path = ''
  as $$
  select * from public.publications p where p.id = p_id
$$;
grant execute on function public.publications_get(uuid) to anon, authenticated, service_role;

-- Insert (p_id null) or update with every field given (the app merges a PATCH first). RLS: admins only.
create or replace function public.publications_save(
  p_id uuid,
  p_title text,
  p_authors text[],
  p_venue text,
  p_year integer,
  p_abstract text,
  p_url text,
  p_doi text,
  p_kind text,
  p_status text,
  p_collection_ids uuid[]
) returns setof public.publications
  language plpgsql security invoker
  set search_path = ''
  as $$
begin
  if p_id is null then
    return query insert into public.publications (title, authors, venue, year, abstract, url, doi, kind, status, collection_ids)
      values (p_title, p_authors, p_venue, p_year, p_abstract, p_url, p_doi, p_kind, p_status, p_collection_ids)
      returning *;
  else
    return query update public.publications p set title = p_title, authors = p_authors, venue = p_venue, year = p_year,
        abstract = p_abstract, url = p_url, doi = p_doi, kind = p_kind, status = p_status, collection_ids = p_collection_ids
      where p.id = p_id
      returning *;
  end if;
end
$$;
grant execute on function public.publications_save(uuid, text, text[], text, integer, text, text, text, text, text, uuid[]) to authenticated, service_role;

create or replace function public.publications_delete(p_id uuid) returns boolean
  language plpgsql security invoker
  set search_path = ''
  as $$
declare
  v_n integer;
begin
  delete from public.publications p where p.id = p_id;
  get diagnostics v_n = row_count;
  return v_n > 0;
end
$$;
grant execute on function public.publications_delete(uuid) to authenticated, service_role;

-- Contact messages. No anonymous or ordinary-user access at all: the form's route stores through
-- the service role (after its honeypot and quota checks, so nobody can bypass them through the gateway) and admins
-- read and triage them through the panel (RLS: is_admin()).
create table if not exists public.contact_messages (
  id uuid primary key default gen_random_uuid(),
  name text not null constraint contact_messages_name_length check (char_length(name) between 2 and 120),
  email text not null constraint contact_messages_email_length check (char_length(email) between 3 and 254),
  subject text constraint contact_messages_subject_length check (char_length(subject) <= 200),
  message text not null constraint contact_messages_message_length check (char_length(message) between 10 and 5000),
  status text not null default 'new' constraint contact_messages_status check (status in ('new', 'read', 'archived')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.contact_messages is 'Messages sent through the contact form. Written by the server only; admins read and triage them.';
create index if not exists contact_messages_status_idx on public.contact_messages (status, created_at desc);
create index if not exists contact_messages_created_idx on public.contact_messages (created_at desc, id);

alter table public.contact_messages enable row level security;
revoke all on public.contact_messages from public, anon, authenticated;
grant select, update on public.contact_messages to authenticated;
grant all on public.contact_messages to service_role;
create policy contact_messages_admin_read on public.contact_messages
  for select to authenticated
  using ((select public.is_admin()));
create policy contact_messages_admin_update on public.contact_messages
  for update to authenticated
  using ((select public.is_admin()))
  with check ((select public.is_admin()));

create trigger contact_messages_touch_updated_at
  before update on public.contact_messages
  for each row execute function public.blog_posts_touch_updated_at();

-- Service role only (see above).
create or replace function public.contact_submit(p_name text, p_email text, p_subject text, p_message text)
  returns setof public.contact_messages
  language sql security invoker
  set search_path = ''
  as $$
  insert into public.contact_messages (name, email, subject, message) values (p_name, p_email, p_subject, p_message)
  returning *
$$;
revoke all on function public.contact_submit(text, text, text, text) from public;
grant execute on function public.contact_submit(text, text, text, text) to service_role;

create or replace function public.contact_list(p_status text default null, p_limit integer default 50, p_offset integer default 0)
  returns table (
    id uuid, name text, email text, subject text, message text, status text, created_at timestamptz,
    updated_at timestamptz, total_count bigint
  )
  language sql stable security invoker
  set search_path = ''
  as $$
  select m.id, m.name, m.email, m.subject, m.message, m.status, m.created_at, m.updated_at, count(*) over ()
  from public.contact_messages m
  where p_status is null or m.status = p_status
  order by m.created_at desc, m.id
  limit greatest(p_limit, 0) offset greatest(p_offset, 0)
$$;
grant execute on function public.contact_list(text, integer, integer) to authenticated, service_role;

-- Returns the status before and after (for the audit log); no row when the message is unknown or invisible.
create or replace function public.contact_set_status(p_id uuid, p_status text)
  returns table (id uuid, before_status text, status text, updated_at timestamptz)
  language sql security invoker
  set search_path = ''
  as $$
  with prev as (select m.id, m.status from public.contact_messages m where m.id = p_id for update)
  update public.contact_messages m set status = p_status
  from prev where m.id = prev.id
  returning m.id, prev.status, m.status, m.updated_at
$$;
grant execute on function public.contact_set_status(uuid, text) to authenticated, service_role;

-- GET /api/admin/content/stats: blog and publication counts by status, plus contact messages by status.
create or replace function public.content_stats() returns jsonb
  language sql stable security invoker
  set search_path = ''
  as $$
  select jsonb_build_object(
    'blog', jsonb_build_object(
      'draft', (select count(*) from public.blog_posts where status = 'draft'),
      'published', (select count(*) from public.blog_posts where status = 'published'),
      'scheduled', (select count(*) from public.blog_posts where status = 'published' and published_at > now()),
      'archived', (select count(*) from public.blog_posts where status = 'archived')),
    'publications', jsonb_build_object(
      'draft', (select count(*) from public.publications where status = 'draft'),
      'published', (select count(*) from public.publications where status = 'published')),
    'contact_messages', jsonb_build_object(
      'new', (select count(*) from public.contact_messages where status = 'new'),
      'read', (select count(*) from public.contact_messages where status = 'read'),
      'archived', (select count(*) from public.contact_messages where status = 'archived'))
  )
$$;
grant execute on function public.content_stats() to authenticated, service_role;
