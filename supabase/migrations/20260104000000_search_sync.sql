-- Search index sync bookkeeping (issue 5, spec: Limits "Index refresh: full sync every 6 hours"). The search engine is
-- a derived index rebuilt from Postgres; these tables record each sync run (for health) and the judgments deleted
-- since, so an incremental sync can remove them from the index. Written by the server-side sync job (owner / service
-- role) only: no grants to anon or authenticated.

create table if not exists public.search_sync_runs (
  id bigint generated always as identity primary key,
  kind text not null check (kind in ('full', 'incremental')),
  engine text not null check (engine ~ '^[a-z]{1,32}$'),
  started_at timestamptz not null default now(),
  completed_at timestamptz,
  error text check (char_length(error) <= 2000),
  documents integer not null default 0 check (documents >= 0),
  chunks integer not null default 0 check (chunks >= 0),
  deleted integer not null default 0 check (deleted >= 0),
  -- Highest judgments.updated_at and search_judgment_deletions.deleted_at covered by this run (incremental watermarks).
  updated_watermark timestamptz,
  deleted_watermark timestamptz
);

create index if not exists search_sync_runs_started_idx on public.search_sync_runs (started_at desc);

alter table public.search_sync_runs enable row level security;
revoke all on table public.search_sync_runs from public, anon, authenticated;
grant select, insert, update on table public.search_sync_runs to service_role;

create table if not exists public.search_judgment_deletions (
  judgment_id uuid not null,
  deleted_at timestamptz not null default now()
);

create index if not exists search_judgment_deletions_deleted_idx on public.search_judgment_deletions (deleted_at);

alter table public.search_judgment_deletions enable row level security;
revoke all on table public.search_judgment_deletions from public, anon, authenticated;
grant select, insert, delete on table public.search_judgment_deletions to service_role;

-- SECURITY DEFINER: whoever may delete a judgment must be able to log the deletion for the index, although they
-- have no rights on the log table itself. It only inserts the deleted row's id.
create or replace function public.log_judgment_deletion()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.search_judgment_deletions (judgment_id) values (old.id);
  return old;
end
$$;

revoke execute on function public.log_judgment_deletion() from public, anon, authenticated;

drop trigger if exists judgments_log_deletion on public.judgments;
create trigger judgments_log_deletion
  after delete on public.judgments
  for each row execute function public.log_judgment_deletion();

-- Postgres full-text baseline for bench/search.ts (websearch_to_tsquery + ts_rank_cd over the same fields the
-- search index searches, weights by the same order: title A; case_number, summary B; court, judges, tags C;
-- full_text and the base text fields D). Not used by the application.
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
