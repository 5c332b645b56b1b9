-- Import runs: one row per run of the importers (npm run import / ingest, and uploads from /admin/imports), written by
-- the importer's entry point (lib/import/runs.ts) as the database owner, read by admins only (docs/admin.md, Imports).
-- An upload's row is created queued by the admin's own request (RLS: admins only) before the worker runs it; the
-- counts move as the run proceeds, so the page can show progress.

create table if not exists public.import_runs (
  id uuid primary key default gen_random_uuid(),
  source text not null check (source in ('saos', 'fcl', 'juddges', 'jsonl')),
  origin text not null check (origin in ('cli', 'upload')),
  status text not null default 'running' check (status in ('queued', 'running', 'succeeded', 'failed')),
  -- The inputs as given (CLI: paths or globs; upload: the file's name as the browser sent it).
  inputs text[] not null default '{}' check (cardinality(inputs) <= 1000),
  dry_run boolean not null default false,
  bytes_total bigint not null default 0 check (bytes_total >= 0),
  bytes_read bigint not null default 0 check (bytes_read >= 0),
  files integer not null default 0,
  read integer not null default 0,
  valid integer not null default 0,
  inserted integer not null default 0,
  updated integer not null default 0,
  skipped integer not null default 0,
  rejected integer not null default 0,
  warnings integer not null default 0,
  -- The summary's listed rejections ({file, record?, line?, id?, at?, reason}), at most 1,000 (lib/import/run.ts).
  rejections jsonb not null default '[]'::jsonb check (jsonb_typeof(rejections) = 'array'),
  licence text,
  notice text,
  sync jsonb,
  error text check (char_length(error) <= 4000),
  created_by uuid default auth.uid() references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  started_at timestamptz,
  finished_at timestamptz,
  updated_at timestamptz not null default now()
);
comment on table public.import_runs is 'Every importer run (CLI and admin upload): counts, rejected records, status. Admins read it.';
create index if not exists import_runs_created_idx on public.import_runs (created_at desc, id desc);

alter table public.import_runs enable row level security;
revoke all on table public.import_runs from public, anon, authenticated;
grant select, insert on table public.import_runs to authenticated;
grant all on table public.import_runs to service_role;

drop policy if exists import_runs_admin_read on public.import_runs;
create policy import_runs_admin_read on public.import_runs
  for select to authenticated
  using ((select public.is_admin()));
drop policy if exists import_runs_admin_queue on public.import_runs;
create policy import_runs_admin_queue on public.import_runs
  for insert to authenticated
  with check ((select public.is_admin()) and status = 'queued' and origin = 'upload' and created_by = (select auth.uid()));

-- The e-mail of whoever queued an upload, for admins only. SECURITY DEFINER: auth.users is not readable by the
-- authenticated role; the function answers null to anyone but an admin (or the service role).
create or replace function public.import_run_creator_email(p_user_id uuid)
returns text
language sql stable
security definer
set search_path = ''
as $$
  select u.email::text from auth.users u
   where u.id = p_user_id and (public.is_admin() or coalesce(auth.role(), '') = 'service_role')
$$;
revoke all on function public.import_run_creator_email(uuid) from public;
grant execute on function public.import_run_creator_email(uuid) to authenticated, service_role;

-- The row of a run as the panel shows it; rejections only when asked (the list can hold 1,000 entries).
create or replace function public.import_run_json(r public.import_runs, p_with_rejections boolean)
returns jsonb
language sql stable
security invoker
set search_path = ''
as $$
  select pg_catalog.jsonb_build_object(
    'id', r.id, 'source', r.source, 'origin', r.origin, 'status', r.status, 'inputs', pg_catalog.to_jsonb(r.inputs),
    'dry_run', r.dry_run, 'bytes_total', r.bytes_total, 'bytes_read', r.bytes_read, 'files', r.files, 'read', r.read,
    'valid', r.valid, 'inserted', r.inserted, 'updated', r.updated, 'skipped', r.skipped, 'rejected', r.rejected,
    'warnings', r.warnings, 'licence', r.licence, 'notice', r.notice, 'sync', r.sync, 'error', r.error,
    'created_by_email', public.import_run_creator_email(r.created_by),
    'created_at', r.created_at, 'started_at', r.started_at, 'finished_at', r.finished_at, 'updated_at', r.updated_at)
    || case when p_with_rejections then pg_catalog.jsonb_build_object('rejections', r.rejections) else '{}'::jsonb end
$$;
revoke all on function public.import_run_json(public.import_runs, boolean) from public;
grant execute on function public.import_run_json(public.import_runs, boolean) to authenticated, service_role;

-- Runs newest first, one page: {items, total, page, per_page, pages}. RLS limits the rows to admins' eyes.
create or replace function public.admin_import_runs(p_page integer default 1, p_per_page integer default 20)
returns jsonb
language sql stable
security invoker
set search_path = ''
as $$
  with args as (select greatest(1, coalesce(p_page, 1)) as page, greatest(1, least(coalesce(p_per_page, 20), 100)) as per_page),
  total as (select count(*)::integer as n from public.import_runs)
  select pg_catalog.jsonb_build_object(
    'items', coalesce((select pg_catalog.jsonb_agg(public.import_run_json(x, false) order by x.created_at desc, x.id desc)
                         from (select * from public.import_runs r order by r.created_at desc, r.id desc
                               limit (select per_page from args) offset ((select page from args) - 1) * (select per_page from args)) x), '[]'::jsonb),
    'total', (select n from total),
    'page', (select page from args),
    'per_page', (select per_page from args),
    'pages', greatest(1, ceil((select n from total)::numeric / (select per_page from args))::integer))
$$;
revoke all on function public.admin_import_runs(integer, integer) from public;
grant execute on function public.admin_import_runs(integer, integer) to authenticated, service_role;

-- One run with its rejected records; null when there is no such run (or the caller may not see it).
create or replace function public.admin_import_run(p_id uuid)
returns jsonb
language sql stable
security invoker
set search_path = ''
as $$
  select public.import_run_json(r, true) from public.import_runs r where r.id = p_id
$$;
revoke all on function public.admin_import_run(uuid) from public;
grant execute on function public.admin_import_run(uuid) to authenticated, service_role;

-- Queue an uploaded file's run as the calling admin (the insert policy above checks the role); answers the row.
create or replace function public.queue_import_upload(p_source text, p_file_name text, p_bytes bigint)
returns jsonb
language plpgsql volatile
security invoker
set search_path = ''
as $$
declare
  v_row public.import_runs;
begin
  insert into public.import_runs (source, origin, status, inputs, bytes_total, created_by)
  values (p_source, 'upload', 'queued', array[p_file_name], p_bytes, auth.uid())
  returning * into v_row;
  return public.import_run_json(v_row, false);
end
$$;
revoke all on function public.queue_import_upload(text, text, bigint) from public;
grant execute on function public.queue_import_upload(text, text, bigint) to authenticated, service_role;
