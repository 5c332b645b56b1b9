-- Rows of a structured-filter cohort for the export (lib/backend/exports): the judgment row as jsonb without its long
-- texts, in the filter page's order (newest decision first, then id), up to 1,000 per call. The filter page answers
-- 100 rows per call and re-runs the match, count and sort for each, and the rows then need a second call
-- (judgments_by_ids): 50 pairs for a 5,000-row export, against 5 calls here. The same matching predicate, caller's
-- RLS (security invoker), and the same offset cap as the filter page.
create or replace function public.export_extracted_rows(
  p_filters jsonb default '{}'::jsonb,
  p_text_query text default null,
  p_limit integer default 1000,
  p_offset integer default 0
)
  returns setof jsonb
  language sql stable security invoker
  set search_path = ''
  as $$
  select to_jsonb(j) - 'full_text' - 'full_html' - 'summary' - 'source_hash' - 'source_references' - 'base_search_tsv'
         - 'search_baseline_tsv' - 'core_search_tsv' - 'base_raw_extraction' - 'source_id'
    from public.list_extracted_filter_matches(p_filters, p_text_query) m
    join public.judgments j on j.id = m.id
   order by j.decision_date desc nulls last, j.id
   limit least(greatest(coalesce(p_limit, 1000), 1), 1000)
  offset least(greatest(coalesce(p_offset, 0), 0), 10000)
$$;
revoke all on function public.export_extracted_rows(jsonb, text, integer, integer) from public, anon;
grant execute on function public.export_extracted_rows(jsonb, text, integer, integer) to authenticated, service_role;
comment on function public.export_extracted_rows(jsonb, text, integer, integer) is
  'Export rows of a structured-filter cohort (no long texts), in the filter page''s order, up to 1,000 per call.';
