-- Extraction honesty: a job that finishes without a single filled value is `completed_empty`, not `completed`, with the
-- reason in `status_reason` (which fields rules found nothing for, which need a model); the per-field counts of the
-- job page come from extraction_job_field_counts. Fields rules mode cannot fill are declared by the app before a job
-- runs (lib/extraction/fillability.ts) and are not stored: they follow from the job's field snapshot and mode.

alter table public.extraction_jobs drop constraint extraction_jobs_status;
alter table public.extraction_jobs add constraint extraction_jobs_status
  check (status in ('queued', 'running', 'completed', 'completed_empty', 'completed_with_errors', 'failed', 'cancelled'));
alter table public.extraction_jobs add column status_reason text
  constraint extraction_jobs_status_reason_length check (char_length(status_reason) <= 4000);
comment on column public.extraction_jobs.status_reason is 'Why a job finished as it did (completed_empty: the fields found empty and those that need a model).';

-- As in 20261126120000_extraction_jobs.sql, with the reason.
create or replace function public.extraction_job_json(p_job public.extraction_jobs)
  returns jsonb
  language sql stable security invoker
  set search_path = ''
  as $$
  select jsonb_build_object(
    'job_id', p_job.id,
    'status', p_job.status,
    'mode', p_job.mode,
    'schema', jsonb_build_object('id', coalesce(p_job.schema_id::text, case when p_job.schema_key = 'base' then 'base' end),
                                 'key', p_job.schema_key, 'name', p_job.schema_name, 'version', p_job.schema_version),
    'progress', jsonb_build_object(
      'total', p_job.total,
      'done', (select count(*) from public.extraction_job_documents d where d.job_id = p_job.id and d.status in ('completed', 'failed', 'skipped')),
      'failed', (select count(*) from public.extraction_job_documents d where d.job_id = p_job.id and d.status = 'failed'),
      'skipped', (select count(*) from public.extraction_job_documents d where d.job_id = p_job.id and d.status = 'skipped')),
    'cancel_requested', p_job.cancel_requested,
    'writes_judgments', p_job.writes_judgments,
    'created_at', p_job.created_at,
    'started_at', p_job.started_at,
    'finished_at', p_job.finished_at,
    'error', p_job.error,
    'reason', p_job.status_reason)
$$;

-- Per field of a job: in how many completed documents it holds a value (not null, not "", not []). RLS-bound: another
-- user's job counts nothing. {completed: n, filled: {field: n}}.
create or replace function public.extraction_job_field_counts(p_job_id uuid)
  returns jsonb
  language sql stable security invoker
  set search_path = ''
  as $$
  select jsonb_build_object(
    'completed', (select count(*) from public.extraction_job_documents d where d.job_id = p_job_id and d.status = 'completed'),
    'filled', coalesce((
      select jsonb_object_agg(k, n) from (
        select e.key as k, count(*) as n
          from public.extraction_job_documents d, jsonb_each(d.values) e
         where d.job_id = p_job_id and d.status = 'completed' and jsonb_typeof(d.values) = 'object'
           and e.value not in ('null'::jsonb, '""'::jsonb, '[]'::jsonb)
         group by e.key) c), '{}'::jsonb))
$$;
revoke all on function public.extraction_job_field_counts(uuid) from public, anon;
grant execute on function public.extraction_job_field_counts(uuid) to authenticated, service_role;
