-- The topic-run sample cap in the database (P-79): topic_model_sample is callable with a user's own token straight
-- through the gateway, where it clamped the sample to 20,000 while the route allows TOPIC_SAMPLE_SIZE_MAX (2,000). It
-- now clamps to app_limits' TOPIC_SAMPLE_SIZE_MAX. Otherwise as in 20261125130000_search_topics.sql.

insert into public.app_limits (name, value) values ('TOPIC_SAMPLE_SIZE_MAX', 2000) on conflict (name) do nothing;

create or replace function public.topic_model_sample(
  p_filters jsonb default null,
  p_jurisdictions text[] default null,
  p_sample_size integer default 500,
  p_seed integer default 42
)
  returns jsonb
  language plpgsql stable security invoker
  set search_path = ''
  as $$
declare
  v_where text := case when p_filters is null or p_filters = 'null'::jsonb then 'true'
                       else structured.filter_predicate(p_filters, null) end;
  v_result jsonb;
begin
  execute format($q$
    with cohort as materialized (
      select j.id from public.judgments j
       where %s and ($3::text[] is null or j.jurisdiction = any ($3))
    ),
    s as (select c.id from cohort c order by md5(c.id::text || ':' || $1::text), c.id limit $2)
    select jsonb_build_object(
      'corpus_size', (select count(*) from cohort),
      'rows', coalesce((select jsonb_agg(jsonb_build_object(
                            'id', j.id, 'case_number', j.case_number, 'decision_date', j.decision_date,
                            'jurisdiction', j.jurisdiction, 'judges', j.judges, 'title', j.title, 'summary', j.summary,
                            'keywords', j.keywords, 'legal_topics', j.legal_topics, 'base_keywords', j.base_keywords,
                            'base_neutral_citation_number', j.base_neutral_citation_number,
                            'base_remand_custody_time', j.base_remand_custody_time,
                            'base_offender_age_offence', j.base_offender_age_offence,
                            'base_offender_mental_offence', j.base_offender_mental_offence,
                            'base_victim_mental_offence', j.base_victim_mental_offence,
                            'court_name', j.court_name, 'base_appeal_court_judges_names', j.base_appeal_court_judges_names,
                            'base_case_name', j.base_case_name,
                            'base_offender_representative_name', j.base_offender_representative_name,
                            'base_crown_attorney_general_representative_name', j.base_crown_attorney_general_representative_name,
                            'base_conv_court_names', j.base_conv_court_names, 'base_sent_court_name', j.base_sent_court_name)
                          order by j.id)
                          from s join public.judgments j on j.id = s.id), '[]'::jsonb))$q$, v_where)
    into v_result
    using p_seed, least(greatest(coalesce(p_sample_size, 500), 1), public.app_limit('TOPIC_SAMPLE_SIZE_MAX')), p_jurisdictions;
  return v_result;
end
$$;
