-- Judgment detail reads for the document endpoints (GET /api/documents/{id}/metadata, /html; POST
-- /api/documents/batch). SECURITY INVOKER: judgments are readable by anon and authenticated (policy
-- judgments_read_all), so RLS and grants stay the gate. Index-internal columns are left out.

create or replace function public.judgment_detail(p_id uuid)
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  select to_jsonb(j) - 'base_search_tsv' - 'search_baseline_tsv' - 'core_search_tsv' - 'base_raw_extraction' - 'source_id'
    from public.judgments j
   where j.id = p_id
$$;

-- Summary records of up to 100 judgments (MAX_BATCH_DOCUMENT_IDS), without full text; unknown ids are skipped.
create or replace function public.judgments_by_ids(p_ids uuid[])
returns setof jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  select to_jsonb(j) - 'full_text' - 'base_search_tsv' - 'search_baseline_tsv' - 'core_search_tsv' - 'base_raw_extraction' - 'source_id'
    from public.judgments j
   where j.id = any (p_ids[1:100])
$$;

revoke execute on function public.judgment_detail(uuid) from public;
revoke execute on function public.judgments_by_ids(uuid[]) from public;
grant execute on function public.judgment_detail(uuid) to anon, authenticated, service_role;
grant execute on function public.judgments_by_ids(uuid[]) to anon, authenticated, service_role;
