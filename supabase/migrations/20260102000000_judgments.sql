-- The judgments table: every field of the spec's Judgment resource and detail record, the status columns, and the
-- 59 base_ columns (51 typed base-schema fields from lib/schema/fields.ts + 8 operational/metadata columns).
-- The field registry (lib/schema) is the source of truth for names, types and enum sets; tests/db/registry-columns.test.ts
-- proves this table and the registry agree (column names, types, enum CHECKs), so edit both together in a new migration.

-- unaccent() is only STABLE (it looks its dictionary up through search_path), so it cannot appear in a generated column
-- or an index. Pin the dictionary by schema-qualified name and declare the wrapper IMMUTABLE. The schema holding the
-- extension is looked up so the same file works on a Supabase project, where extensions live in `extensions`.
do $do$
declare
  ext_schema text := (select extnamespace::regnamespace::text from pg_extension where extname = 'unaccent');
begin
  if ext_schema is null then
    create extension unaccent;
    ext_schema := (select extnamespace::regnamespace::text from pg_extension where extname = 'unaccent');
  end if;
  execute format(
    $f$create or replace function public.immutable_unaccent(p_text text) returns text
       language sql immutable strict parallel safe
       set search_path = ''
       as $body$ select %1$s.unaccent(%2$L::regdictionary, p_text) $body$$f$,
    ext_schema, ext_schema || '.unaccent');
end
$do$;
comment on function public.immutable_unaccent(text) is
  'unaccent() with a pinned dictionary, IMMUTABLE so generated columns and indexes can use it (Polish diacritics fold: ą→a, ł→l).';
grant execute on function public.immutable_unaccent(text) to anon, authenticated, service_role;

-- array_to_string() is STABLE too (element output functions may depend on settings); for text[] it is not.
create or replace function public.text_array_to_text(p_values text[]) returns text
  language sql immutable parallel safe
  set search_path = ''
  as $$ select coalesce(pg_catalog.array_to_string(p_values, ' '), '') $$;
grant execute on function public.text_array_to_text(text[]) to anon, authenticated, service_role;

