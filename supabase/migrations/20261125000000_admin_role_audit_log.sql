-- Admin role and the admin audit log. An admin is a user whose verified token carries
-- app_metadata.role = "admin" (set by `npm run user:create -- --admin` or the admin panel through the Auth admin
-- API). RLS policies of admin-managed tables call public.is_admin(); every admin write is recorded with
-- public.record_admin_action(), which only an admin can call.

create or replace function public.is_admin() returns boolean
language sql stable
set search_path = ''
as $$
  select coalesce((auth.jwt() -> 'app_metadata' ->> 'role') = 'admin', false)
$$;
comment on function public.is_admin() is 'Whether the caller''s verified token says app_metadata.role = admin.';
grant execute on function public.is_admin() to anon, authenticated, service_role;

create table if not exists public.admin_audit_log (
  id bigint generated always as identity primary key,
  actor_id uuid references auth.users (id) on delete set null,
  action text not null check (char_length(action) between 1 and 100),
  target_type text not null check (char_length(target_type) between 1 and 100),
  target_id text check (char_length(target_id) <= 200),
  before jsonb,
  after jsonb,
  at timestamptz not null default now()
);
comment on table public.admin_audit_log is 'Every admin write: who, what, when, before/after (admins read it; written only by record_admin_action).';
create index if not exists admin_audit_log_at_idx on public.admin_audit_log (at desc, id desc);

alter table public.admin_audit_log enable row level security;
revoke all on public.admin_audit_log from anon, authenticated;
grant select on public.admin_audit_log to authenticated;
create policy admin_audit_log_admin_read on public.admin_audit_log
  for select to authenticated
  using ((select public.is_admin()));

-- SECURITY DEFINER: the log is append-only for everybody, admins included (no insert grant); this function is the one
-- way in, and it refuses non-admins and records the caller from the token, never from an argument.
create or replace function public.record_admin_action(
  p_action text,
  p_target_type text,
  p_target_id text default null,
  p_before jsonb default null,
  p_after jsonb default null,
  p_actor_id uuid default null
) returns bigint
language plpgsql
security definer
set search_path = ''
as $$
declare
  v_id bigint;
begin
  if not public.is_admin() and coalesce(auth.role(), '') <> 'service_role' then
    raise exception 'only admins record admin actions' using errcode = '42501';
  end if;
  insert into public.admin_audit_log (actor_id, action, target_type, target_id, before, after)
  -- Only the service role (server code acting for a verified admin) may name the actor; anyone else is the actor.
  values (case when auth.role() = 'service_role' then coalesce(p_actor_id, auth.uid()) else auth.uid() end, p_action, p_target_type, p_target_id, p_before, p_after)
  returning id into v_id;
  return v_id;
end
$$;
revoke all on function public.record_admin_action(text, text, text, jsonb, jsonb, uuid) from public;
grant execute on function public.record_admin_action(text, text, text, jsonb, jsonb, uuid) to authenticated, service_role;
