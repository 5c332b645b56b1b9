-- Aggregate in one pass (7 default fields over the whole corpus p50 ≤ 60 ms), over the matching
-- predicate of 20260103000200_structured_search.sql (one overload each):
-- - the cohort is read once, with the matching predicate of list_extracted_filter_matches (structured.filter_predicate),
--   together with the counted columns, instead of listing ids and fetching every row again by id;
-- - the rows are not materialized: the scan feeds one hash aggregate with a grouping set per counted column (values
--   cleaned as they are read: '' and null elements dropped, empty → null), and every distribution is built from those
--   groups (hundreds of rows) instead of re-reading the cohort once per field. Multi-valued columns are grouped by
--   whole list; each distinct list is unnested once, weighted by its row count (a value repeated inside one list
--   counted once, by its first position). Year fields are grouped by year, numeric fields by value.
-- - the text and text[] columns of the filter registry are stored inline (STORAGE MAIN, below), so reading them does
--   not fetch TOAST chunks: with EXTENDED storage the toaster moved many small lists out of line (1,649 of 12,307
--   convict_offences on the corpus) because the rows are wide; MAIN keeps them in the row (compressed only if needed,
--   out of line only as a last resort) and the wide columns (full_text, raw extraction, summary…) go out first.
-- Semantics are unchanged (tests/db/structured-aggregate.test.ts).

-- Storage only: no value changes, nothing is rewritten here (rows written after this keep the lists inline; a table
-- filled earlier would need a rewrite, e.g. VACUUM FULL, to benefit). A field added to the registry later should get
-- the same setting in its migration. Measured with the aggregate below: whole corpus, 7 default fields ~53 → ~41 ms;
-- filter + text query ~40 → ~27 ms (docs/structured-search.md).
do $$
declare
  v_col text;
begin
  for v_col in
    select f.column_name from structured.filter_fields f
    where (f.filterable or f.aggregable) and f.db_type in ('text', 'text[]')
    order by f.column_name
  loop
    execute format('alter table public.judgments alter column %I set storage main', v_col);
  end loop;
end
$$;

create or replace function structured.aggregate_expression(p_field structured.filter_fields, p_top_n integer)
  returns text
  language plpgsql immutable
  set search_path = ''
  as $$
declare
  -- The field's grouping set in g (see aggregate_extracted_data): one row per distinct value v with its row count n.
  v_src text := format('(select g.%I as v, g.n from g where g.%I = 0)', p_field.column_name, 'grouping_' || p_field.column_name);
  v_col text := 'd.v';
  v_num_out text;
