-- structured.filter_clause, two changes to the function of 20260103000200:
--   * the registry's value_pattern (migration 20261209040000): an any-of key whose values have a form (cites: provision
--     ids and judgment ids, lib/schema/provision-id.ts) refuses a value that does not match it, SF001 naming the key, as
--     the filter parser does (lib/schema/filters.ts), so a mistyped provision is a 422 FILTER_INVALID rather than an
--     empty cohort;
--   * numeric ranges on integer columns compare in the integer type family (bigint literals), so the column's btree
--     index takes part in the plan; `col >= '60'::numeric` cast every row and left the range to a heap filter.
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
  v_num numeric;
  v_lo_num numeric;
  v_hi_num numeric;
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
    if p_field.value_pattern is not null then
      select v into v_bad from unnest(v_values) v where v !~ p_field.value_pattern limit 1;
      if found then
        perform structured.filter_error(v_key, format('filter "%s": "%s" is not a provision id or judgment id', v_key, left(v_bad, 100)));
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
    -- A number (equality) or {min,max} with either bound optional, inclusive. Bounds are compared in the column's own
    -- type family so its btree index can join a bitmap AND: an integer column compared with a numeric literal is cast
    -- row by row and its index never used (the 10x cohort figure, docs/cohorts.md). An integer column takes whole
    -- bounds (ceil of min, floor of max, as bigint so the int4/int8 operators apply); a fractional equality matches none.
    if jsonb_typeof(p_value) = 'number' then
      if p_field.db_type = 'integer' then
        v_num := (p_value #>> '{}')::numeric;
        if v_num <> trunc(v_num) or abs(v_num) > 9223372036854775807 then
          return 'false';
        end if;
        return format('%s = %L::bigint', v_col, v_num);
      end if;
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
    if p_field.db_type = 'integer' then
      v_lo_num := ceil((v_lo #>> '{}')::numeric);
      v_hi_num := floor((v_hi #>> '{}')::numeric);
      -- Past bigint's range a bound excludes every row.
      if v_lo_num > 9223372036854775807 or v_hi_num < -9223372036854775808 then
        return 'false';
      end if;
      -- A bound below (above) every bigint still excludes a null, as a numeric comparison would: clamp it.
      -- (greatest/least skip nulls, so an absent bound stays absent only through the guard.)
      if v_lo_num is not null then v_lo_num := greatest(v_lo_num, -9223372036854775808); end if;
      if v_hi_num is not null then v_hi_num := least(v_hi_num, 9223372036854775807); end if;
      return concat_ws(' and ',
        case when v_lo_num is not null then format('%s >= %L::bigint', v_col, v_lo_num) end,
        case when v_hi_num is not null then format('%s <= %L::bigint', v_col, v_hi_num) end,
        case when v_lo_num is null and v_hi_num is null then 'true' end);
    end if;
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
