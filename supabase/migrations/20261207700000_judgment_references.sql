-- The citation graph (the citator): every reference a judgment makes, as found by the deterministic extractor
-- (lib/citations) in its text or brought by its source's own markup, one row per reference, with the judgment it
-- resolved to when it names one of the corpus. judgments.cited_by_count is the number of distinct judgments citing a
-- judgment. Rows and counts are derived data: `npm run citations:rebuild` (server/cli/citations-rebuild.ts) recomputes
-- them all, idempotently.

create table if not exists public.judgment_references (
  id bigint generated always as identity primary key,
  source_judgment_id uuid not null references public.judgments (id) on delete cascade,
  -- Order of the reference in the citing judgment (text order, then structured references).
  ordinal integer not null check (ordinal >= 0),
  kind text not null check (kind in ('case', 'legislation', 'guideline')),
  jurisdiction text not null check (jurisdiction in ('PL', 'UK')),
  origin text not null check (origin in ('text', 'structured')),
  raw_text text not null check (char_length(raw_text) <= 2000),
  -- Span in the citing judgment's full_text (UTF-16 code units, end exclusive); null for a structured reference.
  span_start integer check (span_start >= 0),
  span_end integer,
  -- PL/kk/279/§1, UK/ukpga/1861/100/s18, pl:ii aka 177/14, uk:2013 ewca crim 710, ukrep:2019 1 wlr 123; null when a
  -- provision's act was not identified.
  canonical_id text check (char_length(canonical_id) <= 300),
  target_judgment_id uuid references public.judgments (id) on delete set null,
  resolved boolean generated always as (target_judgment_id is not null) stored,
  court text check (char_length(court) <= 300),
  cited_date date,
  case_name text check (char_length(case_name) <= 500),
  citation_group integer,
  extractor_version text not null check (char_length(extractor_version) <= 40),
  created_at timestamptz not null default now(),
  constraint judgment_references_span check ((span_start is null) = (span_end is null) and (span_end is null or span_end >= span_start)),
  constraint judgment_references_no_self check (target_judgment_id is distinct from source_judgment_id),
  constraint judgment_references_ordinal unique (source_judgment_id, ordinal)
);

create index if not exists judgment_references_target_idx on public.judgment_references (target_judgment_id, source_judgment_id)
  where target_judgment_id is not null;
create index if not exists judgment_references_canonical_idx on public.judgment_references (canonical_id, source_judgment_id)
  where canonical_id is not null;

alter table public.judgment_references enable row level security;
-- Derived from the judgments' texts, so readable exactly as the judgments table is (signed-in users; migration
-- 20261124000500 took anon's select away); written only by the service role (the rebuild and the importers).
drop policy if exists judgment_references_read on public.judgment_references;
create policy judgment_references_read on public.judgment_references for select to authenticated using (true);
revoke all on table public.judgment_references from public, anon, authenticated;
grant select on table public.judgment_references to authenticated;
grant select, insert, update, delete on table public.judgment_references to service_role;

alter table public.judgments add column if not exists cited_by_count integer not null default 0;
do $$
begin
  if not exists (select 1 from pg_constraint where conname = 'judgments_cited_by_count_nonnegative') then
    alter table public.judgments add constraint judgments_cited_by_count_nonnegative check (cited_by_count >= 0);
  end if;
end
$$;
create index if not exists judgments_cited_by_count_idx on public.judgments (cited_by_count desc, id) where cited_by_count > 0;

-- Recount cited_by_count: for the given judgments, or for every judgment when p_ids is null. Only rows whose count
-- changes are written (a write moves updated_at, which the search sync follows, and the index sorts by the count).
-- SECURITY INVOKER: the caller (service role, owner) needs update on judgments anyway.
create or replace function public.judgment_cited_by_refresh(p_ids uuid[] default null)
  returns integer
  language sql
  volatile
  security invoker
  set search_path = ''
  as $$
  with counts as (
    select j.id,
           (select count(distinct r.source_judgment_id)::integer
              from public.judgment_references r
             where r.target_judgment_id = j.id and r.kind = 'case') as n
      from public.judgments j
     where p_ids is null or j.id = any (p_ids)
  ),
  changed as (
    update public.judgments j set cited_by_count = c.n
      from counts c
     where j.id = c.id and j.cited_by_count is distinct from c.n
    returning 1
  )
  select count(*)::integer from changed
$$;
revoke execute on function public.judgment_cited_by_refresh(uuid[]) from public, anon, authenticated;
grant execute on function public.judgment_cited_by_refresh(uuid[]) to service_role;