create table public.judgments (
  id uuid primary key default gen_random_uuid(),
  -- Identifier of the row in its upstream source; JSONL ingestion upserts on it.
  source_id text unique,
  case_number text,
  title text,
  summary text,
  court_name text,
  judges jsonb not null default '[]'::jsonb check (jsonb_typeof(judges) = 'array'),
  judges_flat text,
  keywords text[],
  legal_topics text[],
  cited_legislation text[],
  full_text text not null,
  jurisdiction text not null check (jurisdiction in ('PL', 'UK')),
  court_level text,
  case_type text,
  decision_type text,
  outcome text,
  decision_date date,
  publication_date date,
  source_url text,
  metadata jsonb not null default '{}'::jsonb check (jsonb_typeof(metadata) = 'object'),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  structure_extraction_status text,
  deep_analysis_status text,
  umap_x double precision,
  umap_y double precision,

  -- The 51 typed base-schema fields (registry order of the shared field list).
  base_keywords text[],
  base_neutral_citation_number text,
  base_case_number numeric,
  base_date_of_appeal_court_judgment date,
  base_appeal_court_judges_names text,
  base_case_name text,
  base_offender_representative_name text,
  base_crown_attorney_general_representative_name text,
  base_conv_court_names text,
  base_convict_plea_dates text[],
  base_convict_offences text[],
  base_acquit_offences text[],
  base_did_offender_confess boolean,
  base_plea_point text,
  base_remand_decision text,
  base_remand_custody_time text,
  base_sent_court_name text,
  base_sentences_received text[],
  base_sentence_serve text[],
  base_what_ancilliary_orders text[],
  base_offender_gender text[],
  base_offender_age_offence text,
  base_offender_job_offence text,
  base_offender_home_offence text,
  base_offender_mental_offence text,
  base_offender_intox_offence text[],
  base_offender_victim_relationship text,
  base_victim_type text,
  base_num_victims integer,
  base_victim_gender text[],
  base_victim_age_offence numeric,
  base_victim_job_offence text,
  base_victim_home_offence text,
  base_victim_mental_offence text,
  base_victim_intox_offence text[],
  base_pros_evid_type_trial text[],
  base_def_evid_type_trial text[],
  base_pre_sent_report text,
  base_agg_fact_sent text[],
  base_mit_fact_sent text[],
  base_vic_impact_statement boolean,
  base_appellant text,
  base_co_def_acc_num integer,
  base_appeal_against text[],
  base_appeal_ground text[],
  base_sent_guide_which text[],
  base_appeal_outcome text[],
  base_reason_quash_conv text[],
  base_reason_sent_excessive text[],
  base_reason_sent_lenient text[],
  base_reason_dismiss text[],

  -- Operational and metadata base_ columns (8), making 59 base_ columns in all.
  base_extraction_status text not null default 'pending'
    constraint base_extraction_status_allowed check (base_extraction_status in ('pending', 'completed', 'failed')),
  base_extraction_model text,
  base_extracted_at timestamptz,
  base_schema_key text default 'universal_legal_document_base_schema',
  base_schema_version text default 'v1',
  base_extraction_error text,
  base_raw_extraction jsonb not null default '{}'::jsonb,
  -- Weighted 'simple' full-text vector over the free-text and tag base columns (weights from the registry's ftsWeight).
  -- 'simple' keeps Polish and English words unstemmed; unaccent lets "zabojstwo" match "zabójstwo".
  base_search_tsv tsvector generated always as (
    setweight(to_tsvector('simple'::regconfig, public.immutable_unaccent(
      public.text_array_to_text(base_keywords) || ' ' ||
      coalesce(base_neutral_citation_number, '') || ' ' ||
      coalesce(base_case_name, '')
    )), 'A') ||
    setweight(to_tsvector('simple'::regconfig, public.immutable_unaccent(
      coalesce(base_appeal_court_judges_names, '') || ' ' ||
      coalesce(base_offender_representative_name, '') || ' ' ||
      coalesce(base_crown_attorney_general_representative_name, '') || ' ' ||
      public.text_array_to_text(base_convict_offences) || ' ' ||
      public.text_array_to_text(base_acquit_offences) || ' ' ||
      public.text_array_to_text(base_appeal_ground)
    )), 'B') ||
    setweight(to_tsvector('simple'::regconfig, public.immutable_unaccent(
      coalesce(base_conv_court_names, '') || ' ' ||
      coalesce(base_sent_court_name, '') || ' ' ||
      public.text_array_to_text(base_agg_fact_sent) || ' ' ||
      public.text_array_to_text(base_mit_fact_sent)
    )), 'C') ||
    setweight(to_tsvector('simple'::regconfig, public.immutable_unaccent(
      coalesce(base_remand_custody_time, '') || ' ' ||
      public.text_array_to_text(base_sentences_received) || ' ' ||
      public.text_array_to_text(base_what_ancilliary_orders) || ' ' ||
      coalesce(base_offender_age_offence, '') || ' ' ||
      coalesce(base_offender_job_offence, '') || ' ' ||
      coalesce(base_offender_home_offence, '') || ' ' ||
      coalesce(base_offender_mental_offence, '') || ' ' ||
      coalesce(base_victim_job_offence, '') || ' ' ||
      coalesce(base_victim_home_offence, '') || ' ' ||
      coalesce(base_victim_mental_offence, '')
    )), 'D')

  ) stored,

  -- Enum-coded base fields accept only their registry values (arrays: every element in the set).
  constraint base_plea_point_allowed check (base_plea_point in ('police_presence', 'first_court_appearance', 'before_trial', 'first_day_of_trial', 'after_first_day_of_trial', 'dont_know')),
  constraint base_remand_decision_allowed check (base_remand_decision in ('unconditional_bail', 'conditional_bail', 'remanded_in_custody', 'dont_know')),
  constraint base_sentence_serve_allowed check (base_sentence_serve <@ array['serve_concurrent', 'serve_consecutive', 'serve_unknown']::text[]),
  constraint base_offender_gender_allowed check (base_offender_gender <@ array['gender_male', 'gender_female', 'gender_unknown']::text[]),
  constraint base_offender_job_offence_allowed check (base_offender_job_offence in ('employed', 'self_employed', 'unemployed', 'student', 'retired', 'other', 'dont_know')),
  constraint base_offender_home_offence_allowed check (base_offender_home_offence in ('fixed_address', 'homeless', 'temporary_accommodation', 'dont_know')),
  constraint base_offender_intox_offence_allowed check (base_offender_intox_offence <@ array['intox_alcohol', 'intox_drugs', 'intox_unknown']::text[]),
  constraint base_offender_victim_relationship_allowed check (base_offender_victim_relationship in ('stranger', 'relative', 'acquaintance', 'dont_know')),
  constraint base_victim_type_allowed check (base_victim_type in ('individual_person', 'organisation')),
  constraint base_victim_gender_allowed check (base_victim_gender <@ array['gender_male', 'gender_female', 'gender_unknown']::text[]),
  constraint base_victim_intox_offence_allowed check (base_victim_intox_offence <@ array['intox_alcohol', 'intox_drugs', 'intox_unknown']::text[]),
  constraint base_pre_sent_report_allowed check (base_pre_sent_report in ('low', 'medium', 'high', 'dont_know')),
  constraint base_appellant_allowed check (base_appellant in ('offender', 'attorney_general', 'other')),
  constraint base_appeal_against_allowed check (base_appeal_against <@ array['appeal_conviction_unsafe', 'appeal_sentence_excessive', 'appeal_sentence_lenient', 'appeal_other', 'appeal_unknown']::text[]),
  constraint base_appeal_outcome_allowed check (base_appeal_outcome <@ array['outcome_dismissed_or_refused', 'outcome_conviction_quashed', 'outcome_sentence_more_severe', 'outcome_sentence_more_lenient', 'outcome_other', 'outcome_unknown']::text[])
);

comment on table public.judgments is 'Judgments (PL and UK criminal appeals) with typed base-schema extraction columns.';
comment on column public.judgments.base_raw_extraction is 'Full extractor output (returned as extracted_data by the filter RPC).';

-- judges_flat is derived from judges (names joined) so search engines index one string; updated_at moves on every write.
create or replace function public.judgments_before_write() returns trigger
  language plpgsql
  set search_path = ''
  as $$
begin
  new.judges_flat := (
    select nullif(string_agg(j ->> 'name', ', ' order by ord), '')
    from jsonb_array_elements(coalesce(new.judges, '[]'::jsonb)) with ordinality as e(j, ord)
    where jsonb_typeof(j) = 'object' and coalesce(j ->> 'name', '') <> ''
  );
  if tg_op = 'UPDATE' then
    new.updated_at := now();
  end if;
  return new;
end
$$;

create trigger judgments_before_write
  before insert or update on public.judgments
  for each row execute function public.judgments_before_write();

-- Indexes for the structured filters (lib/schema registry controls): GIN on arrays, btree on scalars,
-- trigram GIN on substring (ILIKE '%…%') fields, partial btree on the TRUE side of booleans.
create index judgments_base_keywords_gin on public.judgments using gin (base_keywords);
create index judgments_base_neutral_citation_number_trgm on public.judgments using gin (base_neutral_citation_number gin_trgm_ops);
create index judgments_base_case_number_idx on public.judgments (base_case_number);
create index judgments_base_date_of_appeal_court_judgment_idx on public.judgments (base_date_of_appeal_court_judgment desc);
create index judgments_base_appeal_court_judges_names_trgm on public.judgments using gin (base_appeal_court_judges_names gin_trgm_ops);
create index judgments_base_case_name_trgm on public.judgments using gin (base_case_name gin_trgm_ops);
create index judgments_base_offender_representative_name_trgm on public.judgments using gin (base_offender_representative_name gin_trgm_ops);
-- base_crown_attorney_general_representative_name: free text, reached through base_search_tsv only
create index judgments_base_conv_court_names_idx on public.judgments (base_conv_court_names);
create index judgments_base_convict_plea_dates_gin on public.judgments using gin (base_convict_plea_dates);
create index judgments_base_convict_offences_gin on public.judgments using gin (base_convict_offences);
create index judgments_base_acquit_offences_gin on public.judgments using gin (base_acquit_offences);
create index judgments_base_did_offender_confess_true on public.judgments (base_did_offender_confess) where base_did_offender_confess;
create index judgments_base_plea_point_idx on public.judgments (base_plea_point);
create index judgments_base_remand_decision_idx on public.judgments (base_remand_decision);
-- base_remand_custody_time: free text, reached through base_search_tsv only
create index judgments_base_sent_court_name_idx on public.judgments (base_sent_court_name);
create index judgments_base_sentences_received_gin on public.judgments using gin (base_sentences_received);
create index judgments_base_sentence_serve_gin on public.judgments using gin (base_sentence_serve);
create index judgments_base_what_ancilliary_orders_gin on public.judgments using gin (base_what_ancilliary_orders);
create index judgments_base_offender_gender_gin on public.judgments using gin (base_offender_gender);
-- base_offender_age_offence: free text, reached through base_search_tsv only
create index judgments_base_offender_job_offence_idx on public.judgments (base_offender_job_offence);
create index judgments_base_offender_home_offence_idx on public.judgments (base_offender_home_offence);
-- base_offender_mental_offence: free text, reached through base_search_tsv only
create index judgments_base_offender_intox_offence_gin on public.judgments using gin (base_offender_intox_offence);
create index judgments_base_offender_victim_relationship_idx on public.judgments (base_offender_victim_relationship);
create index judgments_base_victim_type_idx on public.judgments (base_victim_type);
create index judgments_base_num_victims_idx on public.judgments (base_num_victims);
create index judgments_base_victim_gender_gin on public.judgments using gin (base_victim_gender);
create index judgments_base_victim_age_offence_idx on public.judgments (base_victim_age_offence);
create index judgments_base_victim_job_offence_idx on public.judgments (base_victim_job_offence);
create index judgments_base_victim_home_offence_idx on public.judgments (base_victim_home_offence);
-- base_victim_mental_offence: free text, reached through base_search_tsv only
create index judgments_base_victim_intox_offence_gin on public.judgments using gin (base_victim_intox_offence);
create index judgments_base_pros_evid_type_trial_gin on public.judgments using gin (base_pros_evid_type_trial);
create index judgments_base_def_evid_type_trial_gin on public.judgments using gin (base_def_evid_type_trial);
create index judgments_base_pre_sent_report_idx on public.judgments (base_pre_sent_report);
create index judgments_base_agg_fact_sent_gin on public.judgments using gin (base_agg_fact_sent);
create index judgments_base_mit_fact_sent_gin on public.judgments using gin (base_mit_fact_sent);
create index judgments_base_vic_impact_statement_true on public.judgments (base_vic_impact_statement) where base_vic_impact_statement;
create index judgments_base_appellant_idx on public.judgments (base_appellant);
create index judgments_base_co_def_acc_num_idx on public.judgments (base_co_def_acc_num);
create index judgments_base_appeal_against_gin on public.judgments using gin (base_appeal_against);
create index judgments_base_appeal_ground_gin on public.judgments using gin (base_appeal_ground);
create index judgments_base_sent_guide_which_gin on public.judgments using gin (base_sent_guide_which);
create index judgments_base_appeal_outcome_gin on public.judgments using gin (base_appeal_outcome);
create index judgments_base_reason_quash_conv_gin on public.judgments using gin (base_reason_quash_conv);
create index judgments_base_reason_sent_excessive_gin on public.judgments using gin (base_reason_sent_excessive);
create index judgments_base_reason_sent_lenient_gin on public.judgments using gin (base_reason_sent_lenient);
create index judgments_base_reason_dismiss_gin on public.judgments using gin (base_reason_dismiss);

create index judgments_jurisdiction_idx on public.judgments (jurisdiction);
create index judgments_court_name_idx on public.judgments (court_name);
create index judgments_decision_date_idx on public.judgments (decision_date desc nulls last, id);
create index judgments_updated_at_idx on public.judgments (updated_at);
create index judgments_base_extraction_status_idx on public.judgments (base_extraction_status);
create index judgments_base_extraction_model_idx on public.judgments (base_extraction_model);
create index judgments_base_extracted_at_idx on public.judgments (base_extracted_at desc);
create index judgments_base_search_tsv_gin on public.judgments using gin (base_search_tsv);
-- The filter RPCs only ever see completed rows, ordered by decision_date desc nulls last, then id.
create index judgments_completed_decision_date_idx on public.judgments (decision_date desc nulls last, id)
  where base_extraction_status = 'completed';

-- Row-level security: everyone may read judgments; only the service role writes (it bypasses RLS, and the
-- grants below keep anon/authenticated from writing even if a policy were added later by mistake).
alter table public.judgments enable row level security;
create policy judgments_read_all on public.judgments for select to anon, authenticated using (true);
revoke all on table public.judgments from public, anon, authenticated;
grant select on table public.judgments to anon, authenticated;
grant select, insert, update, delete on table public.judgments to service_role;
