-- `npm run seed -- --reset` empties public.judgments with TRUNCATE, which fires no row trigger, so
-- search_judgment_deletions never hears of the old rows, and the new corpus keeps its generated (past) updated_at, so
-- an incremental sync past the old watermark does not see it either. Every TRUNCATE of judgments is logged here; a
-- search index built before the latest one is rebuilt at start (ensureSearchIndex, lib/search/sync.ts).
-- Written by the trigger and read by the server-side sync job only: no grants to anon or authenticated.

create table if not exists public.search_judgment_truncations (
  truncated_at timestamptz not null default now()
);

create index if not exists search_judgment_truncations_at_idx on public.search_judgment_truncations (truncated_at);

alter table public.search_judgment_truncations enable row level security;
revoke all on table public.search_judgment_truncations from public, anon, authenticated;
grant select, insert, delete on table public.search_judgment_truncations to service_role;

-- SECURITY DEFINER: whoever may truncate judgments must be able to log it, without rights on the log itself.
create or replace function public.log_judgment_truncation()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.search_judgment_truncations default values;
  return null;
end
$$;

revoke execute on function public.log_judgment_truncation() from public, anon, authenticated;

drop trigger if exists judgments_log_truncation on public.judgments;
create trigger judgments_log_truncation
  after truncate on public.judgments
  for each statement execute function public.log_judgment_truncation();
