-- Faceted value lists for the filter popovers: public.facet_extracted_values gains p_include, values whose count in
-- the cohort is always returned, 0 when none of the cohort's judgments has them. The page passes a field's fixed
-- value set and the user's own selection, so a value outside the cohort is shown as 0 (greyed, at the end) rather
-- than with a whole-corpus count or not at all. The top values are still counted under every other clause of the
-- filter (the field's own selection does not hide its alternatives), in one pass over the cohort.
-- Exactly one overload: the five-argument version is replaced.

drop function if exists public.facet_extracted_values(text, jsonb, text, text, integer);

create or replace function public.facet_extracted_values(
  p_field text,
  p_filters jsonb default '{}'::jsonb,
  p_text_query text default null,
  p_query text default null,
  p_limit integer default 20,
  p_include text[] default null
)
  returns table (value text, count bigint)
  language plpgsql stable security invoker
  set search_path = ''
  as $$
declare
  v_field structured.filter_fields;
  v_values text;
  v_query text := btrim(coalesce(p_query, ''));
  v_include text[];
begin
  select * into v_field from structured.filter_fields f
   where f.key = p_field and f.control in ('enum_multi', 'tag_array') and f.db_type in ('text', 'text[]');
  if not found then
    raise exception 'field "%" has no facet values', coalesce(p_field, 'null') using errcode = 'SF002', detail = coalesce(p_field, 'null');
  end if;
  if cardinality(p_include) > 100 then
    raise exception 'p_include takes at most 100 values' using errcode = 'SF003', detail = 'include';
  end if;
  -- A value outside a fixed set cannot occur, so it is not reported (not even as 0).
  v_include := array(select distinct i from unnest(coalesce(p_include, '{}'::text[])) i
                      where i <> '' and (v_field.enum_values is null or i = any (v_field.enum_values)));
  v_values := case when v_field.db_type = 'text[]'
    then format('select distinct j.id, e as v from public.judgments j, unnest(j.%I) e where %s', v_field.column_name,
                structured.filter_predicate(p_filters, p_text_query, p_field))
    else format('select j.id, j.%I as v from public.judgments j where %s', v_field.column_name,
                structured.filter_predicate(p_filters, p_text_query, p_field)) end;
  return query execute format(
    'with counted as materialized (select x.v, count(*) as n from (%s) x where x.v <> '''' group by x.v),
          best as (select c.v, c.n from counted c where true %s order by c.n desc, c.v limit %s),
          included as (select i.v, coalesce(c.n, 0)::bigint as n from unnest(%L::text[]) as i(v) left join counted c on c.v = i.v)
     select u.v, u.n from (select * from best union select * from included) u order by u.n desc, u.v',
    v_values,
    case when v_query = '' then ''
      else format('and public.immutable_unaccent(c.v) ilike public.immutable_unaccent(%L) escape ''\''',
        '%' || replace(replace(replace(v_query, '\', '\\'), '%', '\%'), '_', '\_') || '%') end,
    least(greatest(coalesce(p_limit, 20), 1), 100),
    v_include);
end
$$;

comment on function public.facet_extracted_values(text, jsonb, text, text, integer, text[]) is
  'Top values of one any-of field among the judgments matching every other filter clause, plus each p_include value with its count there (0 when absent).';

revoke all on function public.facet_extracted_values(text, jsonb, text, text, integer, text[]) from public, anon;
grant execute on function public.facet_extracted_values(text, jsonb, text, text, integer, text[]) to authenticated, service_role;
