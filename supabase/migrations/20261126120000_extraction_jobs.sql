-- Extraction jobs: one row per job and one per (job, document). The queue itself is pg-boss in
-- its own schema (`pgboss`, created by the worker); these tables hold what the user sees and what makes a restarted
-- worker safe: a document's result is an upsert keyed by (job_id, document_id), and a worker only takes documents whose
-- status is still `pending`, so no document is processed twice.
-- Users read their own rows (RLS, SECURITY INVOKER readers); every change goes through the SECURITY DEFINER functions
-- below, which check ownership themselves (the table grants give `authenticated` SELECT only). The worker connects
-- with DATABASE_URL and writes directly.

create table public.extraction_jobs (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  -- null schema_id with schema_key 'base' = the built-in base schema.
  schema_id uuid references public.extraction_schemas (id) on delete set null,
  schema_key text not null,
  schema_version integer,
  schema_name text not null,
  -- Snapshot of the fields at submission: editing the schema later does not change a job under way.
  fields jsonb,
  mode text not null constraint extraction_jobs_mode check (mode in ('rules', 'model')),
  status text not null default 'queued'
    constraint extraction_jobs_status check (status in ('queued', 'running', 'completed', 'completed_with_errors', 'failed', 'cancelled')),
  cancel_requested boolean not null default false,
  idempotency_key text constraint extraction_jobs_idempotency_key_length check (char_length(idempotency_key) between 1 and 200),
  total integer not null constraint extraction_jobs_total check (total between 0 and 100000),
  error text,
  -- Whether the worker also writes each result into the shared judgments row (base_ columns through the promotion
  -- module). Only an admin's base-schema job sets it (create_extraction_job under an admin token, or the backfill); a
  -- user's base job keeps its values in extraction_job_documents like any job, so no user can overwrite shared data.
  -- Users cannot set it (they have SELECT only), and the worker also re-checks that the owner is still an admin.
  writes_judgments boolean not null default false
    constraint extraction_jobs_writes_judgments_base check (not writes_judgments or schema_key = 'base'),
  -- The pg-boss queue its messages go to (one per deployment; tests use their own so the stack's worker keeps out).
  queue text not null default 'extraction-job',
  worker_id text,
  heartbeat_at timestamptz,
  created_at timestamptz not null default now(),
  started_at timestamptz,
  finished_at timestamptz
);
comment on table public.extraction_jobs is 'Extraction jobs owned by one user (RLS: owner reads; changes through functions). States in docs/extraction.md.';
create index extraction_jobs_user_created_idx on public.extraction_jobs (user_id, created_at desc);
create index extraction_jobs_user_idem_idx on public.extraction_jobs (user_id, idempotency_key, created_at desc) where idempotency_key is not null;
create index extraction_jobs_active_idx on public.extraction_jobs (status) where status in ('queued', 'running');

create table public.extraction_job_documents (
  job_id uuid not null references public.extraction_jobs (id) on delete cascade,
  document_id uuid not null references public.judgments (id) on delete cascade,
  position integer not null,
  status text not null default 'pending'
    constraint extraction_job_documents_status check (status in ('pending', 'completed', 'failed', 'skipped')),
  "values" jsonb,
  error text,
  model text,
  -- How many times an extractor ran on this document in this job (a retry of a failure adds one; nothing else may).
  attempts integer not null default 0,
  finished_at timestamptz,
  primary key (job_id, document_id)
);
comment on table public.extraction_job_documents is 'Per-document results of an extraction job, upserted by (job_id, document_id).';
create index extraction_job_documents_job_status_idx on public.extraction_job_documents (job_id, status, position);

-- Worker processes and their heartbeats (the health entry task_queue reports the newest).
create table public.extraction_workers (
  worker_id text primary key,
  host text,
  pid integer,
  started_at timestamptz not null default now(),
  beat_at timestamptz not null default now()
);

alter table public.extraction_jobs enable row level security;
alter table public.extraction_job_documents enable row level security;
alter table public.extraction_workers enable row level security;

create policy extraction_jobs_owner_select on public.extraction_jobs
  for select to authenticated
  using (user_id = (select auth.uid()));

create policy extraction_job_documents_owner_select on public.extraction_job_documents
  for select to authenticated
  using (exists (select 1 from public.extraction_jobs j where j.id = job_id and j.user_id = (select auth.uid())));

revoke all on table public.extraction_jobs, public.extraction_job_documents, public.extraction_workers from public, anon, authenticated;
grant select on table public.extraction_jobs, public.extraction_job_documents to authenticated;
grant select, insert, update, delete on table public.extraction_jobs, public.extraction_job_documents, public.extraction_workers to service_role;

-- A job as the API answers it: progress counted from the document rows.
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
    'error', p_job.error)
