-- Chat with retrieval: a user's threads and their messages, owner-only by row-level security, with
-- the RPC functions the HTTP routes call. Every function is SECURITY INVOKER: RLS is the gate, so another user's
-- thread is simply invisible (a plain 404 upstream, D-30). Messages keep the sources they cited (jsonb) and the
-- answer's metadata (mode, model, timings), never anything the user did not see.

create table public.chat_threads (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  title text not null constraint chat_threads_title_length check (char_length(btrim(title)) between 1 and 200 and char_length(title) <= 200),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.chat_threads is 'Chat threads of one user (RLS: owner only).';
create index chat_threads_user_updated_idx on public.chat_threads (user_id, updated_at desc, id);

create table public.chat_messages (
  id uuid primary key default gen_random_uuid(),
  thread_id uuid not null references public.chat_threads (id) on delete cascade,
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  role text not null constraint chat_messages_role check (role in ('user', 'assistant')),
  content text not null constraint chat_messages_content_length check (char_length(content) <= 100000),
  sources jsonb not null default '[]'::jsonb constraint chat_messages_sources_array check (jsonb_typeof(sources) = 'array' and pg_column_size(sources) <= 262144),
  metadata jsonb not null default '{}'::jsonb constraint chat_messages_metadata_object check (jsonb_typeof(metadata) = 'object' and pg_column_size(metadata) <= 16384),
  created_at timestamptz not null default clock_timestamp()
);
comment on table public.chat_messages is 'Messages of chat threads (RLS: owner only); sources are the passages an answer cited.';
create index chat_messages_thread_created_idx on public.chat_messages (thread_id, created_at, id);
create index chat_messages_user_idx on public.chat_messages (user_id);

alter table public.chat_threads enable row level security;
alter table public.chat_messages enable row level security;
create policy chat_threads_owner on public.chat_threads
  for all to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()));
-- A message belongs to its writer and may only be added to a thread of the same user.
create policy chat_messages_owner on public.chat_messages
  for all to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid())
    and exists (select 1 from public.chat_threads t where t.id = thread_id and t.user_id = (select auth.uid())));
revoke all on table public.chat_threads from public, anon;
revoke all on table public.chat_messages from public, anon;
grant select, insert, update, delete on table public.chat_threads to authenticated, service_role;
grant select, insert, update, delete on table public.chat_messages to authenticated, service_role;

create or replace function public.chat_create_thread(p_title text)
  returns uuid
  language sql volatile security invoker
  set search_path = ''
  as $$
  insert into public.chat_threads (title) values (p_title) returning id
$$;

-- One message; touches the thread's updated_at so the list shows recent threads first. Null when the thread is not
-- the caller's (RLS hides it).
create or replace function public.chat_add_message(p_thread_id uuid, p_role text, p_content text, p_sources jsonb, p_metadata jsonb)
  returns uuid
  language plpgsql volatile security invoker
  set search_path = ''
  as $$
declare
  v_id uuid;
begin
  update public.chat_threads set updated_at = now() where id = p_thread_id;
  if not found then
    return null;
  end if;
  insert into public.chat_messages (thread_id, role, content, sources, metadata)
  values (p_thread_id, p_role, p_content, coalesce(p_sources, '[]'::jsonb), coalesce(p_metadata, '{}'::jsonb))
  returning id into v_id;
  return v_id;
end
$$;

create or replace function public.chat_list_threads(p_limit integer, p_offset integer)
  returns table (id uuid, title text, created_at timestamptz, updated_at timestamptz, message_count bigint, total_count bigint)
  language sql stable security invoker
  set search_path = ''
  as $$
  select t.id, t.title, t.created_at, t.updated_at,
    (select count(*) from public.chat_messages m where m.thread_id = t.id),
    count(*) over ()
  from public.chat_threads t
  order by t.updated_at desc, t.id
  limit greatest(p_limit, 0) offset greatest(p_offset, 0)
$$;

-- The thread with its messages (oldest first), or no row.
create or replace function public.chat_get_thread(p_id uuid)
  returns table (id uuid, title text, created_at timestamptz, updated_at timestamptz, messages jsonb)
  language sql stable security invoker
  set search_path = ''
  as $$
  select t.id, t.title, t.created_at, t.updated_at,
    coalesce((select jsonb_agg(jsonb_build_object('id', m.id, 'role', m.role, 'content', m.content, 'sources', m.sources,
      'metadata', m.metadata, 'created_at', m.created_at) order by m.created_at, m.id)
      from public.chat_messages m where m.thread_id = t.id), '[]'::jsonb)
  from public.chat_threads t
  where t.id = p_id
$$;

create or replace function public.chat_rename_thread(p_id uuid, p_title text)
  returns table (id uuid, title text, created_at timestamptz, updated_at timestamptz)
  language sql volatile security invoker
  set search_path = ''
  as $$
  update public.chat_threads t set title = p_title, updated_at = now() where t.id = p_id
  returning t.id, t.title, t.created_at, t.updated_at
$$;

create or replace function public.chat_delete_thread(p_id uuid)
  returns boolean
  language sql volatile security invoker
  set search_path = ''
  as $$
  with d as (delete from public.chat_threads t where t.id = p_id returning 1)
  select exists (select 1 from d)
$$;

do $$
declare
  fn text;
begin
  foreach fn in array array[
    'public.chat_create_thread(text)',
    'public.chat_add_message(uuid, text, text, jsonb, jsonb)',
    'public.chat_list_threads(integer, integer)',
    'public.chat_get_thread(uuid)',
    'public.chat_rename_thread(uuid, text)',
    'public.chat_delete_thread(uuid)'
  ] loop
    execute format('revoke all on function %s from public, anon', fn);
    execute format('grant execute on function %s to authenticated, service_role', fn);
  end loop;
end
$$;
