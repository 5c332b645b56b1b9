-- Cohorts a researcher can cite and compare, and the user's own control over their search history.
--
-- 1. cohort_citations: a cited cohort (filter, optional text query, sample seed, the corpus version id and the member
--    id list as they were). The short id is made by the app (12 base62 characters, ~71 bits: unguessable). Anyone
--    holding the link may read it, so it is read through cohort_citation() by the service role only (the route is on
--    the public allowlist); its filter never carries collection_ids (refused here and in the request schema), so a
--    reader learns nothing about anyone's private collections. The author going away leaves the citation in place.
-- 2. cohort_field_values: a cohort's values of some aggregable fields, counted per value, for the compare endpoint
--    (shares, medians and their intervals are computed in lib/backend/cohorts from these counts).
-- 3. search history: a user may delete their own rows (one or all).

create table if not exists public.cohort_citations (
  id text primary key check (id ~ '^[0-9A-Za-z]{12}$'),
  user_id uuid default auth.uid() references auth.users (id) on delete set null,
  filters jsonb not null check (jsonb_typeof(filters) = 'object' and not filters ? 'collection_ids'),
  text_query text check (char_length(text_query) <= 1000),
  seed integer,
  corpus_version text,
  member_ids uuid[] not null,
  members_count integer generated always as (cardinality(member_ids)) stored,
  created_at timestamptz not null default now()
);
create index if not exists cohort_citations_user_idx on public.cohort_citations (user_id, created_at desc);

alter table public.cohort_citations enable row level security;
revoke all on table public.cohort_citations from public, anon, authenticated;
grant select, insert on table public.cohort_citations to authenticated;
grant all on table public.cohort_citations to service_role;

drop policy if exists cohort_citations_owner_insert on public.cohort_citations;
create policy cohort_citations_owner_insert on public.cohort_citations
  for insert to authenticated
  with check (user_id = (select auth.uid()));
drop policy if exists cohort_citations_owner_read on public.cohort_citations;
create policy cohort_citations_owner_read on public.cohort_citations
  for select to authenticated
  using (user_id = (select auth.uid()));

-- Store a cited cohort as the caller: its members are the matches of the one matching predicate now. More than p_cap
-- members raises SC004 with the total in its detail (the app answers FILTER_TOO_LARGE).
create or replace function public.create_cohort_citation(
  p_id text,
  p_filters jsonb,
  p_text_query text,
  p_seed integer,
  p_cap integer
)
  returns jsonb
  language plpgsql volatile security invoker
  set search_path = ''
  as $$
declare
  v_members uuid[];
  v_row public.cohort_citations;
begin
  if p_cap is null or p_cap < 1 then
    raise exception 'cap must be a positive integer' using errcode = '22023', detail = 'cap';
  end if;
  if p_filters ? 'collection_ids' then
    raise exception 'collection_ids cannot be cited' using errcode = 'SF001', detail = 'collection_ids';
  end if;
  select coalesce(array_agg(m.id order by m.id), '{}'::uuid[]) into v_members
    from public.list_extracted_filter_matches(coalesce(p_filters, '{}'::jsonb), p_text_query) m;
  if cardinality(v_members) > p_cap then
    raise exception 'the filter matches % judgments; at most % can be cited', cardinality(v_members), p_cap
      using errcode = 'SC004', detail = cardinality(v_members)::text;
  end if;
  insert into public.cohort_citations (id, user_id, filters, text_query, seed, corpus_version, member_ids)
  values (p_id, auth.uid(), coalesce(p_filters, '{}'::jsonb), nullif(btrim(p_text_query), ''), p_seed,
          public.corpus_version_id(), v_members)
  returning * into v_row;
  return jsonb_build_object('id', v_row.id, 'members_count', v_row.members_count, 'corpus_version', v_row.corpus_version,
                            'created_at', v_row.created_at);
end
$$;
revoke all on function public.create_cohort_citation(text, jsonb, text, integer, integer) from public, anon;
grant execute on function public.create_cohort_citation(text, jsonb, text, integer, integer) to authenticated, service_role;

