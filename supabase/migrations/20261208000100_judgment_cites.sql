-- The citator in the search index (docs/citations.md): what each judgment cites, as the index filters it.
-- `cites` holds the canonical ids of the provisions the judgment applies with their ancestors (PL/kk/279/§1,
-- PL/kk/279, PL/kk) and the ids of the corpus judgments it cites; lib/citations/store.ts writes it with the
-- references, so a write moves updated_at and the search sync carries it to the index.
alter table public.judgments add column if not exists cites text[] not null default '{}';

