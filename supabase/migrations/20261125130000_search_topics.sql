-- Topic modelling runs and topic clicks (spec: Other records, "Search topics run").
--
-- search_topics_runs: one row per POST /api/topic-modeling/analyze, keyed by run_id, with the request's params and
-- the result (topics, periods, params, corpus_size). A user reads only their own runs (RLS). The public topics routes
-- and the search engine's topics index need the latest run's topics without its owner or sample judgments: that is
-- latest_search_topics_run() (SECURITY DEFINER, narrow: it returns no user id and no judgment ids or titles).
--
-- search_topic_clicks: one row per POST /api/search/topic-click, attributed to the user when signed in, else to a
-- guest device key (a device id or a hash of the client address, never raw). A user reads only their own clicks;
-- trending reads only aggregated counts per topic through search_topic_click_counts() (SECURITY DEFINER, narrow).

create table if not exists public.search_topics_runs (
  run_id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users (id) on delete cascade,
  params jsonb not null,
  result jsonb not null,
  topic_count integer not null check (topic_count >= 0),
  document_count integer not null check (document_count >= 0),
  computed_ms integer not null check (computed_ms >= 0),
  created_at timestamptz not null default now()
);
comment on table public.search_topics_runs is 'Topic modelling runs: params and results, keyed by run_id; owners read their own.';
create index if not exists search_topics_runs_user_idx on public.search_topics_runs (user_id, created_at desc, run_id);
create index if not exists search_topics_runs_created_idx on public.search_topics_runs (created_at desc, run_id);

alter table public.search_topics_runs enable row level security;
revoke all on table public.search_topics_runs from public, anon, authenticated;
grant select, insert on table public.search_topics_runs to authenticated;
grant select, insert, delete on table public.search_topics_runs to service_role;

drop policy if exists search_topics_runs_owner_read on public.search_topics_runs;
create policy search_topics_runs_owner_read on public.search_topics_runs
  for select to authenticated
  using (user_id = (select auth.uid()));
drop policy if exists search_topics_runs_owner_insert on public.search_topics_runs;
create policy search_topics_runs_owner_insert on public.search_topics_runs
  for insert to authenticated
  with check (user_id = (select auth.uid()));

create table if not exists public.search_topic_clicks (
  id bigint generated always as identity primary key,
  run_id uuid not null references public.search_topics_runs (run_id) on delete cascade,
  topic integer not null check (topic between 0 and 99),
  query text check (char_length(query) <= 200),
  user_id uuid references auth.users (id) on delete cascade,
  guest_key text check (guest_key ~ '^[a-z0-9:-]{1,80}$'),
  created_at timestamptz not null default now(),
  -- Exactly one clicker: the user, or the guest device.
  check ((user_id is null) <> (guest_key is null))
);
comment on table public.search_topic_clicks is 'Topic clicks: per user when signed in, per guest device otherwise.';
create index if not exists search_topic_clicks_run_idx on public.search_topic_clicks (run_id, topic);
create index if not exists search_topic_clicks_user_idx on public.search_topic_clicks (user_id, created_at desc) where user_id is not null;

alter table public.search_topic_clicks enable row level security;
revoke all on table public.search_topic_clicks from public, anon, authenticated;
grant select on table public.search_topic_clicks to authenticated;
grant select, insert on table public.search_topic_clicks to service_role;

drop policy if exists search_topic_clicks_owner_read on public.search_topic_clicks;
create policy search_topic_clicks_owner_read on public.search_topic_clicks
  for select to authenticated
  using (user_id = (select auth.uid()));