-- A cited cohort as stored, and the same filter run now: the current corpus version, the current count and the
-- added / removed judgment ids against the stored list (at most p_list each, with their full counts), and the first
-- p_preview stored members for display (decision date descending). Null when there is no such citation.
create or replace function public.cohort_citation(p_id text, p_preview integer default 50, p_list integer default 500)
  returns jsonb
  language plpgsql stable security invoker
  set search_path = ''
  as $$
declare
  v_row public.cohort_citations;
  v_now uuid[];
  v_preview integer := least(greatest(coalesce(p_preview, 50), 0), 200);
  v_list integer := least(greatest(coalesce(p_list, 500), 0), 5000);
  v_added uuid[];
  v_removed uuid[];
  v_members jsonb;
begin
  select * into v_row from public.cohort_citations c where c.id = p_id;
  if not found then
    return null;
  end if;
  select coalesce(array_agg(m.id order by m.id), '{}'::uuid[]) into v_now
    from public.list_extracted_filter_matches(v_row.filters, v_row.text_query) m;
  -- Set differences by hashing (a member-by-member any() would be quadratic on whole-corpus cohorts).
  v_added := array(select x from (select unnest(v_now) except select unnest(v_row.member_ids)) d(x) order by x);
  v_removed := array(select x from (select unnest(v_row.member_ids) except select unnest(v_now)) d(x) order by x);
  select coalesce(jsonb_agg(jsonb_build_object('id', j.id, 'case_number', j.case_number, 'title', j.title,
                                               'jurisdiction', j.jurisdiction, 'decision_date', j.decision_date)
                            order by j.decision_date desc nulls last, j.id), '[]'::jsonb)
    into v_members
    from (select j.* from public.judgments j where j.id = any (v_row.member_ids)
          order by j.decision_date desc nulls last, j.id limit v_preview) j;
  return jsonb_build_object(
    'id', v_row.id,
    'filters', v_row.filters,
    'text_query', v_row.text_query,
    'seed', v_row.seed,
    'corpus_version', v_row.corpus_version,
    'members_count', v_row.members_count,
    'created_at', v_row.created_at,
    'members', v_members,
    'current_corpus_version', public.corpus_version_id(),
    'current_count', cardinality(v_now),
    'added_count', cardinality(v_added),
    'removed_count', cardinality(v_removed),
    'added', to_jsonb(v_added[1:v_list]),
    'removed', to_jsonb(v_removed[1:v_list]));
end
$$;
revoke all on function public.cohort_citation(text, integer, integer) from public, anon, authenticated;
grant execute on function public.cohort_citation(text, integer, integer) to service_role;

-- A cohort's values of aggregable fields, counted: one row per (field, value) with the number of judgments holding
-- it (a multi-valued field counts a judgment once per distinct value), categorical values in v (booleans as
-- 'true'/'false', dates as their year), numeric values in x; per field one row with v and x null counting the
-- judgments holding any value; and one row (field '*') with the cohort size. The cohort
-- is read once. An unknown or non-aggregable field raises SF002 with the field in its detail.
create or replace function public.cohort_field_values(p_filters jsonb, p_text_query text, p_fields text[])
  returns table (field text, v text, x double precision, n bigint)
  language plpgsql stable security invoker
  set search_path = ''
  as $$
declare
  v_key text;
  v_field structured.filter_fields;
  v_cols text[] := array['j.id'];
  v_parts text[] := array['select ''*''::text, null::text, null::float8, count(*)::bigint from c'];
  v_col text;