begin
  if p_field.db_type in ('text', 'boolean', 'text[]') then
    -- Categorical: top_n values by count (ties by value), `other` = counts beyond them, `null` = rows without a
    -- value (null, '' or an empty list), `covered` = rows with one. Multi columns count a row once per value.
    return format($q$(
      select jsonb_build_object(
        'kind', 'categorical',
        'multi', %3$s,
        'values', coalesce(jsonb_agg(jsonb_build_object('value', to_jsonb(r.v), 'count', r.c) order by r.rn)
                           filter (where r.v is not null and r.rn <= %2$s), '[]'::jsonb),
        'other', coalesce(sum(r.c) filter (where r.v is not null and r.rn > %2$s), 0)::bigint,
        'null', coalesce(sum(r.c) filter (where r.v is null), 0)::bigint,
        'covered', %4$s)
      from (
        select g.v, g.c, row_number() over (partition by g.v is null order by g.c desc, g.v::text) as rn
        from (%1$s) g
      ) r)$q$,
      case p_field.db_type
        -- g groups multi columns by their cleaned list (no '' or null elements; null when nothing is left), so rows
        -- without a value are one group. Each distinct list is unnested once, weighted by its row count; an element
        -- counts only at its first position in its list, so a value repeated in one row counts once.
        when 'text[]' then format(
          'select null::text as v, coalesce(sum(d.n), 0)::bigint as c from %1$s d where d.v is null
           union all
           select y.e, sum(y.n)::bigint from (select unnest(d.v) as e, generate_subscripts(d.v, 1) as i, d.v as a, d.n from %1$s d) y
           where array_position(y.a, y.e) = y.i group by y.e',
          v_src)
        else format('select d.v, d.n as c from %s d', v_src)
      end,
      p_top_n,
      (p_field.db_type = 'text[]')::text,
      -- A multi row can carry several values, so covered is rows minus rows without any.
      case when p_field.db_type = 'text[]'
        then '(select n from sn) - coalesce(sum(r.c) filter (where r.v is null), 0)::bigint'
        else 'coalesce(sum(r.c) filter (where r.v is not null), 0)::bigint' end);
  elsif p_field.db_type in ('integer', 'numeric') then
    -- Numeric: at most 20 equal-width buckets [lo, hi) from min to max (integer columns: integer width, so every
    -- bucket holds whole numbers; numeric columns: the last bucket also holds max), empty buckets included.
    v_num_out := case when p_field.db_type = 'integer' then '%s::bigint' else '%s::float8' end;
    return format($q$(
      select jsonb_build_object(
        'kind', 'numeric',
        'buckets', case when st.cov = 0 then '[]'::jsonb else (
          select jsonb_agg(jsonb_build_object(
                   'lo', to_jsonb(%2$s),
                   'hi', to_jsonb(%3$s),
                   'count', coalesce(b.c, 0)) order by k.k)
          from generate_series(0, st.nb - 1) k(k)
          left join (
            select least(%4$s, st.nb - 1) as k, sum(d.n)::bigint as c
            from %8$s d where d.v is not null group by 1
          ) b on b.k = k.k) end,
        'min', to_jsonb(%5$s),
        'max', to_jsonb(%6$s),
        'null', st.nulls,
        'covered', st.cov)
      from (
        select a.mn, a.mx, a.cov, a.nulls, w.w, w.nb
        from (select min(d.v)::numeric as mn, max(d.v)::numeric as mx,
                     coalesce(sum(d.n) filter (where d.v is not null), 0)::bigint as cov,
                     coalesce(sum(d.n) filter (where d.v is null), 0)::bigint as nulls from %8$s d) a
        cross join lateral (select %7$s) w
      ) st)$q$,
      v_col,
      format(v_num_out, 'st.mn + k.k * st.w'),
      format(v_num_out, case when p_field.db_type = 'integer' then 'st.mn + (k.k + 1) * st.w'
                             else 'case when k.k = st.nb - 1 then st.mx else st.mn + (k.k + 1) * st.w end' end),
      case when p_field.db_type = 'integer' then format('floor((%s - st.mn) / st.w)::int', v_col)
           else format('case when st.w = 0 then 0 else floor((%s - st.mn) / st.w)::int end', v_col) end,
      format(v_num_out, 'st.mn'),
      format(v_num_out, 'st.mx'),
      case when p_field.db_type = 'integer'
        then 'ceil((a.mx - a.mn + 1) / 20.0) as w, ceil((a.mx - a.mn + 1) / ceil((a.mx - a.mn + 1) / 20.0))::int as nb'
        else '(a.mx - a.mn) / 20 as w, case when a.mx = a.mn then 1 else 20 end as nb' end,
      v_src);
  elsif p_field.db_type in ('date', 'timestamptz') then
    -- Year: every year present, ascending, as a string.
    return format($q$(
      select jsonb_build_object(
        'kind', 'year',
        'values', coalesce(jsonb_agg(jsonb_build_object('value', g.y::text, 'count', g.c) order by g.y)
                           filter (where g.y is not null), '[]'::jsonb),
        'null', coalesce(sum(g.c) filter (where g.y is null), 0)::bigint,
        'covered', coalesce(sum(g.c) filter (where g.y is not null), 0)::bigint)
      from (select d.v as y, d.n as c from %s d) g)$q$,
      -- g already groups date columns by year (the key aggregate_extracted_data reads).
      v_src);
  end if;
  raise exception 'field "%" is not aggregable', p_field.key using errcode = 'SF002', detail = p_field.key;
end
$$;

create or replace function public.aggregate_extracted_data(
  p_filters jsonb default '{}'::jsonb,
  p_text_query text default null,
  p_fields text[] default null,
  p_sample_size integer default null,
  p_seed integer default null,
  p_top_n integer default 20
)
  returns jsonb
  language plpgsql stable security invoker
  set search_path = ''
  as $$
declare
  v_fields text[];
  v_top_n integer := coalesce(p_top_n, 20);
  v_sample integer;
  v_field structured.filter_fields;
  v_name text;
  v_columns text[] := array[]::text[];
  v_select text[] := array['j.id'];
  v_keys text[] := array[]::text[];
  v_sets text[] := array[]::text[];
  v_exprs text[] := array[]::text[];
  v_sql text;
  v_result jsonb;
