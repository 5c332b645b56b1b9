-- Security review L13: anon could `select` every column of public.judgments, so behind a real PostgREST anyone with
-- the (public) anon key could bulk-read the corpus past the app's limits and guest allowance. Take that away:
--   * anon loses SELECT on the table (and the read policy is for authenticated only);
--   * judgment_detail (one judgment by id: the public document page, GET /api/documents/{id}/metadata and /html for
--     guests) becomes SECURITY DEFINER: why: it is the one read a guest needs, it returns one row for an id the
--     caller already holds, the same record the public page shows, and nothing lists ids to anon;
--   * judgments_by_ids (POST /api/documents/batch, sign-in only) is no longer executable by anon.
-- Guests' searches, autocomplete, suggest and similar go through the search engine, never the table.

revoke select on table public.judgments from anon;
drop policy if exists judgments_read_all on public.judgments;
create policy judgments_read_authenticated on public.judgments for select to authenticated using (true);

create or replace function public.judgment_detail(p_id uuid)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select to_jsonb(j) - 'base_search_tsv' - 'search_baseline_tsv' - 'core_search_tsv' - 'base_raw_extraction' - 'source_id'
    from public.judgments j
   where j.id = p_id
$$;

revoke execute on function public.judgment_detail(uuid) from public;
grant execute on function public.judgment_detail(uuid) to anon, authenticated, service_role;
revoke execute on function public.judgments_by_ids(uuid[]) from public, anon;
grant execute on function public.judgments_by_ids(uuid[]) to authenticated, service_role;
