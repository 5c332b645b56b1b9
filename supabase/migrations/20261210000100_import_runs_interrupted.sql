-- An import run whose process died (killed, crashed, machine restarted) stayed "running" for ever. The importer's
-- entry point (lib/import/runs.ts) now touches `updated_at` every 30 s while it runs; a running row not touched for
-- 2 minutes is shown as "interrupted" (public.import_run_status, the one rule), and the next run of any importer
-- records it so (public.close_interrupted_import_runs). Re-running the same inputs resumes the work: the upsert is
-- idempotent (docs/ingestion.md).

alter table public.import_runs drop constraint if exists import_runs_status_check;
alter table public.import_runs
  add constraint import_runs_status_check check (status in ('queued', 'running', 'succeeded', 'failed', 'interrupted'));

create or replace function public.import_run_status(r public.import_runs)
returns text
language sql stable
set search_path = ''
as $$
  select case when r.status = 'running' and r.updated_at < pg_catalog.now() - interval '2 minutes' then 'interrupted'
              else r.status end
$$;
revoke all on function public.import_run_status(public.import_runs) from public;
grant execute on function public.import_run_status(public.import_runs) to authenticated, service_role;

-- Runs the rule above writes down: called by the importer as the database owner when it opens a run.
create or replace function public.close_interrupted_import_runs()
returns integer
language sql volatile
set search_path = ''
as $$
  with closed as (
    update public.import_runs r
       set status = 'interrupted', finished_at = r.updated_at,
           error = coalesce(r.error, 'The importing process stopped before the run finished (no sign of life for 2 minutes); running the same import again resumes it.')
     where public.import_run_status(r) = 'interrupted' and r.status = 'running'
    returning 1)
  select count(*)::integer from closed
$$;
revoke all on function public.close_interrupted_import_runs() from public, anon, authenticated;
grant execute on function public.close_interrupted_import_runs() to service_role;

create or replace function public.import_run_json(r public.import_runs, p_with_rejections boolean)
returns jsonb
language sql stable
security invoker
set search_path = ''
as $$
  select pg_catalog.jsonb_build_object(
    'id', r.id, 'source', r.source, 'origin', r.origin, 'status', public.import_run_status(r), 'inputs', pg_catalog.to_jsonb(r.inputs),
    'dry_run', r.dry_run, 'bytes_total', r.bytes_total, 'bytes_read', r.bytes_read, 'files', r.files, 'read', r.read,
    'valid', r.valid, 'inserted', r.inserted, 'updated', r.updated, 'skipped', r.skipped, 'rejected', r.rejected,
    'warnings', r.warnings, 'licence', r.licence, 'notice', r.notice, 'sync', r.sync, 'error', r.error,
    'created_by_email', public.import_run_creator_email(r.created_by),
    'created_at', r.created_at, 'started_at', r.started_at, 'finished_at', r.finished_at, 'updated_at', r.updated_at)
    || case when p_with_rejections then pg_catalog.jsonb_build_object('rejections', r.rejections) else '{}'::jsonb end
$$;
