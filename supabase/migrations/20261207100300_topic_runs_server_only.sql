-- Topic runs are stored by the server only, and only some runs become the public topics index (P-81,
-- docs/analytics.md). Before this, a signed-in user could store any text as a "run" (create_search_topics_run and
-- INSERT on search_topics_runs were granted to authenticated), and the newest run of anyone became the landing page's
-- trending topics and autocomplete's topic_hits within a minute.
--
-- 1. `public_index`: whether a run may be the public topics index. The default run (no user) and a run an admin asked
--    for are; a researcher's run is theirs only (listed and opened by them, never shown to others).
-- 2. Callers store nothing themselves: INSERT and create_search_topics_run are revoked from authenticated. The server
--    stores the run it computed through store_search_topics_run (service role), naming the user and whether the run is
--    public from the verified identity.
-- 3. latest_search_topics_run() (the topics index's source) reads public runs only; the default run is stored when no
--    public run exists (a stack whose only runs are researchers' still gets trending topics).

alter table public.search_topics_runs add column if not exists public_index boolean not null default false;
comment on column public.search_topics_runs.public_index is
  'Whether the run may be the public topics index: the default run and admins'' runs; a researcher''s run is theirs only.';
-- Runs stored before: the default run, and runs of users who are admins now.
update public.search_topics_runs r set public_index = true
 where not r.public_index
   and (r.user_id is null or exists (select 1 from auth.users u where u.id = r.user_id and u.raw_app_meta_data ->> 'role' = 'admin'));
create index if not exists search_topics_runs_public_idx on public.search_topics_runs (created_at desc, run_id desc) where public_index;

-- A run's result, bounded: what the model produces fits well inside (at most 30 topics of at most 15 keywords, 12
-- periods, 5 sample judgments each); anything larger is not a run this server computed.
alter table public.search_topics_runs drop constraint if exists search_topics_runs_result_bounded;
alter table public.search_topics_runs add constraint search_topics_runs_result_bounded
  check (jsonb_typeof(result -> 'topics') = 'array' and jsonb_array_length(result -> 'topics') <= 100
         and pg_column_size(result) <= 1048576 and pg_column_size(params) <= 65536) not valid;

drop policy if exists search_topics_runs_owner_insert on public.search_topics_runs;
revoke insert on table public.search_topics_runs from authenticated;
revoke all on function public.create_search_topics_run(uuid, jsonb, jsonb, integer) from public, anon, authenticated;

-- Store a run the server computed for p_user_id (null: the server's own). Service role only.
create or replace function public.store_search_topics_run(
  p_run_id uuid,
  p_user_id uuid,
  p_params jsonb,
  p_result jsonb,
  p_computed_ms integer,
  p_public boolean
)
  returns timestamptz
  language sql volatile security invoker
  set search_path = ''
  as $$
  insert into public.search_topics_runs (run_id, user_id, params, result, topic_count, document_count, computed_ms, public_index)
  values (p_run_id, p_user_id, p_params, p_result, jsonb_array_length(p_result -> 'topics'),
          coalesce((p_result -> 'model' ->> 'documents')::int, 0), greatest(p_computed_ms, 0), coalesce(p_public, false))
  returning created_at
$$;
revoke all on function public.store_search_topics_run(uuid, uuid, jsonb, jsonb, integer, boolean) from public, anon, authenticated;
grant execute on function public.store_search_topics_run(uuid, uuid, jsonb, jsonb, integer, boolean) to service_role;

-- As in 20261125130000_search_topics.sql, over public runs only.
create or replace function public.latest_search_topics_run()
  returns jsonb
  language sql stable security definer
  set search_path = ''
  as $$
  select jsonb_build_object(
    'run_id', r.run_id,
    'computed_at', r.created_at,
    'topic_count', r.topic_count,
    'document_count', r.document_count,
    'periods', coalesce(r.result -> 'periods', '[]'::jsonb),
    'topics', coalesce((select jsonb_agg(t - 'sample_documents' order by (t ->> 'id')::int)
                          from jsonb_array_elements(r.result -> 'topics') t), '[]'::jsonb))
    from public.search_topics_runs r
   where r.public_index
   order by r.created_at desc, r.run_id desc
   limit 1
$$;

-- As in 20261127030100_default_topic_run.sql, but "a run exists" now means a public one.
create or replace function public.store_default_search_topics_run(
  p_run_id uuid,
  p_params jsonb,
  p_result jsonb,
  p_computed_ms integer
)
  returns boolean
  language plpgsql volatile security invoker
  set search_path = ''
  as $$
begin
  perform pg_advisory_xact_lock(hashtext('public.store_default_search_topics_run'));
  if exists (select 1 from public.search_topics_runs r where r.public_index) then
    return false;
  end if;
  insert into public.search_topics_runs (run_id, user_id, params, result, topic_count, document_count, computed_ms, public_index)
  values (p_run_id, null, p_params, p_result, jsonb_array_length(p_result -> 'topics'),
          coalesce((p_result -> 'model' ->> 'documents')::int, 0), greatest(p_computed_ms, 0), true);
  return true;
end
$$;

create or replace function public.search_topics_run_exists()
  returns boolean
  language sql stable security invoker
  set search_path = ''
  as $$
  select exists (select 1 from public.search_topics_runs r where r.public_index)
$$;
