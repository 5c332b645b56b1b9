-- Caps passed as RPC arguments held server-side (P-81): each function below keeps its signature (argument names are a
-- wire contract, spec: Versioning 4) but a cap argument can now only lower the cap, never raise it: the effective cap
-- is least(argument, app_limit(<the config setting>)). Also validated here rather than trusted: create_extraction_job's
-- p_mode and p_base, and a saved search's params (a check constraint, so a direct table write meets it too). Direct
-- INSERT on saved_searches is revoked: create_saved_search is the one way in, and a trigger holds the per-user count
-- whoever inserts.

-- 1. Extraction jobs -------------------------------------------------------------------------------------------------

-- The shape of the base schema a base job snapshots (p_base, optional): {name, fields, version_number?}, at most
-- SCHEMA_MAX_FIELDS fields, each {name: snake_case, type: one of the schema field types, ...}. The web tier sends the
-- built-in base schema (lib/backend/extraction-jobs/base.ts); the worker and the results read the built-in fields of a
-- base job whatever its snapshot says, so a direct caller can only name the job, within these bounds.
create or replace function public.extraction_base_valid(p_base jsonb, p_max_fields integer)
  returns boolean
  language sql immutable
  set search_path = ''
  as $$
  select p_base is not null and jsonb_typeof(p_base) = 'object'
     and not exists (select 1 from jsonb_object_keys(p_base) k where k not in ('name', 'fields', 'version_number'))
     and jsonb_typeof(p_base -> 'name') = 'string' and char_length(btrim(p_base ->> 'name')) between 1 and 255
     and (p_base -> 'version_number' is null or jsonb_typeof(p_base -> 'version_number') = 'null'
          or (jsonb_typeof(p_base -> 'version_number') = 'number' and (p_base ->> 'version_number') ~ '^[1-9][0-9]{0,8}$'))
     and jsonb_typeof(p_base -> 'fields') = 'array'
     and jsonb_array_length(p_base -> 'fields') between 1 and p_max_fields
     and pg_column_size(p_base) <= 262144
     and not exists (
       select 1 from jsonb_array_elements(p_base -> 'fields') f
        where jsonb_typeof(f) <> 'object'
           or jsonb_typeof(f -> 'name') is distinct from 'string'
           or (f ->> 'name') !~ '^[a-z][a-z0-9]*(_[a-z0-9]+)*$' or char_length(f ->> 'name') > 64
           or (f ->> 'type') is null
           or (f ->> 'type') not in ('string', 'integer', 'number', 'boolean', 'date', 'enum', 'string[]', 'enum[]'))
$$;
revoke all on function public.extraction_base_valid(jsonb, integer) from public, anon;
grant execute on function public.extraction_base_valid(jsonb, integer) to authenticated, service_role;

-- As in 20261126120000_extraction_jobs.sql, with the caps from app_limits and p_mode / p_base checked (22023, detail =
-- the argument). The outcomes are unchanged.
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
  v_max_running integer;
  v_max_documents integer;
begin
  if v_uid is null then
    raise exception 'a signed-in user is required' using errcode = '42501';
  end if;
  -- A cap argument may lower the cap (a test, a stricter deployment), never raise it.
  v_max_running := least(coalesce(p_max_running, public.app_limit('EXTRACTION_MAX_RUNNING_JOBS_PER_USER')),
                         public.app_limit('EXTRACTION_MAX_RUNNING_JOBS_PER_USER'));
  v_max_documents := least(coalesce(p_max_documents, public.app_limit('EXTRACTION_MAX_DOCUMENTS')),
                           public.app_limit('EXTRACTION_MAX_DOCUMENTS'));
  if p_mode is null or p_mode not in ('rules', 'model') then
    raise exception 'mode must be rules or model' using errcode = '22023', detail = 'mode';
  end if;
  if p_schema_id is not null and p_base is not null then
    raise exception 'a stored schema job takes no base schema' using errcode = '22023', detail = 'base';
  end if;
  if p_schema_id is null and p_base is not null and not public.extraction_base_valid(p_base, public.app_limit('SCHEMA_MAX_FIELDS')) then
    raise exception 'the base schema is not a valid schema' using errcode = '22023', detail = 'base';
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
  if (select count(*) from public.extraction_jobs j where j.user_id = v_uid and j.status in ('queued', 'running')) >= v_max_running then
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
  if cardinality(v_ids) > v_max_documents then
    return jsonb_build_object('outcome', 'too_many', 'count', cardinality(v_ids));
  end if;
  insert into public.extraction_jobs (user_id, schema_id, schema_key, schema_version, schema_name, fields, mode, idempotency_key, total,
                                     writes_judgments)
  values (v_uid, v_schema.id, coalesce(v_schema.id::text, 'base'), coalesce(v_schema.version, (p_base ->> 'version_number')::integer),
          coalesce(v_schema.name, btrim(p_base ->> 'name'), 'base'), coalesce(v_schema.fields, p_base -> 'fields'), p_mode, p_idempotency_key,
          cardinality(v_ids), v_schema.id is null and public.is_admin())
  returning * into v_job;
  insert into public.extraction_job_documents (job_id, document_id, position)
  select v_job.id, x.id, x.ord::integer from unnest(v_ids) with ordinality as x(id, ord);
  return jsonb_build_object('outcome', 'created', 'job', public.extraction_job_json(v_job));
