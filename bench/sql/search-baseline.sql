-- Postgres full-text baseline for bench/search.ts (websearch_to_tsquery + ts_rank_cd over the same fields the
-- search index searches, weights by the same order: title A; case_number, summary B; court, judges, tags C;
-- full_text and the base text fields D). Benchmark-only: added to the bench's own database by bench/search.ts,
-- never by a migration (as a stored generated column it made seeding the corpus four times slower).
alter table public.judgments add column if not exists search_baseline_tsv tsvector generated always as (
  setweight(to_tsvector('simple'::regconfig, public.immutable_unaccent(coalesce(title, ''))), 'A') ||
  setweight(to_tsvector('simple'::regconfig, public.immutable_unaccent(
    coalesce(case_number, '') || ' ' || coalesce(summary, '')
  )), 'B') ||
  setweight(to_tsvector('simple'::regconfig, public.immutable_unaccent(
    coalesce(court_name, '') || ' ' || coalesce(judges_flat, '') || ' ' ||
    public.text_array_to_text(keywords) || ' ' || public.text_array_to_text(legal_topics) || ' ' ||
    public.text_array_to_text(cited_legislation)
  )), 'C') ||
  setweight(to_tsvector('simple'::regconfig, public.immutable_unaccent(
    left(coalesce(full_text, ''), 500000) || ' ' ||
    coalesce(base_neutral_citation_number, '') || ' ' || coalesce(base_appeal_court_judges_names, '') || ' ' ||
    coalesce(base_case_name, '') || ' ' || coalesce(base_offender_representative_name, '') || ' ' ||
    coalesce(base_crown_attorney_general_representative_name, '') || ' ' || coalesce(base_remand_custody_time, '') || ' ' ||
    coalesce(base_offender_age_offence, '') || ' ' || coalesce(base_offender_mental_offence, '') || ' ' ||
    coalesce(base_victim_mental_offence, '')
  )), 'D')
) stored;

create index if not exists judgments_search_baseline_tsv_idx on public.judgments using gin (search_baseline_tsv);
