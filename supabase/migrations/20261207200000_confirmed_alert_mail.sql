-- Alert mail only to confirmed addresses, and each digest mailed at most once per digest (docs/accounts.md).
--
-- 1. auth.users' pending e-mail change columns (GoTrue's): a real Supabase project has them, the local bootstrap did
--    not. Added only when missing, so nothing here alters Supabase's own table.
do $$
begin
  if not exists (select 1 from information_schema.columns where table_schema = 'auth' and table_name = 'users' and column_name = 'email_change') then
    alter table auth.users add column email_change varchar(255) default '';
  end if;
  if not exists (select 1 from information_schema.columns where table_schema = 'auth' and table_name = 'users' and column_name = 'email_change_token_new') then
    alter table auth.users add column email_change_token_new varchar(255) default '';
  end if;
  if not exists (select 1 from information_schema.columns where table_schema = 'auth' and table_name = 'users' and column_name = 'email_change_sent_at') then
    alter table auth.users add column email_change_sent_at timestamptz;
  end if;
end
$$;

-- 2. Whether a user's address may receive alert mail: confirmed, and no change to another address pending.
-- SECURITY DEFINER: the trigger below runs as the caller (authenticated), who may not read auth.users; the function
-- answers one boolean about one user and nothing else.
create or replace function public.alert_address_confirmed(p_user_id uuid)
  returns boolean
  language sql stable security definer
  set search_path = ''
  as $$
  select exists (
    select 1 from auth.users u
     where u.id = p_user_id and u.email is not null and u.email_confirmed_at is not null
       and coalesce(u.email_change, '') = ''
  )
$$;
revoke execute on function public.alert_address_confirmed(uuid) from public, anon, authenticated;
grant execute on function public.alert_address_confirmed(uuid) to service_role;

-- An alert is switched on only for a confirmed address, whichever way the row is written (the app's RPCs or a direct
-- call): SA001 → 409 ALERT_EMAIL_UNCONFIRMED (lib/errors/upstream.ts). Alerts already on stay on; the digest skips
-- unconfirmed addresses anyway.
-- SECURITY DEFINER so that it may call alert_address_confirmed, which the caller may not.
create or replace function public.saved_searches_alert_needs_confirmed_email()
  returns trigger
  language plpgsql security definer
  set search_path = ''
  as $$
begin
  if new.alert_enabled and (tg_op = 'INSERT' or not old.alert_enabled) and not public.alert_address_confirmed(new.user_id) then
    raise exception 'Confirm your e-mail address before turning on alerts.' using errcode = 'SA001';
  end if;
  return new;
end
$$;
revoke execute on function public.saved_searches_alert_needs_confirmed_email() from public, anon, authenticated;
create trigger saved_searches_alert_needs_confirmed_email
  before insert or update of alert_enabled on public.saved_searches
  for each row execute function public.saved_searches_alert_needs_confirmed_email();

-- 3. One row per digest mail, written BEFORE it is sent: who, which alerts, which period, and the mail itself. The
-- SMTP Message-ID is derived from the id, so a digest sent again after an ambiguous failure (the server stored it but
-- the answer was lost) is the same message with the same Message-ID, which receivers drop as a duplicate.
-- status: pending (recorded, not yet acknowledged), sent, failed (after the retries; sent again by the next run),
-- dropped (nothing of it is left to send: its saved searches were deleted).
create table public.alert_digests (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  saved_search_ids uuid[] not null,
  period_start timestamptz not null,
  period_end timestamptz not null,
  message_id text not null constraint alert_digests_message_id_key unique,
  message jsonb not null,
  status text not null default 'pending' constraint alert_digests_status check (status in ('pending', 'sent', 'failed', 'dropped')),
  attempts integer not null default 0,
  error text constraint alert_digests_error_length check (char_length(error) <= 2000),
  created_at timestamptz not null default now(),
  sent_at timestamptz
);
comment on table public.alert_digests is 'Digest mails, recorded before sending (stable Message-ID); only the digest job writes.';
create index alert_digests_unsettled_idx on public.alert_digests (user_id, created_at) where status in ('pending', 'failed');
alter table public.alert_digests enable row level security;
revoke all on table public.alert_digests from public, anon, authenticated;
grant select, insert, update, delete on table public.alert_digests to service_role;

alter table public.alert_deliveries add column digest_id uuid references public.alert_digests (id) on delete set null;
create index alert_deliveries_digest_idx on public.alert_deliveries (digest_id) where digest_id is not null;

-- 4. The local mail catcher keeps each message's Message-ID and stores a message it already holds only once, as a
-- mailbox that drops duplicates does.
alter table public.mail_messages add column message_id text;
create unique index mail_messages_message_id_key on public.mail_messages (message_id) where message_id is not null;
