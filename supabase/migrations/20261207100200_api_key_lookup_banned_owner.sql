-- A banned user's API keys are refused while the ban lasts (P-80): the lookup the reference API verifies keys with
-- skips keys whose owner is banned (auth.users.banned_until in the future) or deleted. The keys themselves stay as
-- they were, so lifting the ban makes them work again; revoking is the user's (or a deletion's) act, not the ban's.
-- The web tier refuses them as well from its copy of the banned set (lib/api/identity.ts), which also covers a key it
-- remembered from before the ban.
--
-- Same signature and columns as in 20261125150000_api_v1.sql. SECURITY DEFINER: why: it reads auth.users, which the
-- service role (its only caller) cannot read on a Supabase project; it answers only the row of the prefix asked for.
create or replace function public.api_key_lookup(p_prefix text)
returns table (id uuid, name text, key_hash text, user_id uuid, expires_at timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  select k.id, k.name, k.key_hash, k.user_id, k.expires_at
  from public.api_keys k
  where k.prefix = p_prefix and k.revoked_at is null and (k.expires_at is null or k.expires_at > now())
    and (k.user_id is null or exists (
      select 1 from auth.users u
       where u.id = k.user_id and u.deleted_at is null and (u.banned_until is null or u.banned_until <= now())))
$$;
revoke all on function public.api_key_lookup(text) from public, anon, authenticated;
grant execute on function public.api_key_lookup(text) to service_role;