begin
  -- Checked before the cohort query runs (spec rule 3).
  if p_fields is null then
    v_fields := array(select f.key from structured.filter_fields f
                      where f.default_aggregate_position is not null order by f.default_aggregate_position);
  else
    if cardinality(p_fields) not between 1 and 50 then
      raise exception 'fields must hold 1 to 50 entries' using errcode = 'SF003', detail = 'fields';
    end if;
    -- Duplicates collapse (the result is keyed by field name); order of first appearance is kept.
    v_fields := array(select x.f from unnest(p_fields) with ordinality x(f, i) group by x.f order by min(x.i));
  end if;
  if v_top_n not between 1 and 100 then
    raise exception 'top_n must be between 1 and 100' using errcode = 'SF003', detail = 'top_n';
  end if;
  if p_sample_size is not null and p_seed is null then
    raise exception 'seed is required when sample_size is given' using errcode = 'SF002', detail = 'seed';
  end if;
  foreach v_name in array v_fields loop
    select * into v_field from structured.filter_fields f where f.key = v_name and f.aggregable;
    if not found then
      raise exception 'field "%" is not aggregable', coalesce(v_name, 'null')
        using errcode = 'SF002', detail = coalesce(v_name, 'null');
    end if;
    if not v_field.column_name = any (v_columns) then
      v_columns := v_columns || v_field.column_name;
      -- Values are cleaned while the cohort is read: '' counts as no value, lists lose '' and null elements (empty →
      -- null), so equal cleaned values fall in one group.
      v_select := v_select || case v_field.db_type
        when 'text[]' then format('nullif(array_remove(array_remove(j.%1$I, ''''), null), ''{}'') as %1$I', v_field.column_name)
        when 'text' then format('nullif(j.%1$I, '''') as %1$I', v_field.column_name)
        -- Year fields are counted by year, so they are grouped by it.
        when 'date' then format('extract(year from j.%1$I)::int as %1$I', v_field.column_name)
        when 'timestamptz' then format('extract(year from (j.%1$I at time zone ''UTC''))::int as %1$I', v_field.column_name)
        else format('j.%I', v_field.column_name) end;
      v_keys := v_keys || format('grouping(s.%1$I) as %2$I, s.%1$I', v_field.column_name, 'grouping_' || v_field.column_name);
      v_sets := v_sets || format('(s.%I)', v_field.column_name);
    end if;
    v_exprs := v_exprs || format('jsonb_build_object(%L, %s)', v_name, structured.aggregate_expression(v_field, v_top_n));
  end loop;
  -- D-14: out-of-range sample sizes are refused upstream; here they are clamped. D-13: size ≥ cohort = whole cohort.
  v_sample := case when p_sample_size is not null then least(greatest(p_sample_size, 1), 20000) end;

  -- One pass over the table: the cohort is read with the matching predicate list_extracted_filter_matches executes
  -- (the same structured.filter_predicate, not a re-implementation; tests/db/structured-aggregate.test.ts checks the
  -- totals agree), and grouped at once by every counted column (one grouping set per column, all hashed in the same
  -- pass), so each field's distribution is computed from a few hundred groups rather than from the cohort's rows,
  -- and the rows are neither fetched a second time nor materialized.
  v_sql := format($q$
    with %s,
    g as materialized (
      select %s, count(*) as n from s group by grouping sets (%s)
    ),
    sn as (select coalesce(sum(g.n), 0)::bigint as n from g where g.%I = 0)
    select jsonb_build_object(
      'total', %s,
      'sample_n', (select n from sn),
      'seed', $1,
      'fields', %s)$q$,
    format(case when v_sample is null then 's as (select %s from public.judgments j where %s)'
                -- Exact-n and deterministic: the same cohort and seed always give the same rows.
                else 'cohort as materialized (select %s from public.judgments j where %s),
    s as materialized (select * from cohort c order by md5(c.id::text || '':'' || $1::text), c.id limit $2)' end,
      array_to_string(v_select, ', '),
      structured.filter_predicate(p_filters, p_text_query)),
    array_to_string(v_keys, ', '),
    array_to_string(v_sets, ', '),
    'grouping_' || v_columns[1],
    case when v_sample is null then '(select n from sn)' else '(select count(*) from cohort)' end,
    array_to_string(v_exprs, ' || '));
  execute v_sql into v_result using p_seed, v_sample;
  return v_result;
end
$$;
comment on function public.aggregate_extracted_data(jsonb, text, text[], integer, integer, integer) is
  'Distributions of extracted fields over the cohort of list_extracted_filter_matches (or an exact-n seeded sample of it).';

-- D-02: signed-in users and the service role only.
do $$
declare
  fn text;
begin
  foreach fn in array array[
    'public.aggregate_extracted_data(jsonb, text, text[], integer, integer, integer)',
    'structured.aggregate_expression(structured.filter_fields, integer)'
  ] loop
    execute format('revoke all on function %s from public, anon', fn);
    execute format('grant execute on function %s to authenticated, service_role', fn);
  end loop;
end
$$;