-- The columns of a judgment the topic model reads (lib/analysis/document.ts: ANALYSIS_FIELDS, NAME_FIELDS, and id,
-- case_number, decision_date, jurisdiction, judges), named one by one: never the full text (reading and dropping it
-- made sampling 2,000 of 12,307 judgments take five seconds). tests/db/search-topics.test.ts checks the list still
-- matches the field registry.
-- The seeded sample is the aggregate's (20260103000300: order by md5(id || ':' || seed), id limit n); the cohort is
-- every judgment of the jurisdictions, or, with a filter object, the filter cohort (structured.filter_predicate, which
-- also keeps completed extractions only, as on every filtered path). SECURITY INVOKER: the caller's RLS on judgments.
create or replace function public.topic_model_sample(
  p_filters jsonb default null,
  p_jurisdictions text[] default null,
  p_sample_size integer default 500,
  p_seed integer default 42
)
  returns jsonb
  language plpgsql stable security invoker
  set search_path = ''
  as $$
declare
  v_where text := case when p_filters is null or p_filters = 'null'::jsonb then 'true'
                       else structured.filter_predicate(p_filters, null) end;
  v_result jsonb;
begin
  execute format($q$
    with cohort as materialized (
      select j.id from public.judgments j
       where %s and ($3::text[] is null or j.jurisdiction = any ($3))
    ),
    s as (select c.id from cohort c order by md5(c.id::text || ':' || $1::text), c.id limit $2)
    select jsonb_build_object(
      'corpus_size', (select count(*) from cohort),
      'rows', coalesce((select jsonb_agg(jsonb_build_object(
                            'id', j.id, 'case_number', j.case_number, 'decision_date', j.decision_date,
                            'jurisdiction', j.jurisdiction, 'judges', j.judges, 'title', j.title, 'summary', j.summary,
                            'keywords', j.keywords, 'legal_topics', j.legal_topics, 'base_keywords', j.base_keywords,
                            'base_neutral_citation_number', j.base_neutral_citation_number,
                            'base_remand_custody_time', j.base_remand_custody_time,
                            'base_offender_age_offence', j.base_offender_age_offence,
                            'base_offender_mental_offence', j.base_offender_mental_offence,
                            'base_victim_mental_offence', j.base_victim_mental_offence,
                            'court_name', j.court_name, 'base_appeal_court_judges_names', j.base_appeal_court_judges_names,
                            'base_case_name', j.base_case_name,
                            'base_offender_representative_name', j.base_offender_representative_name,
                            'base_crown_attorney_general_representative_name', j.base_crown_attorney_general_representative_name,
                            'base_conv_court_names', j.base_conv_court_names, 'base_sent_court_name', j.base_sent_court_name)
                          order by j.id)
                          from s join public.judgments j on j.id = s.id), '[]'::jsonb))$q$, v_where)
    into v_result
    using p_seed, least(greatest(coalesce(p_sample_size, 500), 1), 20000), p_jurisdictions;
  return v_result;
end
$$;
comment on function public.topic_model_sample(jsonb, text[], integer, integer) is
  'The seeded sample of judgments a topic run models (analysis columns only) and the cohort size.';

-- The latest run for the public topics routes and the topics index: run id, time, counts and the topics without
-- their sample judgments. SECURITY DEFINER: why: anonymous visitors see trending topics, and the owner's RLS would
-- hide every run from them; this returns no owner and no judgment, only what the public topics index holds.
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
   order by r.created_at desc, r.run_id desc
   limit 1
$$;

-- Record a click. Called by the route through the service role after it has checked the topic exists in the index;
-- the route names the clicker from the verified identity.
create or replace function public.record_topic_click(
  p_run_id uuid,
  p_topic integer,
  p_query text default null,
  p_user_id uuid default null,
  p_guest_key text default null
)
  returns void
  language sql volatile security invoker
  set search_path = ''
  as $$
  insert into public.search_topic_clicks (run_id, topic, query, user_id, guest_key)
  values (p_run_id, p_topic, nullif(left(btrim(coalesce(p_query, '')), 200), ''), p_user_id,
          case when p_user_id is null then p_guest_key end)
$$;

-- Click counts per topic of one run: all clicks, and distinct clickers (users and guest devices), which trending
-- ranks by so that one device clicking again and again counts once. SECURITY DEFINER: why: trending is public and
-- clicks are owner-read; this returns counts only, never who clicked.
create or replace function public.search_topic_click_counts(p_run_id uuid)
  returns table (topic integer, clicks bigint, clickers bigint)
  language sql stable security definer
  set search_path = ''
  as $$
  select c.topic, count(*), count(distinct coalesce(c.user_id::text, c.guest_key))
    from public.search_topic_clicks c
   where c.run_id = p_run_id
   group by c.topic
