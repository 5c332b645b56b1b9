-- Completeness constants (spec: Other records), the SQL twin of lib/schema/completeness.ts.
-- tests/db/completeness-parity.test.ts checks both give the same answers; change them together.
-- All functions are pure: IMMUTABLE, SECURITY INVOKER, search_path pinned, one overload each.

create or replace function public.completed_statuses() returns text[]
  language sql immutable parallel safe
  set search_path = ''
  as $$ select array['completed', 'success', 'partially_completed']::text[] $$;

create or replace function public.empty_markers() returns text[]
  language sql immutable parallel safe
  set search_path = ''
  as $$ select array['', 'n/a', 'na', 'not available', 'none', 'null', 'unknown', 'brak', 'brak danych',
                     'nie dotyczy', 'not applicable']::text[] $$;

-- Trim only ASCII whitespace (space, \t, \n, \r, \f, \v), exactly like trimAscii() in TypeScript.
create or replace function public.is_completed_status(p_status text) returns boolean
  language sql immutable parallel safe
  set search_path = ''
  as $$ select coalesce(lower(pg_catalog.btrim(p_status, E' \t\n\r\f\x0B')) = any (public.completed_statuses()), false) $$;

-- Empty: SQL NULL, JSON null, [] , {}, or a marker string. 0 and false are values.
create or replace function public.is_empty(p_value jsonb) returns boolean
  language sql immutable parallel safe
  set search_path = ''
  as $$
    select case
      when p_value is null then true
      else case pg_catalog.jsonb_typeof(p_value)
        when 'null' then true
        when 'string' then lower(pg_catalog.btrim(p_value #>> '{}', E' \t\n\r\f\x0B')) = any (public.empty_markers())
        when 'array' then pg_catalog.jsonb_array_length(p_value) = 0
        when 'object' then p_value = '{}'::jsonb
        else false
      end
    end
  $$;

-- Typed enum-coded columns count as empty only when NULL or ''.
create or replace function public.is_empty_enum_value(p_value text) returns boolean
  language sql immutable parallel safe
  set search_path = ''
  as $$ select p_value is null or p_value = '' $$;

-- Nested objects → dotted keys; arrays, scalars and empty objects are leaves. A non-object input gives {}.
create or replace function public.flatten_dotted(p_value jsonb) returns jsonb
  language sql immutable parallel safe
  set search_path = ''
  as $$
    with recursive walk(path, value) as (
      select e.key, e.value
      from pg_catalog.jsonb_each(case when pg_catalog.jsonb_typeof(p_value) = 'object' then p_value else '{}'::jsonb end) as e
      union all
      select w.path || '.' || c.key, c.value
      from walk w
      cross join lateral pg_catalog.jsonb_each(w.value) as c
      where pg_catalog.jsonb_typeof(w.value) = 'object' and w.value <> '{}'::jsonb
    )
    select coalesce(pg_catalog.jsonb_object_agg(path, value), '{}'::jsonb)
    from walk
    where not (pg_catalog.jsonb_typeof(value) = 'object' and value <> '{}'::jsonb)
  $$;

-- covered/total rounded to 4 decimals (half away from zero), NULL when total is 0 (or either side is NULL).
create or replace function public.coverage_ratio(p_covered integer, p_total integer) returns numeric
  language sql immutable parallel safe
  set search_path = ''
  as $$ select case when p_total = 0 then null else round(p_covered::numeric / p_total, 4) end $$;

grant execute on function public.completed_statuses(), public.empty_markers(), public.is_completed_status(text),
  public.is_empty(jsonb), public.is_empty_enum_value(text), public.flatten_dotted(jsonb),
  public.coverage_ratio(integer, integer)
  to anon, authenticated, service_role;
