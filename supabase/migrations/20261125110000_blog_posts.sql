-- Blog: posts written by admins, read by everyone once published. RLS is the gate: anyone reads
-- posts with status 'published' and published_at <= now() (a future published_at schedules a post), admins read and
-- write every post. The app reaches the table only through the RPC functions below (SECURITY INVOKER unless said).

create table if not exists public.blog_posts (
  id uuid primary key default gen_random_uuid(),
  slug text not null unique
    constraint blog_posts_slug_format check (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$' and char_length(slug) <= 140),
  title text not null constraint blog_posts_title_length check (char_length(btrim(title)) between 1 and 200 and char_length(title) <= 200),
  excerpt text not null default '' constraint blog_posts_excerpt_length check (char_length(excerpt) <= 500),
  body text not null default '' constraint blog_posts_body_length check (char_length(body) <= 100000),
  category text constraint blog_posts_category_length check (char_length(category) between 1 and 60),
  tags text[] not null default '{}' constraint blog_posts_tags_count check (cardinality(tags) <= 20),
  status text not null default 'draft' constraint blog_posts_status check (status in ('draft', 'published', 'archived')),
  published_at timestamptz,
  author_id uuid default auth.uid() references auth.users (id) on delete set null,
  -- The byline shown publicly: never the author's e-mail (the admin sets it; the default is the group's name).
  author_name text not null default 'Editorial team' constraint blog_posts_author_name_length check (char_length(author_name) between 1 and 120),
  view_count bigint not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint blog_posts_published_has_date check (status <> 'published' or published_at is not null)
);
comment on table public.blog_posts is 'Blog posts (Markdown bodies). RLS: anyone reads published posts whose published_at has come; admins all.';
create index if not exists blog_posts_public_idx on public.blog_posts (published_at desc, id) where status = 'published';
create index if not exists blog_posts_status_idx on public.blog_posts (status, updated_at desc);
create index if not exists blog_posts_tags_idx on public.blog_posts using gin (tags);

alter table public.blog_posts enable row level security;
revoke all on public.blog_posts from public, anon, authenticated;
grant select on public.blog_posts to anon, authenticated;
grant insert, update, delete on public.blog_posts to authenticated;
grant all on public.blog_posts to service_role;

create policy blog_posts_public_read on public.blog_posts
  for select to anon, authenticated
  using (status = 'published' and published_at <= now());
create policy blog_posts_admin_all on public.blog_posts
  for all to authenticated
  using ((select public.is_admin()))
  with check ((select public.is_admin()));

create or replace function public.blog_posts_touch_updated_at() returns trigger
  language plpgsql
  set search_path = ''
  as $$
begin
  new.updated_at := now();
  return new;
end
$$;
create trigger blog_posts_touch_updated_at
  before update of slug, title, excerpt, body, category, tags, status, published_at, author_name on public.blog_posts
  for each row execute function public.blog_posts_touch_updated_at();

-- One row per (post, device, day): a view is counted once per device per day. `device` is a pseudonymous hash the
-- app computes (docs/content.md); rows older than two days are pruned as views are recorded. Nobody reads it
-- directly: only blog_record_view (SECURITY DEFINER) writes it.
create table if not exists public.blog_post_views (
  post_id uuid not null references public.blog_posts (id) on delete cascade,
  device text not null constraint blog_post_views_device_length check (char_length(device) between 16 and 128),
  day date not null default current_date,
  primary key (post_id, device, day)
);
comment on table public.blog_post_views is 'Which device saw which post on which day (pseudonymous hashes, kept two days): counts views once per device per day.';
create index if not exists blog_post_views_day_idx on public.blog_post_views (day);
alter table public.blog_post_views enable row level security;
revoke all on public.blog_post_views from public, anon, authenticated;
grant all on public.blog_post_views to service_role;

