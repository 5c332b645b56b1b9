-- Accounts: per-user settings (display name, interface language, pause all alerts), the
-- record of every digest line sent (alert_deliveries: the idempotency of the digest job), and the local mail catcher's
-- inbox (mail_messages: every message the local SMTP server received, readable only by admins).

create table public.user_settings (
  user_id uuid primary key default auth.uid() references auth.users (id) on delete cascade,
  display_name text constraint user_settings_display_name_length check (char_length(display_name) <= 100),
  language text not null default 'en' constraint user_settings_language check (language in ('en', 'pl')),
  alerts_paused boolean not null default false,
  updated_at timestamptz not null default now()
);
comment on table public.user_settings is 'One row per user who changed a setting (RLS: owner only); no row means the defaults.';
alter table public.user_settings enable row level security;
create policy user_settings_owner on public.user_settings
  for all to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()));
revoke all on table public.user_settings from public, anon;
grant select, insert, update on table public.user_settings to authenticated, service_role;

create type public.user_settings_row as (display_name text, language text, alerts_paused boolean);

create or replace function public.get_my_settings()
  returns public.user_settings_row
  language sql stable security invoker
  set search_path = ''
  as $$
  select coalesce((select row(s.display_name, s.language, s.alerts_paused)::public.user_settings_row
                     from public.user_settings s where s.user_id = auth.uid()),
                  row(null, 'en', false)::public.user_settings_row)
$$;

-- p_patch: display_name (string ≤ 100 or null), language (en|pl), alerts_paused (boolean); validated by the app.
create or replace function public.update_my_settings(p_patch jsonb)
  returns public.user_settings_row
  language plpgsql volatile security invoker
  set search_path = ''
  as $$
begin
  if auth.uid() is null then
    raise exception 'a signed-in user is required' using errcode = '42501';
  end if;
  if p_patch is null or jsonb_typeof(p_patch) <> 'object' then
    raise exception 'patch must be a JSON object' using errcode = '22023', detail = 'patch';
  end if;
  insert into public.user_settings as s (user_id, display_name, language, alerts_paused)
  values (auth.uid(), nullif(btrim(p_patch ->> 'display_name'), ''), coalesce(p_patch ->> 'language', 'en'),
          coalesce((p_patch ->> 'alerts_paused')::boolean, false))
  on conflict (user_id) do update
     set display_name = case when p_patch ? 'display_name' then nullif(btrim(p_patch ->> 'display_name'), '') else s.display_name end,
         language = case when p_patch ? 'language' then p_patch ->> 'language' else s.language end,
         alerts_paused = case when p_patch ? 'alerts_paused' then (p_patch ->> 'alerts_paused')::boolean else s.alerts_paused end,
         updated_at = now();
  return public.get_my_settings();
end
$$;
grant execute on function public.get_my_settings(), public.update_my_settings(jsonb) to authenticated, service_role;

-- One row per (saved search, judgment) the digest listed: the unique key is what makes a crashed and restarted run
-- never send a judgment twice. status: pending (claimed by a run, mail not yet accepted), sent, failed (after the
-- retries; error holds the SMTP answer). Owners may read their own rows; only the digest job (service role) writes.
create table public.alert_deliveries (
  id bigint generated always as identity primary key,
  saved_search_id uuid not null references public.saved_searches (id) on delete cascade,
  judgment_id uuid not null references public.judgments (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  run_id uuid not null,
  status text not null default 'pending' constraint alert_deliveries_status check (status in ('pending', 'sent', 'failed')),
  attempts integer not null default 0,
  error text constraint alert_deliveries_error_length check (char_length(error) <= 2000),
  created_at timestamptz not null default now(),
  sent_at timestamptz,
  constraint alert_deliveries_once unique (saved_search_id, judgment_id)
);
comment on table public.alert_deliveries is 'Digest lines: each (saved search, judgment) at most once (RLS: owners read their own).';
create index alert_deliveries_user_idx on public.alert_deliveries (user_id, created_at desc);
create index alert_deliveries_run_idx on public.alert_deliveries (run_id);
alter table public.alert_deliveries enable row level security;
create policy alert_deliveries_owner_read on public.alert_deliveries
  for select to authenticated
  using (user_id = (select auth.uid()));
revoke all on table public.alert_deliveries from public, anon, authenticated;
grant select on table public.alert_deliveries to authenticated;
grant select, insert, update, delete on table public.alert_deliveries to service_role;

-- The local SMTP server's inbox (server/mail-catcher.ts). Only a real Supabase project without that server has it
-- empty; admins read it at /admin/mail.
create table public.mail_messages (
  id bigint generated always as identity primary key,
  received_at timestamptz not null default now(),
  mail_from text,
  rcpt_to text[] not null default '{}',
  subject text,
  text_body text,
  html_body text,
  size_bytes integer not null default 0
);
comment on table public.mail_messages is 'Every message the local SMTP server received (RLS: admins read; the server inserts).';
create index mail_messages_received_idx on public.mail_messages (received_at desc, id desc);
alter table public.mail_messages enable row level security;
create policy mail_messages_admin_read on public.mail_messages
  for select to authenticated
  using ((select public.is_admin()));
revoke all on table public.mail_messages from public, anon, authenticated;
grant select on table public.mail_messages to authenticated;
grant select, insert, delete on table public.mail_messages to service_role;

create or replace function public.list_mail_messages(p_limit integer default 20, p_offset integer default 0)
  returns table (id bigint, received_at timestamptz, mail_from text, rcpt_to text[], subject text, text_body text,
                 html_body text, size_bytes integer, total_count bigint)
  language sql stable security invoker
  set search_path = ''
  as $$
  select m.id, m.received_at, m.mail_from, m.rcpt_to, m.subject, m.text_body, m.html_body, m.size_bytes, count(*) over ()
  from public.mail_messages m
  order by m.received_at desc, m.id desc
  limit least(greatest(coalesce(p_limit, 20), 1), 100)
  offset greatest(coalesce(p_offset, 0), 0)
$$;
grant execute on function public.list_mail_messages(integer, integer) to authenticated, service_role;

-- Spec (events): deleting an account keeps its searches as anonymous rows.
alter table public.search_analytics drop constraint if exists search_analytics_user_id_fkey;
alter table public.search_analytics
  add constraint search_analytics_user_id_fkey foreign key (user_id) references auth.users (id) on delete set null;
