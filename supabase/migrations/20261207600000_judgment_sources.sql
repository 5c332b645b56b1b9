-- Real judgments from their sources (SAOS, Find Case Law, JuDDGES; `npm run import`, docs/ingestion.md):
--   * source: which importer wrote the row ('jsonl' for today's JSONL ingestion and the demo corpus); with source_id
--     it is the upsert key, so the same upstream id from two sources never collides and a re-run updates in place.
--     The single-column unique constraint on source_id gives way to the (source, source_id) unique index.
--   * licence: the licence and attribution the source publishes under, shown on the judgment page.
--   * source_references: structured references the source carries (other judgments by case number / neutral citation /
--     source ids, legislation by journal address / ISAP id / legislation.gov.uk URI), for the citator.
--   * full_html: the source's own markup of the text, sanitised on import (paragraph numbers, headings, links kept);
--     the page renders it instead of rebuilding paragraphs from full_text when present.
--   * source_hash: sha-256 of the mapped record, so an unchanged record is skipped (no write, no re-index).

alter table public.judgments
  add column if not exists source text not null default 'jsonl',
  add column if not exists licence text,
  add column if not exists source_references jsonb not null default '[]'::jsonb,
  add column if not exists full_html text,
  add column if not exists source_hash text;

do $do$
begin
  if not exists (select 1 from pg_catalog.pg_constraint where conname = 'judgments_source_check') then
    alter table public.judgments add constraint judgments_source_check
      check (source in ('jsonl', 'saos', 'fcl', 'juddges'));
  end if;
  if not exists (select 1 from pg_catalog.pg_constraint where conname = 'judgments_source_references_check') then
    alter table public.judgments add constraint judgments_source_references_check
      check (jsonb_typeof(source_references) = 'array');
  end if;
  if not exists (select 1 from pg_catalog.pg_constraint where conname = 'judgments_source_url_scheme_check') then
    alter table public.judgments add constraint judgments_source_url_scheme_check
      check (source_url is null or source_url ~* '^https?://') not valid;
  end if;
end
$do$;

alter table public.judgments drop constraint if exists judgments_source_id_key;
create unique index if not exists judgments_source_source_id_key on public.judgments (source, source_id);

comment on column public.judgments.source is 'Importer that wrote the row: jsonl (JSONL ingestion, demo corpus), saos, fcl, juddges.';
comment on column public.judgments.licence is 'Licence and attribution of the source the row came from (shown on the judgment page).';
comment on column public.judgments.source_references is
  'Structured references carried by the source: [{kind: judgment|legislation, text, ...}] (docs/ingestion.md).';
comment on column public.judgments.full_html is 'Sanitised HTML of the text as the source marked it up; null for plain-text rows.';
comment on column public.judgments.source_hash is 'sha-256 of the imported record; an unchanged re-import is skipped.';

-- The version trigger compares every column; regenerate its body for the new ones.
select public.judgment_versions_define_trigger();

-- The batch summary records stay small: no full text, no source markup, no import bookkeeping.
create or replace function public.judgments_by_ids(p_ids uuid[])
returns setof jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  select to_jsonb(j) - 'full_text' - 'full_html' - 'source_hash' - 'source_references' - 'base_search_tsv'
         - 'search_baseline_tsv' - 'core_search_tsv' - 'base_raw_extraction' - 'source_id'
    from public.judgments j
   where j.id = any (p_ids[1:100])
$$;
revoke execute on function public.judgments_by_ids(uuid[]) from public, anon;
grant execute on function public.judgments_by_ids(uuid[]) to authenticated, service_role;

-- One judgment for the page and the detail routes: as before, less the import bookkeeping (SECURITY DEFINER: why:
-- unchanged from 20261124000500, the one read a guest needs, one row for an id the caller already holds).
create or replace function public.judgment_detail(p_id uuid)
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select to_jsonb(j) - 'base_search_tsv' - 'search_baseline_tsv' - 'core_search_tsv' - 'base_raw_extraction' - 'source_id'
         - 'source_hash'
    from public.judgments j
   where j.id = p_id
$$;
revoke execute on function public.judgment_detail(uuid) from public;
grant execute on function public.judgment_detail(uuid) to anon, authenticated, service_role;
