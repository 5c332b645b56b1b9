-- export_extracted_rows built each row as to_jsonb(j) less the long texts, but to_jsonb reads (and detoasts) every
-- column first, full text included: that was most of an export's time. The row is now built from the short columns
-- only, listed from the catalogue at each call so a column added later is exported without another migration.
create or replace function public.export_extracted_rows(
  p_filters jsonb default '{}'::jsonb,
  p_text_query text default null,
  p_limit integer default 1000,
  p_offset integer default 0
)
  returns setof jsonb
  language plpgsql stable security invoker
  set search_path = ''
  as $$
declare
  cols text;
begin
  select string_agg('j.' || quote_ident(a.attname), ', ' order by a.attnum) into cols
    from pg_catalog.pg_attribute a
   where a.attrelid = 'public.judgments'::regclass and a.attnum > 0 and not a.attisdropped
     and a.atttypid <> 'tsvector'::regtype
     and a.attname not in ('full_text', 'full_html', 'summary', 'source_hash', 'source_references', 'base_raw_extraction', 'source_id', 'judges');
  return query execute format(
    'select to_jsonb(x) from (
       select %s
         from public.list_extracted_filter_matches($1, $2) m
         join public.judgments j on j.id = m.id
        order by j.decision_date desc nulls last, j.id
        limit $3 offset $4) x',
    cols)
    using p_filters, p_text_query, least(greatest(coalesce(p_limit, 1000), 1), 1000), least(greatest(coalesce(p_offset, 0), 0), 10000);
end
$$;