end
$$;

-- As in 20261126120000_extraction_jobs.sql, with the running-jobs cap from app_limits.
create or replace function public.retry_extraction_job(p_job_id uuid, p_max_running integer)
  returns jsonb
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_job public.extraction_jobs;
  v_uid uuid := auth.uid();
  v_max_running integer := least(coalesce(p_max_running, public.app_limit('EXTRACTION_MAX_RUNNING_JOBS_PER_USER')),
                                 public.app_limit('EXTRACTION_MAX_RUNNING_JOBS_PER_USER'));
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
  if (select count(*) from public.extraction_jobs j where j.user_id = v_uid and j.status in ('queued', 'running')) >= v_max_running then
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

-- 2. Saved searches --------------------------------------------------------------------------------------------------

-- The params of a kind, as lib/schema/requests/accounts.ts shapes them (SearchParamsSchema, ExtractionsParamsSchema):
-- only known keys, each of its type and length; `collection_ids` refused in a filter object, as the app refuses it. The
-- filter expression's grammar is the app's parser's (not repeated here): it parses it before storing and again on every
-- run, so a stored expression a direct caller broke fails for its owner only.
create or replace function public.saved_search_params_valid(p_kind text, p_params jsonb)
  returns boolean
  language sql immutable
  set search_path = ''
  as $$
  select p_params is not null and jsonb_typeof(p_params) = 'object'
     and (p_params -> 'url' is null or (jsonb_typeof(p_params -> 'url') = 'string' and char_length(p_params ->> 'url') <= 8192
                                        and (p_params ->> 'url') ~ '^(\?[^#[:space:]]*)?$'))
     and case p_kind
       when 'search' then
         not exists (select 1 from jsonb_object_keys(p_params) k where k not in ('mode', 'filter', 'sort', 'url'))
         and (p_params -> 'mode' is null or (p_params ->> 'mode') in ('text', 'semantic', 'hybrid') and jsonb_typeof(p_params -> 'mode') = 'string')
         and (p_params -> 'filter' is null or (jsonb_typeof(p_params -> 'filter') = 'string' and char_length(p_params ->> 'filter') <= 8192))
         and (p_params -> 'sort' is null or (jsonb_typeof(p_params -> 'sort') = 'string' and char_length(p_params ->> 'sort') <= 500))
       when 'extractions' then
         not exists (select 1 from jsonb_object_keys(p_params) k where k not in ('f', 'q', 'url'))
         and (p_params -> 'f' is null or (jsonb_typeof(p_params -> 'f') = 'object' and not (p_params -> 'f') ? 'collection_ids'))
         and (p_params -> 'q' is null or (jsonb_typeof(p_params -> 'q') = 'string' and char_length(p_params ->> 'q') <= 1000))
       else false
     end
$$;
revoke all on function public.saved_search_params_valid(text, jsonb) from public, anon;
grant execute on function public.saved_search_params_valid(text, jsonb) to authenticated, service_role;

-- NOT VALID: rows stored before were validated by the app; every write from now on is checked.
alter table public.saved_searches drop constraint if exists saved_searches_params_shape;
alter table public.saved_searches add constraint saved_searches_params_shape
  check (public.saved_search_params_valid(kind, params)) not valid;

-- The per-user count on every insert, whoever makes it (SS001, 409 SAVED_SEARCH_LIMIT upstream). The advisory lock is
-- create_saved_search's, so concurrent inserts count one after the other.
create or replace function public.saved_searches_enforce_cap() returns trigger
  language plpgsql
  set search_path = ''
  as $$
declare
  v_max integer := public.app_limit('SAVED_SEARCHES_MAX_PER_USER');
begin
  perform pg_advisory_xact_lock(hashtextextended('saved_searches:' || new.user_id::text, 0));
  if (select count(*) from public.saved_searches s where s.user_id = new.user_id) >= v_max then
    raise exception 'at most % saved searches per user', v_max using errcode = 'SS001';
  end if;
  return new;
