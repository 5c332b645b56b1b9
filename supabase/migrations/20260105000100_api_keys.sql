-- Server API keys for the reference API (/api/v1) and server-side event emitters (spec: Authentication 1).
-- Only a SHA-256 of each key is stored; `prefix` is the non-secret key id used to find the row, the app compares the
-- hashes in constant time (lib/backend/api-keys.ts). Readable and writable by service_role only.

create table if not exists public.api_keys (
  id uuid primary key default gen_random_uuid(),
  name text not null check (char_length(name) between 1 and 100),
  prefix text not null unique check (prefix ~ '^[0-9a-f]{12}$'),
  key_hash text not null check (key_hash ~ '^[0-9a-f]{64}$'),
  user_id uuid references auth.users (id) on delete cascade,
  created_at timestamptz not null default now(),
  revoked_at timestamptz
);

alter table public.api_keys enable row level security;
-- The bootstrap's default privileges grant new tables to anon and authenticated: take that back.
revoke all on table public.api_keys from public, anon, authenticated;
grant select, insert, update on table public.api_keys to service_role;

create or replace function public.api_key_lookup(p_prefix text)
returns table (id uuid, name text, key_hash text, user_id uuid)
language sql
stable
security invoker
set search_path = ''
as $$
  select k.id, k.name, k.key_hash, k.user_id
  from public.api_keys k
  where k.prefix = p_prefix and k.revoked_at is null
$$;

create or replace function public.api_key_create(p_name text, p_prefix text, p_key_hash text, p_user_id uuid default null)
returns uuid
language sql
volatile
security invoker
set search_path = ''
as $$
  insert into public.api_keys (name, prefix, key_hash, user_id)
  values (p_name, p_prefix, p_key_hash, p_user_id)
  returning id
$$;

create or replace function public.api_key_revoke(p_id uuid)
returns boolean
language sql
volatile
security invoker
set search_path = ''
as $$
  with revoked as (
    update public.api_keys set revoked_at = now() where id = p_id and revoked_at is null returning 1
  )
  select exists (select 1 from revoked)
$$;

revoke all on function public.api_key_lookup(text) from public, anon, authenticated;
revoke all on function public.api_key_create(text, text, text, uuid) from public, anon, authenticated;
revoke all on function public.api_key_revoke(uuid) from public, anon, authenticated;
grant execute on function public.api_key_lookup(text) to service_role;
grant execute on function public.api_key_create(text, text, text, uuid) to service_role;
grant execute on function public.api_key_revoke(uuid) to service_role;
