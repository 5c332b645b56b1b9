-- The default topic run: a fresh stack has no stored run, so autocomplete's topic_hits and the landing
-- page's trending topics had nothing to come from. The launcher stores one run with the default params (seed 42) when
-- no run exists, attributed to no user: user_id becomes nullable. A run without a user is read by nobody through RLS
-- (owners read their own; null matches no auth.uid()), only through the narrow latest_search_topics_run(); a caller
-- cannot store one (the insert policy requires user_id = auth.uid()). Written by the service role only.
alter table public.search_topics_runs alter column user_id drop not null;
comment on column public.search_topics_runs.user_id is
  'The caller who ran it; null for the default run the launcher stores when none exists (no owner, read by nobody).';

-- Store the default run unless a run already exists (any user's): true when stored. A transaction-scoped advisory
-- lock serialises two launchers starting together, so at most one default run is ever stored.
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
  if exists (select 1 from public.search_topics_runs) then
    return false;
  end if;
  insert into public.search_topics_runs (run_id, user_id, params, result, topic_count, document_count, computed_ms)
  values (p_run_id, null, p_params, p_result, jsonb_array_length(p_result -> 'topics'),
          coalesce((p_result -> 'model' ->> 'documents')::int, 0), greatest(p_computed_ms, 0));
  return true;
end
$$;
revoke all on function public.store_default_search_topics_run(uuid, jsonb, jsonb, integer) from public, anon, authenticated;
grant execute on function public.store_default_search_topics_run(uuid, jsonb, jsonb, integer) to service_role;

-- Whether any run is stored (the launcher's check before computing the default run). Service role only.
create or replace function public.search_topics_run_exists()
  returns boolean
  language sql stable security invoker
  set search_path = ''
  as $$
  select exists (select 1 from public.search_topics_runs)
$$;
revoke all on function public.search_topics_run_exists() from public, anon, authenticated;
grant execute on function public.search_topics_run_exists() to service_role;
