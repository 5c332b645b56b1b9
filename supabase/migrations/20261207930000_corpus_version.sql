-- The demo corpus's version (seed, size, generator version) as the seed wrote it, one row, so health can say which
-- corpus a database holds (two stacks with the same seed and generator version hold identical judgments). Imported
-- judgments do not change it; a reseed replaces it.
create table if not exists public.corpus_version (
  id boolean primary key default true check (id),
  seed bigint not null,
  size integer not null check (size >= 0),
  generator_version text not null,
  version_id text generated always as (generator_version || '-s' || seed::text || '-n' || size::text) stored,
  seeded_at timestamptz not null default now()
);

alter table public.corpus_version enable row level security;
revoke all on public.corpus_version from public, anon, authenticated;
grant select on public.corpus_version to anon, authenticated;
grant all on public.corpus_version to service_role;
-- Not a secret: which demo corpus is loaded (the health report shows it to everyone).
create policy corpus_version_read on public.corpus_version for select to anon, authenticated using (true);

-- The version id for health ("gen-3-s20260101-n12307"), null before the first seed.
create or replace function public.corpus_version_id()
  returns text
  language sql stable security invoker
  set search_path = ''
  as $$ select v.version_id from public.corpus_version v where v.id $$;

revoke all on function public.corpus_version_id() from public;
grant execute on function public.corpus_version_id() to anon, authenticated, service_role;
