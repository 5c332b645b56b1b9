-- Judgments whose reasoning-phrase counts are missing or stale (judgment_reasoning_phrases, 20261126150000), for the
-- launcher's background filler (lib/backend/analysis/judge-phrases.ts: fillPhraseCounts): a fresh start, a new
-- judgment or a changed full text (the trigger drops its row) is counted ahead of the first judge profile that needs
-- it, in batches of p_limit texts. Newest first, as profiles score a judge's newest judgments. Service role only: it
-- hands out full texts in bulk to a writer of the counts, and only the app's filler is that.
create or replace function public.judgment_reasoning_phrases_pending(p_version text, p_limit integer default 50)
  returns table (judgment_id uuid, full_text text)
  language sql stable security invoker
  set search_path = ''
  as $$
  select j.id, coalesce(j.full_text, '')
    from public.judgments j
    left join public.judgment_reasoning_phrases p on p.judgment_id = j.id and p.patterns_version = p_version
   where p.judgment_id is null
   order by j.decision_date desc nulls last, j.id
   limit least(greatest(coalesce(p_limit, 50), 1), 500)
$$;
revoke all on function public.judgment_reasoning_phrases_pending(text, integer) from public, anon, authenticated;
grant execute on function public.judgment_reasoning_phrases_pending(text, integer) to service_role;
