-- Search index sync bookkeeping (spec: Limits "Index refresh: full sync every 6 hours"). The search engine is
-- a derived index rebuilt from Postgres; these tables record each sync run (for health) and the judgments deleted
-- since, so an incremental sync can remove them from the index. Written by the server-side sync job (owner / service
-- role) only: no grants to anon or authenticated.

create table if not exists public.search_sync_runs (
  id bigint generated always as identity primary key,
  kind text not null check (kind in ('full', 'incremental')),
  engine text not null check (engine ~ '^[a-z]{1,32}$'),
  started_at timestamptz not null default now(),
  completed_at timestamptz,
  error text check (char_length(error) <= 2000),
  documents integer not null default 0 check (documents >= 0),
  chunks integer not null default 0 check (chunks >= 0),
  deleted integer not null default 0 check (deleted >= 0),
  -- Highest judgments.updated_at and search_judgment_deletions.deleted_at covered by this run (incremental watermarks).
  updated_watermark timestamptz,
  deleted_watermark timestamptz
);

create index if not exists search_sync_runs_started_idx on public.search_sync_runs (started_at desc);

alter table public.search_sync_runs enable row level security;
revoke all on table public.search_sync_runs from public, anon, authenticated;
grant select, insert, update on table public.search_sync_runs to service_role;

create table if not exists public.search_judgment_deletions (
  judgment_id uuid not null,
  deleted_at timestamptz not null default now()
);

create index if not exists search_judgment_deletions_deleted_idx on public.search_judgment_deletions (deleted_at);

alter table public.search_judgment_deletions enable row level security;
revoke all on table public.search_judgment_deletions from public, anon, authenticated;
grant select, insert, delete on table public.search_judgment_deletions to service_role;

-- SECURITY DEFINER: whoever may delete a judgment must be able to log the deletion for the index, although they
-- have no rights on the log table itself. It only inserts the deleted row's id.
create or replace function public.log_judgment_deletion()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.search_judgment_deletions (judgment_id) values (old.id);
  return old;
end
$$;

revoke execute on function public.log_judgment_deletion() from public, anon, authenticated;

drop trigger if exists judgments_log_deletion on public.judgments;
create trigger judgments_log_deletion
  after delete on public.judgments
  for each row execute function public.log_judgment_deletion();

