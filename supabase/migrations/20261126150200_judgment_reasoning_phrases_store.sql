-- Writing stored reasoning-phrase counts (judgment_reasoning_phrases, 20261126150000) through one RPC: the local
-- gateway serves RPCs, not table writes, and one call stores a whole profile's fresh rows. Service role only: callers
-- read the counts, never write them (counts are evidence). p_rows = [{judgment_id, phrases}].
create or replace function public.judgment_reasoning_phrases_store(p_rows jsonb, p_version text)
  returns integer
  language sql volatile security invoker
  set search_path = ''
  as $$
  with ins as (
    insert into public.judgment_reasoning_phrases (judgment_id, patterns_version, phrases, computed_at)
    select (r ->> 'judgment_id')::uuid, p_version, coalesce(r -> 'phrases', '{}'::jsonb), now()
      from jsonb_array_elements(case when jsonb_typeof(p_rows) = 'array' then p_rows else '[]'::jsonb end) r
      join public.judgments j on j.id = (r ->> 'judgment_id')::uuid
    on conflict (judgment_id) do update
      set patterns_version = excluded.patterns_version, phrases = excluded.phrases, computed_at = excluded.computed_at
    returning 1
  )
  select count(*)::integer from ins
$$;
revoke all on function public.judgment_reasoning_phrases_store(jsonb, text) from public, anon, authenticated;
grant execute on function public.judgment_reasoning_phrases_store(jsonb, text) to service_role;
