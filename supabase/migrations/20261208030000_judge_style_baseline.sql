-- The baseline a judge's reasoning styles are measured against: the judgments of the same court level (the judge's
-- most frequent jurisdiction and court level), minus the judge's own. A fingerprint shown as shares of the judge's own
-- phrases said "Analogical 100" for everyone, because every judgment cites case law; a style means something only
-- against what the other judges of the court write. The per-style sums and sums of squares of per-judgment phrase
-- counts are returned (the app turns them into a mean and a standard deviation per judgment), from the stored counts
-- of judgment_reasoning_phrases made with p_version; `pending` says how many judgments of the cohort have none yet.
-- p_styles maps each pattern id to its style (the patterns live in the app: lib/analysis/data/reasoning-patterns.json).
create or replace function public.judge_style_baseline(p_name text, p_version text, p_styles jsonb)
  returns jsonb
  language sql stable security invoker
  set search_path = ''
  as $$
  with k as (select public.immutable_unaccent(lower(btrim(p_name))) as key),
  lvl as (
    select coalesce(j.jurisdiction, '') as jurisdiction, coalesce(j.court_level, '') as court_level
      from public.judgments j, k
     where public.judge_name_keys(j.judges) @> array[k.key]
     group by 1, 2
     order by count(*) desc, 1, 2
     limit 1
  ),
  cohort as (
    select j.id, j.judges
      from public.judgments j, lvl, k
     where coalesce(j.jurisdiction, '') = lvl.jurisdiction
       and coalesce(j.court_level, '') = lvl.court_level
       and not (public.judge_name_keys(j.judges) @> array[k.key])
  ),
  counted as (
    select c.id, c.judges, p.phrases
      from cohort c
      join public.judgment_reasoning_phrases p on p.judgment_id = c.id and p.patterns_version = p_version
  ),
  per_doc as (
    select c.id, p_styles ->> e.key as style, sum((e.value ->> 0)::numeric) as n
      from counted c cross join lateral jsonb_each(c.phrases) e
     where p_styles ? e.key
     group by 1, 2
  ),
  per_style as (
    select style, sum(n) as s, sum(n * n) as ss from per_doc group by style
  )
  select case when not exists (select 1 from lvl) then null else jsonb_build_object(
    'jurisdiction', (select jurisdiction from lvl),
    'court_level', (select court_level from lvl),
    'judgments', (select count(*) from counted),
    'pending', (select count(*) from cohort) - (select count(*) from counted),
    'judges', (select count(distinct n) from counted c cross join lateral unnest(public.judge_name_keys(c.judges)) n),
    'styles', coalesce((select jsonb_object_agg(style, jsonb_build_array(s, ss)) from per_style), '{}'::jsonb)) end
$$;
revoke all on function public.judge_style_baseline(text, text, jsonb) from public, anon;
grant execute on function public.judge_style_baseline(text, text, jsonb) to authenticated, service_role;

-- The judgments of one court level without current phrase counts (service role: the profile counts and stores them
-- before measuring against the level, so the first profile of a level does not compare against an empty baseline).
create or replace function public.judgment_reasoning_phrases_pending_level(
  p_version text, p_jurisdiction text, p_court_level text, p_limit integer default 50)
  returns table (judgment_id uuid, full_text text)
  language sql stable security invoker
  set search_path = ''
  as $$
  select j.id, coalesce(j.full_text, '')
    from public.judgments j
    left join public.judgment_reasoning_phrases p on p.judgment_id = j.id and p.patterns_version = p_version
   where p.judgment_id is null
     and coalesce(j.jurisdiction, '') = coalesce(p_jurisdiction, '')
     and coalesce(j.court_level, '') = coalesce(p_court_level, '')
   order by j.decision_date desc nulls last, j.id
   limit least(greatest(coalesce(p_limit, 50), 1), 500)
$$;
revoke all on function public.judgment_reasoning_phrases_pending_level(text, text, text, integer) from public, anon, authenticated;
grant execute on function public.judgment_reasoning_phrases_pending_level(text, text, text, integer) to service_role;