$$;

-- POST /api/extractions. Answers {outcome: created | existing | limit | schema_not_found | collection_not_found |
-- documents_not_found | empty | too_many, job?}. p_base (name, fields) comes from the caller only for 'base'. A base job
-- writes the shared judgments rows only when the caller's verified token is an admin's (public.is_admin()); anyone
-- else's base job keeps its results in the job.
create or replace function public.create_extraction_job(
  p_schema_id uuid, p_base jsonb, p_document_ids uuid[], p_collection_id uuid, p_idempotency_key text, p_mode text,
  p_max_running integer, p_max_documents integer)
  returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_uid uuid := auth.uid();
  v_job public.extraction_jobs;
  v_schema public.extraction_schemas;
  v_ids uuid[];
  v_known integer;
begin
  if v_uid is null then
    raise exception 'a signed-in user is required' using errcode = '42501';
  end if;
  -- One submission at a time per user: the idempotency lookup and the running-jobs count cannot race.
  perform pg_advisory_xact_lock(hashtextextended('extraction_jobs:' || v_uid::text, 0));
  if p_idempotency_key is not null then
    select * into v_job from public.extraction_jobs j
     where j.user_id = v_uid and j.idempotency_key = p_idempotency_key and j.created_at > now() - interval '24 hours'
     order by j.created_at limit 1;
    if found then
      return jsonb_build_object('outcome', 'existing', 'job', public.extraction_job_json(v_job));
    end if;
  end if;
  if (select count(*) from public.extraction_jobs j where j.user_id = v_uid and j.status in ('queued', 'running')) >= p_max_running then
    return jsonb_build_object('outcome', 'limit');
  end if;
  if p_schema_id is not null then
    select * into v_schema from public.extraction_schemas s where s.id = p_schema_id and s.user_id = v_uid;
    if not found then
      return jsonb_build_object('outcome', 'schema_not_found');
    end if;
  end if;
  if p_collection_id is not null then
    if not exists (select 1 from public.collections c where c.id = p_collection_id and c.user_id = v_uid) then
      return jsonb_build_object('outcome', 'collection_not_found');
    end if;
    select coalesce(array_agg(cd.judgment_id order by cd.added_at, cd.judgment_id), '{}') into v_ids
      from public.collection_documents cd where cd.collection_id = p_collection_id;
  else
    select coalesce(array_agg(distinct x), '{}') into v_ids from unnest(coalesce(p_document_ids, '{}')) x;
    select count(*) into v_known from public.judgments jd where jd.id = any (v_ids);
    if v_known < cardinality(v_ids) then
      return jsonb_build_object('outcome', 'documents_not_found', 'missing', cardinality(v_ids) - v_known);
    end if;
  end if;
  if cardinality(v_ids) = 0 then
    return jsonb_build_object('outcome', 'empty');
  end if;
  if cardinality(v_ids) > p_max_documents then
    return jsonb_build_object('outcome', 'too_many', 'count', cardinality(v_ids));
  end if;
  insert into public.extraction_jobs (user_id, schema_id, schema_key, schema_version, schema_name, fields, mode, idempotency_key, total,
                                     writes_judgments)
  values (v_uid, v_schema.id, coalesce(v_schema.id::text, 'base'), coalesce(v_schema.version, (p_base ->> 'version_number')::integer),
          coalesce(v_schema.name, p_base ->> 'name', 'base'), coalesce(v_schema.fields, p_base -> 'fields'), p_mode, p_idempotency_key,
          cardinality(v_ids), v_schema.id is null and public.is_admin())
  returning * into v_job;
  insert into public.extraction_job_documents (job_id, document_id, position)
  select v_job.id, x.id, x.ord::integer from unnest(v_ids) with ordinality as x(id, ord);
  return jsonb_build_object('outcome', 'created', 'job', public.extraction_job_json(v_job));
end
$$;

create or replace function public.get_extraction_job(p_job_id uuid)
  returns jsonb
  language sql stable security invoker
  set search_path = ''
  as $$
  select public.extraction_job_json(j) from public.extraction_jobs j where j.id = p_job_id
$$;

