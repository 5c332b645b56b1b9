-- Stored reasoning-phrase counts per judgment (judge profile p50 ≤ 200 ms; measured 1,368 ms for the
-- busiest judge when every profile read and scanned up to 300 full texts). The counts are computed in the app with the
-- shared patterns (lib/analysis/reasoning-patterns.ts: JavaScript regexes over folded text, which SQL cannot run
-- identically), once per judgment and pattern-set version, and kept here; a profile then reads these small rows
-- instead of the texts. A row whose version is not the app's current one, or that is missing, is recomputed by the next
-- profile that needs it. A change of a judgment's full text deletes its row (trigger below), so counts never outlive
-- the text they were counted on.
create table if not exists public.judgment_reasoning_phrases (
  judgment_id uuid primary key references public.judgments (id) on delete cascade,
  -- Hash of the pattern set the counts were made with (lib/backend/analysis/judge-phrases.ts: PATTERNS_VERSION).
  patterns_version text not null,
  -- {pattern_id: [matches in the text, snippet around the first match]}: what the profile's counts and evidence need.
  phrases jsonb not null default '{}'::jsonb,
  computed_at timestamptz not null default now()
);

alter table public.judgment_reasoning_phrases enable row level security;
-- Derived from the judgments' texts, so readable exactly as they are (signed-in users); written only by the service
-- role (the app, after counting), never by a caller: counts a user could write would be evidence a user could forge.
drop policy if exists judgment_reasoning_phrases_read on public.judgment_reasoning_phrases;
create policy judgment_reasoning_phrases_read on public.judgment_reasoning_phrases for select to authenticated using (true);
revoke all on table public.judgment_reasoning_phrases from anon, authenticated;
grant select on table public.judgment_reasoning_phrases to authenticated;
grant select, insert, update, delete on table public.judgment_reasoning_phrases to service_role;

create or replace function public.judgment_reasoning_phrases_invalidate()
  returns trigger
  language plpgsql
  security definer
  set search_path = ''
  as $$
begin
  delete from public.judgment_reasoning_phrases where judgment_id = new.id;
  return new;
end
$$;
revoke all on function public.judgment_reasoning_phrases_invalidate() from public, anon, authenticated;

drop trigger if exists judgments_reasoning_phrases_invalidate on public.judgments;
create trigger judgments_reasoning_phrases_invalidate
  after update of full_text on public.judgments
  for each row when (old.full_text is distinct from new.full_text)
  execute function public.judgment_reasoning_phrases_invalidate();

-- judge_record with stored phrases: the same record, but each of the newest p_max_texts judgments carries its stored
-- `phrases` when they were counted with p_version, and its full `text` only otherwise (to be counted and stored by the
-- caller). Same selection and order as judge_record, so a profile is the same whichever path its counts took.
create or replace function public.judge_record_phrases(p_name text, p_max_texts integer default 300, p_version text default '')
  returns jsonb
  language sql stable security invoker
  set search_path = ''
  as $$
  with sat as (
    select j.id, j.case_number, j.jurisdiction, j.court_name, j.decision_date, e ->> 'name' as name, coalesce(e ->> 'role', '') as role
      from public.judgments j cross join lateral jsonb_array_elements(j.judges) e
     where public.judge_name_keys(j.judges) @> array[public.immutable_unaccent(lower(btrim(p_name)))]
       and public.immutable_unaccent(lower(e ->> 'name')) = public.immutable_unaccent(lower(btrim(p_name)))
  ),
  one as (select distinct on (id) * from sat order by id, role)
  select case when not exists (select 1 from one) then null else jsonb_build_object(
    'name', (select s.name from one s group by s.name order by count(*) desc, s.name limit 1),
    'jurisdiction', (select s.jurisdiction from one s group by s.jurisdiction order by count(*) desc, s.jurisdiction limit 1),
    'judgments', (select count(*) from one),
    'first', (select min(decision_date) from one),
    'last', (select max(decision_date) from one),
    'presiding', (select count(*) from one where role ~* '(przewodnicz|presid)'),
    'reporting', (select count(*) from one where role ~* '(sprawozd|report)'),
    'member', (select count(*) from one where role !~* '(przewodnicz|presid|sprawozd|report)'),
    'courts', coalesce((select jsonb_agg(jsonb_build_object('name', c.court_name, 'count', c.n) order by c.n desc, c.court_name)
                          from (select court_name, count(*) as n from one where court_name is not null group by court_name) c), '[]'::jsonb),
    'documents', coalesce((select jsonb_agg(
                                    case when p.judgment_id is not null
                                         then jsonb_build_object('document_id', t.id, 'case_number', t.case_number, 'phrases', p.phrases)
                                         else jsonb_build_object('document_id', t.id, 'case_number', t.case_number,
                                                                 'text', (select j.full_text from public.judgments j where j.id = t.id)) end
                                    order by t.decision_date desc nulls last, t.id)
                             from (select * from one order by decision_date desc nulls last, id
                                   limit least(greatest(coalesce(p_max_texts, 300), 1), 2000)) t
                             left join public.judgment_reasoning_phrases p on p.judgment_id = t.id and p.patterns_version = p_version), '[]'::jsonb)) end
$$;
revoke all on function public.judge_record_phrases(text, integer, text) from public, anon;
grant execute on function public.judge_record_phrases(text, integer, text) to authenticated, service_role;