/** `like` pattern of a literal substring: %, _ and \ escaped (used with escape '\'). */
create or replace function public.blog_like_pattern(p_q text) returns text
  language sql immutable
  set search_path = ''
  as $$
  select '%' || replace(replace(replace(p_q, '\', '\\'), '%', '\%'), '_', '\_') || '%'
$$;
grant execute on function public.blog_like_pattern(text) to anon, authenticated, service_role;

-- Public list: published and due only, whoever calls (an admin browsing /blog sees what visitors see). The matching
-- ids are collected once, narrow (id, date, title: bodies stay in TOAST unless `q` must read them), counted once and
-- cut into a page, so the total costs no window over whole rows. `q` is a literal substring (%, _ and \ escaped)
-- checked row by row: trigram indexes were tried and the planner rightly prefers the scan at blog sizes (OR over three
-- columns; docs/content.md has the figures).

create or replace function public.blog_list_posts(
  p_category text default null,
  p_tag text default null,
  p_q text default null,
  p_sort text default 'published_at',
  p_order text default 'desc',
  p_limit integer default 10,
  p_offset integer default 0
) returns table (
  id uuid, slug text, title text, excerpt text, category text, tags text[], published_at timestamptz, author_name text,
  total_count bigint
)
  language plpgsql stable security invoker
  set search_path = ''
  as $$
#variable_conflict use_column
declare
  v_pattern text := case when p_q is null then null else public.blog_like_pattern(p_q) end;
begin
  return query
  with hits as materialized (
    select p.id, p.published_at, p.title from public.blog_posts p
    where p.status = 'published' and p.published_at <= now()
      and (p_category is null or p.category = p_category)
      and (p_tag is null or p.tags @> array[p_tag])
      and (v_pattern is null or p.title ilike v_pattern escape '\'
           or p.excerpt ilike v_pattern escape '\'
           or p.body ilike v_pattern escape '\')
  ), page as (
    select h.id, h.published_at, h.title from hits h
    order by
      case when p_sort = 'title' and p_order = 'asc' then lower(h.title) end asc,
      case when p_sort = 'title' and p_order <> 'asc' then lower(h.title) end desc,
      case when p_sort <> 'title' and p_order = 'asc' then h.published_at end asc,
      case when p_sort <> 'title' and p_order <> 'asc' then h.published_at end desc,
      h.id
    limit greatest(p_limit, 0) offset greatest(p_offset, 0)
  )
  select p.id, p.slug, p.title, p.excerpt, p.category, p.tags, p.published_at, p.author_name,
         (select count(*) from hits)
  from page g join public.blog_posts p on p.id = g.id
  order by
    case when p_sort = 'title' and p_order = 'asc' then lower(g.title) end asc,
    case when p_sort = 'title' and p_order <> 'asc' then lower(g.title) end desc,
    case when p_sort <> 'title' and p_order = 'asc' then g.published_at end asc,
    case when p_sort <> 'title' and p_order <> 'asc' then g.published_at end desc,
    g.id;
end
$$;
grant execute on function public.blog_list_posts(text, text, text, text, text, integer, integer) to anon, authenticated, service_role;

-- One public post by slug (published and due), with its neighbours in publication order for prev/next links.
create or replace function public.blog_get_post(p_slug text)
  returns table (
    id uuid, slug text, title text, excerpt text, body text, category text, tags text[], published_at timestamptz,
    author_name text, updated_at timestamptz, view_count bigint,
    prev_slug text, prev_title text, next_slug text, next_title text
  )
  language sql stable security invoker
  set search_path = ''
  as $$
  with visible as (
    select p.* from public.blog_posts p where p.status = 'published' and p.published_at <= now()
  ), me as (
    select * from visible v where v.slug = p_slug
  )
  select me.id, me.slug, me.title, me.excerpt, me.body, me.category, me.tags, me.published_at, me.author_name,
         me.updated_at, me.view_count,
         pv.slug, pv.title, nx.slug, nx.title
  from me
  left join lateral (
    select v.slug, v.title from visible v
    where (v.published_at, v.id) < (me.published_at, me.id) order by v.published_at desc, v.id desc limit 1
  ) pv on true
  left join lateral (
    select v.slug, v.title from visible v
    where (v.published_at, v.id) > (me.published_at, me.id) order by v.published_at asc, v.id asc limit 1
  ) nx on true
$$;
grant execute on function public.blog_get_post(text) to anon, authenticated, service_role;

create or replace function public.blog_categories()
  returns table (name text, count bigint)
  language sql stable security invoker
  set search_path = ''
  as $$
  select p.category, count(*) from public.blog_posts p
  where p.status = 'published' and p.published_at <= now() and p.category is not null
  group by p.category order by count(*) desc, p.category
$$;
grant execute on function public.blog_categories() to anon, authenticated, service_role;

-- SECURITY DEFINER: visitors may not update blog_posts, yet their view must count. It only ever adds one to a post
-- that is publicly visible, once per (device, day), and prunes day rows older than two days.
create or replace function public.blog_record_view(p_post_id uuid, p_device text) returns boolean
  language plpgsql
  security definer
  set search_path = ''
  as $$
declare
  v_new boolean;
begin
  if not exists (select 1 from public.blog_posts p where p.id = p_post_id and p.status = 'published' and p.published_at <= now()) then
    return false;
  end if;
  insert into public.blog_post_views (post_id, device, day) values (p_post_id, p_device, current_date)
  on conflict do nothing;
  get diagnostics v_new = row_count;
  if v_new then
    update public.blog_posts set view_count = view_count + 1 where id = p_post_id;
    delete from public.blog_post_views where day < current_date - 1;
  end if;
  return v_new;
end
$$;
-- Only the server records views (it derives the device hash); a client cannot inflate counts through the gateway.
revoke all on function public.blog_record_view(uuid, text) from public;
grant execute on function public.blog_record_view(uuid, text) to service_role;

-- Admin list: every status (RLS: an admin sees all; anyone else only what is public).
create or replace function public.blog_admin_list(
  p_status text default null,
  p_q text default null,
  p_limit integer default 20,
  p_offset integer default 0
) returns table (
  id uuid, slug text, title text, excerpt text, category text, tags text[], status text, published_at timestamptz,
  author_name text, view_count bigint, created_at timestamptz, updated_at timestamptz, total_count bigint
)
  language sql stable security invoker
  set search_path = ''
  as $$
  select p.id, p.slug, p.title, p.excerpt, p.category, p.tags, p.status, p.published_at, p.author_name, p.view_count,
         p.created_at, p.updated_at, count(*) over ()
  from public.blog_posts p
  where (p_status is null or p.status = p_status)
    and (p_q is null or p.title ilike public.blog_like_pattern(p_q) escape '\' or p.slug ilike public.blog_like_pattern(p_q) escape '\')
  order by p.updated_at desc, p.id
  limit greatest(p_limit, 0) offset greatest(p_offset, 0)
$$;
grant execute on function public.blog_admin_list(text, text, integer, integer) to authenticated, service_role;

create or replace function public.blog_admin_get(p_id uuid)
  returns setof public.blog_posts
  language sql stable security invoker
  set search_path = ''
  as $$
  select * from public.blog_posts p where p.id = p_id
$$;
grant execute on function public.blog_admin_get(uuid) to authenticated, service_role;

/** The first free slug among base, base-2, base-3, … (ignoring the post itself when editing). */
create or replace function public.blog_unique_slug(p_base text, p_except uuid default null) returns text
  language plpgsql stable security invoker
  set search_path = ''
  as $$
declare
  v_slug text := p_base;
  v_n integer := 1;
begin
  while exists (select 1 from public.blog_posts p where p.slug = v_slug and (p_except is null or p.id <> p_except)) loop
    v_n := v_n + 1;
    v_slug := left(p_base, 130) || '-' || v_n;
  end loop;
  return v_slug;
end
$$;
grant execute on function public.blog_unique_slug(text, uuid) to authenticated, service_role;

-- Create or update one post with every field given (the app merges a PATCH onto the stored row first). The slug is
-- made unique here, in the same statement as the write. RLS: only admins may insert or update.
create or replace function public.blog_admin_save(
  p_id uuid,
  p_slug_base text,
  p_title text,
  p_excerpt text,
  p_body text,
  p_category text,
  p_tags text[],
  p_status text,
  p_published_at timestamptz,
  p_author_name text
) returns setof public.blog_posts
  language plpgsql security invoker
  set search_path = ''
  as $$
declare
  v_slug text;
begin
  -- Serialise slug choice: two admins saving "Release notes" at once must not both pick the same suffix.
  perform pg_advisory_xact_lock(hashtext('blog_posts.slug'));
  v_slug := public.blog_unique_slug(p_slug_base, p_id);
  if p_id is null then
    return query insert into public.blog_posts (slug, title, excerpt, body, category, tags, status, published_at, author_name)
      values (v_slug, p_title, p_excerpt, p_body, p_category, p_tags, p_status, p_published_at, coalesce(p_author_name, 'Editorial team'))
      returning *;
  else
    return query update public.blog_posts p set slug = v_slug, title = p_title, excerpt = p_excerpt, body = p_body,
        category = p_category, tags = p_tags, status = p_status, published_at = p_published_at,
        author_name = coalesce(p_author_name, p.author_name)
      where p.id = p_id
      returning *;
  end if;
end
$$;
grant execute on function public.blog_admin_save(uuid, text, text, text, text, text, text[], text, timestamptz, text) to authenticated, service_role;

create or replace function public.blog_admin_delete(p_id uuid) returns boolean
  language plpgsql security invoker
  set search_path = ''
  as $$
declare
  v_n integer;
begin
  delete from public.blog_posts p where p.id = p_id;
  get diagnostics v_n = row_count;
  return v_n > 0;
end
$$;
grant execute on function public.blog_admin_delete(uuid) to authenticated, service_role;

-- GET /api/blog/admin/stats: counts by status, published posts per month (last 24 months), the five most viewed.
create or replace function public.blog_admin_stats() returns jsonb
  language sql stable security invoker
  set search_path = ''
  as $$
  select jsonb_build_object(
    'by_status', jsonb_build_object(
      'draft', (select count(*) from public.blog_posts where status = 'draft'),
      'published', (select count(*) from public.blog_posts where status = 'published'),
      'archived', (select count(*) from public.blog_posts where status = 'archived')),
    'posts_per_month', coalesce((
      select jsonb_agg(jsonb_build_object('month', m.month, 'count', m.n) order by m.month)
      from (select to_char(date_trunc('month', published_at), 'YYYY-MM') as month, count(*) as n
            from public.blog_posts
            where status = 'published' and published_at >= date_trunc('month', now()) - interval '23 months'
            group by 1) m), '[]'::jsonb),
    'top_viewed', coalesce((
      select jsonb_agg(jsonb_build_object('id', t.id, 'slug', t.slug, 'title', t.title, 'status', t.status, 'view_count', t.view_count)
                       order by t.view_count desc, t.title)
      from (select id, slug, title, status, view_count from public.blog_posts order by view_count desc, title limit 5) t), '[]'::jsonb)
  )
$$;
grant execute on function public.blog_admin_stats() to authenticated, service_role;