$$;

-- The caller's own clicks, newest first. SECURITY INVOKER: RLS limits the rows; the WHERE says the same.
create or replace function public.my_topic_clicks(p_limit integer default 50)
  returns table (run_id uuid, topic integer, query text, created_at timestamptz)
  language sql stable security invoker
  set search_path = ''
  as $$
  select c.run_id, c.topic, c.query, c.created_at
    from public.search_topic_clicks c
   where c.user_id = (select auth.uid())
   order by c.created_at desc, c.id desc
   limit least(greatest(coalesce(p_limit, 50), 1), 100)
$$;

-- The caller's runs (list: no result body), and one run by id (owner only, through RLS).
create or replace function public.list_search_topics_runs(p_limit integer default 20, p_offset integer default 0)
  returns table (run_id uuid, params jsonb, topic_count integer, document_count integer, computed_ms integer,
                 created_at timestamptz, total_count bigint)
  language sql stable security invoker
  set search_path = ''
  as $$
  select r.run_id, r.params, r.topic_count, r.document_count, r.computed_ms, r.created_at, count(*) over ()
    from public.search_topics_runs r
   where r.user_id = (select auth.uid())
   order by r.created_at desc, r.run_id desc
   limit least(greatest(coalesce(p_limit, 20), 1), 100)
  offset greatest(coalesce(p_offset, 0), 0)
$$;

create or replace function public.get_search_topics_run(p_run_id uuid)
  returns jsonb
  language sql stable security invoker
  set search_path = ''
  as $$
  select jsonb_build_object('run_id', r.run_id, 'params', r.params, 'result', r.result,
                            'computed_ms', r.computed_ms, 'created_at', r.created_at)
    from public.search_topics_runs r
   where r.run_id = p_run_id and r.user_id = (select auth.uid())
$$;

-- Store a run as the caller (RLS: user_id is the caller).
create or replace function public.create_search_topics_run(
  p_run_id uuid,
  p_params jsonb,
  p_result jsonb,
  p_computed_ms integer
)
  returns timestamptz
  language sql volatile security invoker
  set search_path = ''
  as $$
  insert into public.search_topics_runs (run_id, user_id, params, result, topic_count, document_count, computed_ms)
  values (p_run_id, (select auth.uid()), p_params, p_result, jsonb_array_length(p_result -> 'topics'),
          coalesce((p_result -> 'model' ->> 'documents')::int, 0), greatest(p_computed_ms, 0))
  returning created_at
$$;

revoke all on function public.topic_model_sample(jsonb, text[], integer, integer) from public, anon;
revoke all on function public.latest_search_topics_run() from public;
revoke all on function public.record_topic_click(uuid, integer, text, uuid, text) from public, anon, authenticated;
revoke all on function public.search_topic_click_counts(uuid) from public;
revoke all on function public.my_topic_clicks(integer) from public, anon;
revoke all on function public.list_search_topics_runs(integer, integer) from public, anon;
revoke all on function public.get_search_topics_run(uuid) from public, anon;
revoke all on function public.create_search_topics_run(uuid, jsonb, jsonb, integer) from public, anon;

grant execute on function public.topic_model_sample(jsonb, text[], integer, integer) to authenticated, service_role;
grant execute on function public.latest_search_topics_run() to anon, authenticated, service_role;
grant execute on function public.record_topic_click(uuid, integer, text, uuid, text) to service_role;
grant execute on function public.search_topic_click_counts(uuid) to anon, authenticated, service_role;
grant execute on function public.my_topic_clicks(integer) to authenticated;
grant execute on function public.list_search_topics_runs(integer, integer) to authenticated;
grant execute on function public.get_search_topics_run(uuid) to authenticated;
grant execute on function public.create_search_topics_run(uuid, jsonb, jsonb, integer) to authenticated;
