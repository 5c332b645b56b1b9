-- Structured search over the extracted base-schema columns (spec: Database function interface).
--   list_extracted_filter_matches       the ONE matching predicate (completed rows only)
--   filter_documents_by_extracted_data  a page of it, newest decision first
--   aggregate_extracted_data            distributions over its cohort (optionally an exact-n deterministic sample)
--   facet_extracted_values              top values of one any-of field within a filter (the facets route)
-- Filter keys, their controls and the aggregate allowlist come from structured.filter_fields, the generated SQL copy
-- of the field registry (D-05). Every function is SECURITY INVOKER (RLS applies: collection_ids only matches the
-- caller's own collections), pins search_path, has exactly one overload, and is executable by authenticated and
-- service_role only (D-02).
--
-- Errors carry a SQLSTATE the HTTP layer maps (lib/backend/extractions/db-errors.ts), with DETAIL naming the field:
--   SF001 invalid filter (unknown key, wrong shape, enum value outside its set)  → 422 FILTER_INVALID (D-06)
--   SF002 field not aggregable / not facetable, or sample_size without seed     → 422 FIELD_NOT_AGGREGABLE
--   SF003 argument out of range (fields count, top_n)                           → 422 VALIDATION_ERROR (D-14)

-- text_query searches title, summary and case_number as well as the searchable base fields (base_search_tsv holds
-- only the latter), accent-insensitively. The core part is stored (a generated column cannot read another generated
-- column, so it cannot be folded into base_search_tsv) and the pair is indexed as one expression, so neither the
-- match nor the recheck a phrase query needs computes to_tsvector per row. structured.filter_predicate writes the
-- same expression, (core_search_tsv || base_search_tsv), so the index applies.
alter table public.judgments add column core_search_tsv tsvector generated always as (
  setweight(to_tsvector('simple'::regconfig, public.immutable_unaccent(coalesce(title, '') || ' ' || coalesce(case_number, ''))), 'A')
  || setweight(to_tsvector('simple'::regconfig, public.immutable_unaccent(coalesce(summary, ''))), 'B')
) stored;
comment on column public.judgments.core_search_tsv is
  'Weighted simple, unaccented vector of title, case_number (A) and summary (B); text_query matches core_search_tsv || base_search_tsv.';

create index judgments_text_query_tsv_gin on public.judgments
  using gin ((core_search_tsv || base_search_tsv))
  where base_extraction_status = 'completed';

create or replace function structured.filter_error(p_field text, p_message text)
  returns void
  language plpgsql
  set search_path = ''
  as $$
begin
  raise exception '%', p_message using errcode = 'SF001', detail = p_field;
end
$$;

-- A YYYY-MM-DD string as a date, or null when it is not one (wrong pattern or impossible day).
create or replace function structured.iso_date(p_value text)
  returns date
  language plpgsql immutable
  set search_path = ''
  as $$
begin
  if p_value is null or p_value !~ '^\d{4}-\d{2}-\d{2}$' then
    return null;
  end if;
  return to_date(p_value, 'YYYY-MM-DD');
exception when others then
  return null;
end
$$;

-- A JSON array of strings as text[]; raises SF001 naming p_field otherwise.
create or replace function structured.string_array(p_field text, p_value jsonb)
  returns text[]
  language plpgsql immutable
  set search_path = ''
  as $$
begin
  if jsonb_typeof(p_value) is distinct from 'array'
     or exists (select 1 from jsonb_array_elements(p_value) e where jsonb_typeof(e) <> 'string') then
    perform structured.filter_error(p_field, format('filter "%s" must be an array of strings', p_field));
  end if;
  return array(select jsonb_array_elements_text(p_value));
end
$$;

-- The SQL condition for one filter key (alias j = public.judgments), values inlined as quoted literals (%L), so
-- nothing from the request is ever spliced in unquoted. Raises SF001 naming the key on any wrong shape.
create or replace function structured.filter_clause(p_field structured.filter_fields, p_value jsonb)
  returns text
  language plpgsql stable
  set search_path = ''
  as $$
declare
  v_col text := 'j.' || quote_ident(p_field.column_name);
  v_key text := p_field.key;
  v_values text[];
  v_bad text;
  v_lo jsonb;
  v_hi jsonb;
  v_lo_date date;
  v_hi_date date;
  v_text text;
  v_keys text[];
begin
  case p_field.control
  when 'enum_multi', 'tag_array' then
    -- Any-of; [] matches nothing (spec rule 5 for jurisdiction, D-09 for the others).
    v_values := structured.string_array(v_key, p_value);
    if p_field.enum_values is not null then
      select v into v_bad from unnest(v_values) v where v <> all (p_field.enum_values) limit 1;
      if found then
        perform structured.filter_error(v_key, format('filter "%s": value "%s" is not one of %s', v_key, v_bad,
          array_to_string(p_field.enum_values, ', ')));
      end if;
    end if;
    if cardinality(v_values) = 0 then
      return 'false';
    elsif p_field.db_type = 'text[]' then
      return format('%s && %L::text[]', v_col, v_values);
    else
      return format('%s = any (%L::text[])', v_col, v_values);
    end if;

  when 'boolean_tri' then
    -- true or false; leaving the key out is the third state (no clause).
    if jsonb_typeof(p_value) is distinct from 'boolean' then
      perform structured.filter_error(v_key, format('filter "%s" must be true or false', v_key));
    end if;
    return format('%s = %s', v_col, p_value::text);

  when 'numeric_range' then
    -- A number (equality) or {min,max} with either bound optional, inclusive.
    if jsonb_typeof(p_value) = 'number' then
      return format('%s = %L::numeric', v_col, p_value::text);
    end if;
    if jsonb_typeof(p_value) is distinct from 'object'
       or exists (select 1 from jsonb_object_keys(p_value) k where k not in ('min', 'max'))
       or coalesce(jsonb_typeof(p_value -> 'min'), 'null') not in ('number', 'null')
       or coalesce(jsonb_typeof(p_value -> 'max'), 'null') not in ('number', 'null') then
      perform structured.filter_error(v_key, format('filter "%s" must be a number or {min, max} with numeric bounds', v_key));
    end if;
    v_lo := nullif(p_value -> 'min', 'null'::jsonb);
    v_hi := nullif(p_value -> 'max', 'null'::jsonb);
    return concat_ws(' and ',
      case when v_lo is not null then format('%s >= %L::numeric', v_col, v_lo::text) end,
      case when v_hi is not null then format('%s <= %L::numeric', v_col, v_hi::text) end,
      case when v_lo is null and v_hi is null then 'true' end);

  when 'date_range' then
    -- "YYYY-MM-DD" (equality) or {from,to} / {min,max} with ISO dates (D-08), inclusive, either bound optional.
    if jsonb_typeof(p_value) = 'string' then
      v_lo_date := structured.iso_date(p_value #>> '{}');
      if v_lo_date is null then
        perform structured.filter_error(v_key, format('filter "%s" must be a YYYY-MM-DD date', v_key));
      end if;
      v_hi_date := v_lo_date;
    else
      if jsonb_typeof(p_value) is distinct from 'object' then
        perform structured.filter_error(v_key, format('filter "%s" must be a YYYY-MM-DD date or {from, to}', v_key));
      end if;
      v_keys := array(select jsonb_object_keys(p_value));
      if not (v_keys <@ array['from', 'to'] or v_keys <@ array['min', 'max']) then
        perform structured.filter_error(v_key, format('filter "%s" takes {from, to} or {min, max}, not %s', v_key,
          array_to_string(v_keys, ', ')));
      end if;
      v_lo := nullif(coalesce(p_value -> 'from', p_value -> 'min'), 'null'::jsonb);
      v_hi := nullif(coalesce(p_value -> 'to', p_value -> 'max'), 'null'::jsonb);
      if v_lo is not null then
        v_lo_date := case when jsonb_typeof(v_lo) = 'string' then structured.iso_date(v_lo #>> '{}') end;
        if v_lo_date is null then
          perform structured.filter_error(v_key, format('filter "%s": the lower bound must be a YYYY-MM-DD date', v_key));
        end if;
      end if;
      if v_hi is not null then
        v_hi_date := case when jsonb_typeof(v_hi) = 'string' then structured.iso_date(v_hi #>> '{}') end;
        if v_hi_date is null then
          perform structured.filter_error(v_key, format('filter "%s": the upper bound must be a YYYY-MM-DD date', v_key));
        end if;
      end if;
    end if;
    if p_field.db_type = 'timestamptz' then
      -- Whole UTC days.
      return concat_ws(' and ',
        case when v_lo_date is not null then format('%s >= (%L::date)::timestamp at time zone ''UTC''', v_col, v_lo_date) end,
        case when v_hi_date is not null then format('%s < (%L::date + 1)::timestamp at time zone ''UTC''', v_col, v_hi_date) end,
        case when v_lo_date is null and v_hi_date is null then 'true' end);
    end if;
    return concat_ws(' and ',
      case when v_lo_date is not null then format('%s >= %L::date', v_col, v_lo_date) end,
      case when v_hi_date is not null then format('%s <= %L::date', v_col, v_hi_date) end,
      case when v_lo_date is null and v_hi_date is null then 'true' end);

  when 'substring' then
    -- Case-insensitive containment with % and _ taken literally; a blank value adds no clause.
    if jsonb_typeof(p_value) is distinct from 'string' then
      perform structured.filter_error(v_key, format('filter "%s" must be a string', v_key));
    end if;
    v_text := btrim(p_value #>> '{}');
    if v_text = '' then
      return 'true';
    end if;
    v_text := '%' || replace(replace(replace(v_text, '\', '\\'), '%', '\%'), '_', '\_') || '%';
    if p_field.db_type = 'text[]' then
      return format('exists (select 1 from unnest(%s) e where e ilike %L escape ''\'')', v_col, v_text);
    end if;
    return format('%s ilike %L escape ''\''', v_col, v_text);

  when 'uuid_membership' then
    -- Membership in any listed collection; [] = no filter (spec rule 5). RLS on collection_documents limits
    -- signed-in callers to their own collections; service-role callers guard ownership themselves (rule 6).
    v_values := structured.string_array(v_key, p_value);
    select v into v_bad from unnest(v_values) v
      where v !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' limit 1;
    if found then
      perform structured.filter_error(v_key, format('filter "%s": "%s" is not a UUID', v_key, v_bad));
    end if;
    if cardinality(v_values) = 0 then
      return 'true';
    end if;
    return format('exists (select 1 from public.collection_documents cd where cd.judgment_id = j.id and cd.collection_id = any (%L::uuid[]))', v_values);

  else
    perform structured.filter_error(v_key, format('filter "%s" has no filter control', v_key));
  end case;
  return 'true';
end
$$;

-- The whole WHERE condition (alias j) for a filter object and text query; p_skip_key leaves one key out (facets
-- count a field's values under every other clause). Always restricted to completed extractions.
create or replace function structured.filter_predicate(p_filters jsonb, p_text_query text, p_skip_key text default null)
  returns text
  language plpgsql stable
  set search_path = ''
  as $$
declare
  -- SQL NULL and JSON null both mean no filter.
  v_filters jsonb := coalesce(nullif(p_filters, 'null'::jsonb), '{}'::jsonb);
  v_parts text[] := array['j.base_extraction_status = ''completed'''];
  v_key text;
  v_value jsonb;
  v_field structured.filter_fields;
  v_query text := btrim(coalesce(p_text_query, ''));
begin
  if jsonb_typeof(v_filters) <> 'object' then
    perform structured.filter_error('filters', 'filters must be a JSON object');
  end if;
  for v_key, v_value in select e.key, e.value from jsonb_each(v_filters) e order by e.key loop
    continue when v_key = p_skip_key;
    select * into v_field from structured.filter_fields f where f.key = v_key and f.filterable;
    if not found then
      -- D-06: an ignored key would silently widen the cohort.
      perform structured.filter_error(v_key, format('unknown filter key "%s"', v_key));
    end if;
    v_parts := v_parts || structured.filter_clause(v_field, v_value);
  end loop;
  -- Web-search syntax (quotes, OR, -exclusion); a query without any lexeme adds no clause.
  if v_query <> '' and numnode(websearch_to_tsquery('simple'::regconfig, public.immutable_unaccent(v_query))) > 0 then
    v_parts := v_parts || format(
      '(j.core_search_tsv || j.base_search_tsv) @@ websearch_to_tsquery(''simple''::regconfig, public.immutable_unaccent(%L))',
      v_query);
  end if;
  return array_to_string(array(select p from unnest(v_parts) p where p <> 'true'), ' and ');
end
$$;

create or replace function public.list_extracted_filter_matches(p_filters jsonb, p_text_query text)
  returns table (id uuid, jurisdiction text)
  language plpgsql stable security invoker
  -- Cohorts are usually thousands of rows; the default estimate (1000) made callers pick per-row index probes.
  rows 5000
  set search_path = ''
  as $$
begin
  return query execute
    'select j.id, j.jurisdiction from public.judgments j where ' || structured.filter_predicate(p_filters, p_text_query);
end
$$;
comment on function public.list_extracted_filter_matches(jsonb, text) is
  'Every completed judgment matching a BaseSchemaFilters object and optional web-search text query: the one matching predicate.';

-- A page of the matches, decision_date desc nulls last then id asc (D-28); limit clamped to 1..100 (default 20),
-- offset to 0..10000. The page is cut before the wide columns are read.
create or replace function public.filter_documents_by_extracted_data(
  p_filters jsonb default '{}'::jsonb,
  p_text_query text default null,
  p_limit integer default 20,
  p_offset integer default 0
)
  returns table (id uuid, case_number text, title text, jurisdiction text, decision_date date, extracted_data jsonb, total_count bigint)
  language sql stable security invoker
  set search_path = ''
  as $$
  with matched as (
    select m.id, j.decision_date, count(*) over () as total_count
    from public.list_extracted_filter_matches(p_filters, p_text_query) m
    join public.judgments j on j.id = m.id
  ),
  page as (
    select * from matched
    order by decision_date desc nulls last, id
    limit least(greatest(coalesce(p_limit, 20), 1), 100)
    offset least(greatest(coalesce(p_offset, 0), 0), 10000)
  )
  select j.id, j.case_number, j.title, j.jurisdiction, j.decision_date, j.base_raw_extraction, p.total_count
  from page p
  join public.judgments j on j.id = p.id
  order by p.decision_date desc nulls last, p.id
$$;

-- The aggregate (structured.aggregate_expression, public.aggregate_extracted_data) is defined in
-- 20260103000300_structured_aggregate_single_pass.sql.

-- Top values of one any-of field among the judgments matching every other clause of the filter (disjunctive
-- faceting: the field's own selection does not hide its alternatives), optionally narrowed to values containing
-- p_query (case- and accent-insensitive). p_limit clamped to 1..100 (default 20).
create or replace function public.facet_extracted_values(
  p_field text,
  p_filters jsonb default '{}'::jsonb,
  p_text_query text default null,
  p_query text default null,
  p_limit integer default 20
)
  returns table (value text, count bigint)
  language plpgsql stable security invoker
  set search_path = ''
  as $$
declare
  v_field structured.filter_fields;
  v_values text;
  v_query text := btrim(coalesce(p_query, ''));
begin
  select * into v_field from structured.filter_fields f
   where f.key = p_field and f.control in ('enum_multi', 'tag_array') and f.db_type in ('text', 'text[]');
  if not found then
    raise exception 'field "%" has no facet values', coalesce(p_field, 'null') using errcode = 'SF002', detail = coalesce(p_field, 'null');
  end if;
  v_values := case when v_field.db_type = 'text[]'
    then format('select distinct j.id, e as v from public.judgments j, unnest(j.%I) e where %s', v_field.column_name,
                structured.filter_predicate(p_filters, p_text_query, p_field))
    else format('select j.id, j.%I as v from public.judgments j where %s', v_field.column_name,
                structured.filter_predicate(p_filters, p_text_query, p_field)) end;
  return query execute format(
    'select x.v, count(*) from (%s) x where x.v <> '''' %s group by x.v order by count(*) desc, x.v limit %s',
    v_values,
    case when v_query = '' then ''
      else format('and public.immutable_unaccent(x.v) ilike public.immutable_unaccent(%L) escape ''\''',
        '%' || replace(replace(replace(v_query, '\', '\\'), '%', '\%'), '_', '\_') || '%') end,
    least(greatest(coalesce(p_limit, 20), 1), 100));
end
$$;

do $$
declare
  fn text;
begin
  foreach fn in array array[
    'public.list_extracted_filter_matches(jsonb, text)',
    'public.filter_documents_by_extracted_data(jsonb, text, integer, integer)',
    'public.facet_extracted_values(text, jsonb, text, text, integer)',
    'structured.filter_error(text, text)',
    'structured.iso_date(text)',
    'structured.string_array(text, jsonb)',
    'structured.filter_clause(structured.filter_fields, jsonb)',
    'structured.filter_predicate(jsonb, text, text)'
  ] loop
    execute format('revoke all on function %s from public, anon', fn);
    execute format('grant execute on function %s to authenticated, service_role', fn);
  end loop;
end
$$;