begin
  if cardinality(coalesce(p_fields, '{}'::text[])) > 50 then
    raise exception 'at most 50 fields' using errcode = 'SF002', detail = 'fields';
  end if;
  foreach v_key in array coalesce(p_fields, '{}'::text[]) loop
    select * into v_field from structured.filter_fields f where f.key = v_key and f.aggregable;
    if not found then
      raise exception 'field "%" is not aggregable', v_key using errcode = 'SF002', detail = v_key;
    end if;
    v_col := 'f_' || (cardinality(v_parts))::text;
    v_cols := v_cols || format('j.%I as %I', v_field.column_name, v_col);
    v_parts := v_parts || case
      when v_field.db_type = 'text' then format(
        'select %L, c.%I, null::float8, count(*)::bigint from c where nullif(c.%I, '''') is not null group by 2',
        v_key, v_col, v_col)
      when v_field.db_type = 'boolean' then format(
        'select %L, c.%I::text, null::float8, count(*)::bigint from c where c.%I is not null group by 2', v_key, v_col, v_col)
      when v_field.db_type = 'text[]' then format(
        'select %L, e.e, null::float8, count(distinct c.id)::bigint from c, unnest(c.%I) e(e) where nullif(e.e, '''') is not null group by 2',
        v_key, v_col)
      when v_field.db_type in ('integer', 'numeric') then format(
        'select %L, null::text, c.%I::float8, count(*)::bigint from c where c.%I is not null group by 3', v_key, v_col, v_col)
      when v_field.db_type in ('date', 'timestamptz') then format(
        'select %L, extract(year from c.%I)::int::text, null::float8, count(*)::bigint from c where c.%I is not null group by 2',
        v_key, v_col, v_col)
      else null end;
    if v_parts[cardinality(v_parts)] is null then
      raise exception 'field "%" is not aggregable', v_key using errcode = 'SF002', detail = v_key;
    end if;
    -- The judgments holding any value of the field (v and x both null).
    v_parts := v_parts || format('select %L, null::text, null::float8, count(*)::bigint from c where %s', v_key,
      case when v_field.db_type = 'text' then format('nullif(c.%I, '''') is not null', v_col)
           when v_field.db_type = 'text[]' then format('exists (select 1 from unnest(c.%I) e(e) where nullif(e.e, '''') is not null)', v_col)
           else format('c.%I is not null', v_col) end);
  end loop;
  return query execute format(
    'with c as materialized (select %s from public.judgments j where %s) %s',
    array_to_string(v_cols, ', '),
    structured.filter_predicate(coalesce(p_filters, '{}'::jsonb), p_text_query),
    array_to_string(v_parts, ' union all '));
end
$$;
revoke all on function public.cohort_field_values(jsonb, text, text[]) from public, anon;
grant execute on function public.cohort_field_values(jsonb, text, text[]) to authenticated, service_role;

-- Whether a collection is a given user's (the /api/v1 compare runs with the service role, so it asks before it
-- reads a collection's members as that key's user would).
create or replace function public.collection_owned_by(p_collection_id uuid, p_user_id uuid)
  returns boolean
  language sql stable security invoker
  set search_path = ''
  as $$ select exists (select 1 from public.collections c where c.id = p_collection_id and c.user_id = p_user_id) $$;
revoke all on function public.collection_owned_by(uuid, uuid) from public, anon, authenticated;
grant execute on function public.collection_owned_by(uuid, uuid) to service_role;

-- 3. Search history: the owner deletes their own rows.
grant delete on table public.search_analytics to authenticated;
drop policy if exists search_analytics_owner_delete on public.search_analytics;
create policy search_analytics_owner_delete on public.search_analytics
  for delete to authenticated
  using (user_id = (select auth.uid()));

-- Delete one of the caller's searches: true when a row went, false for an id that is not theirs (or none).
create or replace function public.delete_search_history_entry(p_id uuid)
  returns boolean
  language plpgsql volatile security invoker
  set search_path = ''
  as $$
declare
  v_n integer;
begin
  delete from public.search_analytics s where s.id = p_id and s.user_id = (select auth.uid());
  get diagnostics v_n = row_count;
  return v_n > 0;
end
$$;

-- Delete all of the caller's searches; the number deleted.
create or replace function public.clear_search_history()
  returns integer
  language plpgsql volatile security invoker
  set search_path = ''
  as $$
declare
  v_n integer;
begin
  delete from public.search_analytics s where s.user_id = (select auth.uid());
  get diagnostics v_n = row_count;
  return v_n;
end
$$;
revoke all on function public.delete_search_history_entry(uuid) from public, anon, authenticated;
revoke all on function public.clear_search_history() from public, anon, authenticated;
grant execute on function public.delete_search_history_entry(uuid) to authenticated;
grant execute on function public.clear_search_history() to authenticated;

-- The history page counts the caller's rows to page through them.
create or replace function public.search_history_count()
  returns bigint
  language sql stable security invoker
  set search_path = ''
  as $$ select count(*) from public.search_analytics s where s.user_id = (select auth.uid()) $$;
revoke all on function public.search_history_count() from public, anon, authenticated;
grant execute on function public.search_history_count() to authenticated;