create or replace function public.list_extraction_jobs(p_status text default null, p_limit integer default 20, p_offset integer default 0)
  returns jsonb
  language sql stable security invoker
  set search_path = ''
  as $$
  select jsonb_build_object(
    'jobs', coalesce((select jsonb_agg(public.extraction_job_json(j) order by j.created_at desc, j.id)
                      from (select * from public.extraction_jobs j where p_status is null or j.status = p_status
                            order by j.created_at desc, j.id
                            limit least(greatest(coalesce(p_limit, 20), 1), 100) offset greatest(coalesce(p_offset, 0), 0)) j), '[]'),
    'total', (select count(*) from public.extraction_jobs j where p_status is null or j.status = p_status))
$$;

-- Cancel is cooperative: a queued job is cancelled at once; a running one is flagged and its worker skips the rest.
create or replace function public.cancel_extraction_job(p_job_id uuid)
  returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_job public.extraction_jobs;
begin
  select * into v_job from public.extraction_jobs j where j.id = p_job_id and j.user_id = auth.uid() for update;
  if not found then
    return jsonb_build_object('outcome', 'not_found');
  end if;
  if v_job.status = 'queued' then
    update public.extraction_job_documents d set status = 'skipped', finished_at = now() where d.job_id = p_job_id and d.status = 'pending';
    update public.extraction_jobs j set status = 'cancelled', cancel_requested = true, finished_at = now() where j.id = p_job_id returning * into v_job;
  elsif v_job.status = 'running' then
    update public.extraction_jobs j set cancel_requested = true where j.id = p_job_id returning * into v_job;
  else
    return jsonb_build_object('outcome', 'finished', 'job', public.extraction_job_json(v_job));
  end if;
  return jsonb_build_object('outcome', 'ok', 'job', public.extraction_job_json(v_job));
end
$$;

-- Retry re-runs only the failed documents of a finished job (completed_with_errors, failed, or cancelled with failures).
create or replace function public.retry_extraction_job(p_job_id uuid, p_max_running integer)
  returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_job public.extraction_jobs;
  v_uid uuid := auth.uid();
begin
  perform pg_advisory_xact_lock(hashtextextended('extraction_jobs:' || coalesce(v_uid::text, ''), 0));
  select * into v_job from public.extraction_jobs j where j.id = p_job_id and j.user_id = v_uid for update;
  if not found then
    return jsonb_build_object('outcome', 'not_found');
  end if;
  if v_job.status in ('queued', 'running') then
    return jsonb_build_object('outcome', 'not_finished', 'job', public.extraction_job_json(v_job));
  end if;
  if not exists (select 1 from public.extraction_job_documents d where d.job_id = p_job_id and d.status = 'failed') then
    return jsonb_build_object('outcome', 'nothing_failed', 'job', public.extraction_job_json(v_job));
  end if;
  if (select count(*) from public.extraction_jobs j where j.user_id = v_uid and j.status in ('queued', 'running')) >= p_max_running then
    return jsonb_build_object('outcome', 'limit');
  end if;
  update public.extraction_job_documents d set status = 'pending', error = null, finished_at = null
   where d.job_id = p_job_id and d.status = 'failed';
  update public.extraction_jobs j
     set status = 'queued', cancel_requested = false, error = null, finished_at = null, worker_id = null, heartbeat_at = null
   where j.id = p_job_id returning * into v_job;
  return jsonb_build_object('outcome', 'ok', 'job', public.extraction_job_json(v_job));
end
$$;

create or replace function public.delete_extraction_job(p_job_id uuid)
  returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_status text;
begin
  select j.status into v_status from public.extraction_jobs j where j.id = p_job_id and j.user_id = auth.uid() for update;
  if v_status is null then
    return jsonb_build_object('outcome', 'not_found');
  end if;
  if v_status in ('queued', 'running') then
    return jsonb_build_object('outcome', 'not_finished', 'status', v_status);
  end if;
  delete from public.extraction_jobs j where j.id = p_job_id;
  return jsonb_build_object('outcome', 'ok');
end
$$;