end
$$;
drop trigger if exists saved_searches_enforce_cap on public.saved_searches;
create trigger saved_searches_enforce_cap
  before insert on public.saved_searches
  for each row execute function public.saved_searches_enforce_cap();

-- Direct inserts are gone: create_saved_search is the way in (it checks the cap and the owner).
revoke insert on table public.saved_searches from authenticated;

-- As in 20261125120000_saved_searches.sql, with the cap from app_limits. SECURITY DEFINER: why: callers no longer hold
-- INSERT on saved_searches; the row's owner is auth.uid() (never an argument), and the answer is read back by id.
create or replace function public.create_saved_search(
  p_name text,
  p_kind text,
  p_query text,
  p_params jsonb,
  p_folder text,
  p_alert_enabled boolean,
  p_alert_frequency text,
  p_max integer
)
  returns setof public.saved_search_row
  language plpgsql volatile security definer
  set search_path = ''
  as $$
declare
  v_uid uuid := auth.uid();
  v_max integer := least(coalesce(p_max, public.app_limit('SAVED_SEARCHES_MAX_PER_USER')), public.app_limit('SAVED_SEARCHES_MAX_PER_USER'));
  v_id uuid;
begin
  if v_uid is null then
    raise exception 'a signed-in user is required' using errcode = '42501';
  end if;
  if not public.saved_search_params_valid(p_kind, coalesce(p_params, '{}'::jsonb)) then
    raise exception 'params do not fit the saved search kind' using errcode = '22023', detail = 'params';
  end if;
  perform pg_advisory_xact_lock(hashtextextended('saved_searches:' || v_uid::text, 0));
  if (select count(*) from public.saved_searches s where s.user_id = v_uid) >= v_max then
    raise exception 'at most % saved searches per user', v_max using errcode = 'SS001';
  end if;
  insert into public.saved_searches (user_id, name, kind, query, params, folder, alert_enabled, alert_frequency, last_digest_at)
  values (v_uid, btrim(p_name), p_kind, coalesce(p_query, ''), coalesce(p_params, '{}'::jsonb), nullif(btrim(p_folder), ''),
          coalesce(p_alert_enabled, false), coalesce(p_alert_frequency, 'weekly'), now())
  returning id into v_id;
  return query
    select s.id, s.name, s.kind, s.query, s.params, s.folder, s.alert_enabled, s.alert_frequency, s.last_run_at,
           s.use_count, s.created_at, s.updated_at
      from public.saved_searches s where s.id = v_id and s.user_id = v_uid;
end
$$;
revoke all on function public.create_saved_search(text, text, text, jsonb, text, boolean, text, integer) from public, anon;
grant execute on function public.create_saved_search(text, text, text, jsonb, text, boolean, text, integer) to authenticated, service_role;

-- 3. Collections from a filter ---------------------------------------------------------------------------------------

-- As in 20260110000001_collection_from_filter.sql, with the cap from app_limits (SC004's detail stays the exact total).
create or replace function public.create_collection_from_filter(
  p_name text,
  p_description text,
  p_filters jsonb,
  p_text_query text,
  p_cap integer
)
  returns jsonb
  language plpgsql volatile security invoker
  set search_path = ''
  as $$
declare
  v_predicate text;
  v_collection public.collection_row;
  v_added integer;
  v_total bigint;
  v_cap integer;
begin
  if p_cap is null or p_cap < 1 then
    raise exception 'cap must be a positive integer' using errcode = '22023', detail = 'cap';
  end if;
  v_cap := least(p_cap, public.app_limit('SAVE_FROM_FILTER_MAX_DOCUMENTS'));
  v_predicate := structured.filter_predicate(coalesce(p_filters, '{}'::jsonb), p_text_query);
  v_collection := public.create_collection(p_name, p_description);
  execute format(
    'insert into public.collection_documents (collection_id, judgment_id)
     select $1, j.id from public.judgments j where %s limit $2',
    v_predicate
  ) using v_collection.id, v_cap + 1;
  get diagnostics v_added = row_count;
  if v_added = 0 then
    raise exception 'the filter matches no judgments' using errcode = 'SC003';
  end if;
  if v_added > v_cap then
    execute 'select count(*) from public.judgments j where ' || v_predicate into v_total;
    raise exception 'the filter matches % judgments; at most % can be saved', v_total, v_cap
      using errcode = 'SC004', detail = v_total::text;
  end if;
  v_collection.document_count := v_added;
  return jsonb_build_object('collection', to_jsonb(v_collection), 'added_count', v_added, 'total_matched', v_added);
end
$$;