-- GET /api/extractions/{id}/results and the export: one page of document rows (RLS: the owner's only).
create or replace function public.list_extraction_results(p_job_id uuid, p_status text default null, p_limit integer default 50, p_offset integer default 0)
  returns table (document_id uuid, "position" integer, case_number text, title text, status text, "values" jsonb, error text, model text,
                 attempts integer, finished_at timestamptz, total_count bigint)
  language sql stable security invoker
  set search_path = ''
  as $$
  select d.document_id, d.position, jd.case_number, jd.title, d.status, d.values, d.error, d.model, d.attempts, d.finished_at, count(*) over ()
  from public.extraction_job_documents d
  left join public.judgments jd on jd.id = d.document_id
  where d.job_id = p_job_id and (p_status is null or d.status = p_status)
  order by d.position
  limit least(greatest(coalesce(p_limit, 50), 1), 1000) offset greatest(coalesce(p_offset, 0), 0)
$$;

-- The fields a job was submitted with (its snapshot), for the results table and the export's columns.
create or replace function public.get_extraction_job_fields(p_job_id uuid)
  returns jsonb
  language sql stable security invoker
  set search_path = ''
  as $$
  select j.fields from public.extraction_jobs j where j.id = p_job_id
$$;

-- POST /api/admin/extractions/base-schema/backfill (service role, after the route checked the admin role): one
-- base-schema job, owned by the admin, over every judgment whose base_extraction_status is still pending, or over the
-- newest p_limit of them (a backfill in batches; the newest judgments are the ones researchers look for first). At
-- most one backfill runs at a time: a queued or running one is answered instead of a second.
create or replace function public.create_base_backfill_job(p_user_id uuid, p_mode text, p_limit integer default null)
  returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_job public.extraction_jobs;
  v_ids uuid[];
begin
  perform pg_advisory_xact_lock(hashtextextended('extraction_jobs:backfill', 0));
  select * into v_job from public.extraction_jobs j
   where j.idempotency_key = 'base-backfill' and j.status in ('queued', 'running') order by j.created_at limit 1;
  if found then
    return jsonb_build_object('outcome', 'existing', 'job', public.extraction_job_json(v_job));
  end if;
  select coalesce(array_agg(p.id), '{}') into v_ids from (
    select jd.id from public.judgments jd where jd.base_extraction_status = 'pending'
     order by jd.created_at desc, jd.id limit p_limit
  ) p;
  if cardinality(v_ids) = 0 then
    return jsonb_build_object('outcome', 'empty');
  end if;
  insert into public.extraction_jobs (user_id, schema_key, schema_name, mode, idempotency_key, total, writes_judgments)
  values (p_user_id, 'base', 'Base schema (backfill)', p_mode, 'base-backfill', cardinality(v_ids), true)
  returning * into v_job;
  insert into public.extraction_job_documents (job_id, document_id, position)
  select v_job.id, jd.id, (row_number() over (order by jd.created_at, jd.id))::integer
    from public.judgments jd where jd.id = any(v_ids);
  return jsonb_build_object('outcome', 'created', 'job', public.extraction_job_json(v_job));
end
$$;
revoke all on function public.create_base_backfill_job(uuid, text, integer) from public, anon, authenticated;
grant execute on function public.create_base_backfill_job(uuid, text, integer) to service_role;

-- The health entry task_queue (service role): pg-boss schema present, newest worker heartbeat, queue depth.
create or replace function public.extraction_queue_health()
  returns jsonb
  language sql stable security definer
  set search_path = ''
  as $$
  select jsonb_build_object(
    'pgboss', to_regclass('pgboss.job') is not null,
    'last_heartbeat_at', (select max(w.beat_at) from public.extraction_workers w),
    'heartbeat_age_seconds', extract(epoch from now() - (select max(w.beat_at) from public.extraction_workers w)),
    'queued', (select count(*) from public.extraction_jobs j where j.status = 'queued'),
    'running', (select count(*) from public.extraction_jobs j where j.status = 'running'))
$$;

do $$
declare
  fn text;
begin
  foreach fn in array array[
    'public.extraction_job_json(public.extraction_jobs)',
    'public.create_extraction_job(uuid, jsonb, uuid[], uuid, text, text, integer, integer)',
    'public.get_extraction_job(uuid)',
    'public.list_extraction_jobs(text, integer, integer)',
    'public.cancel_extraction_job(uuid)',
    'public.retry_extraction_job(uuid, integer)',
    'public.delete_extraction_job(uuid)',
    'public.list_extraction_results(uuid, text, integer, integer)',
    'public.get_extraction_job_fields(uuid)'
  ] loop
    execute format('revoke all on function %s from public, anon', fn);
    execute format('grant execute on function %s to authenticated, service_role', fn);
  end loop;
end
$$;
revoke all on function public.extraction_queue_health() from public, anon, authenticated;
grant execute on function public.extraction_queue_health() to service_role;
