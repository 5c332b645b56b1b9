-- Typed sentence numbers beside the base fields (lib/schema/sentence-fields.ts; read by lib/extraction/sentence-numbers):
-- the first-instance sentence, the same after appeal, and the change in custody. Filled by the base-schema extraction
-- (rules-v1 or a model) through promotion, like the base_ columns; structured.filter_fields (next migration) makes them
-- filter keys and aggregable fields. Nullable with no default: adding them rewrites nothing. Only the enum-coded
-- columns carry CHECKs (`<column>_allowed`), like every base_ column; the reader gives no negative lengths.

alter table public.judgments
  add column if not exists base_sentence_kind text,
  add column if not exists base_sentence_custody_months integer,
  add column if not exists base_sentence_suspended boolean,
  add column if not exists base_sentence_suspension_months integer,
  add column if not exists base_sentence_community_hours integer,
  add column if not exists base_sentence_fine_amount numeric,
  add column if not exists base_sentence_fine_currency text,
  add column if not exists base_sentence_kind_after_appeal text,
  add column if not exists base_sentence_custody_months_after_appeal integer,
  add column if not exists base_sentence_suspended_after_appeal boolean,
  add column if not exists base_sentence_suspension_months_after_appeal integer,
  add column if not exists base_sentence_community_hours_after_appeal integer,
  add column if not exists base_sentence_fine_amount_after_appeal numeric,
  add column if not exists base_sentence_fine_currency_after_appeal text,
  add column if not exists base_sentence_change_months integer;

do $$
begin
  if not exists (select 1 from pg_constraint where conname = 'base_sentence_kind_allowed') then
    alter table public.judgments
      add constraint base_sentence_kind_allowed check (base_sentence_kind in ('custody', 'suspended', 'community', 'fine', 'discharge', 'other')),
      add constraint base_sentence_kind_after_appeal_allowed check (base_sentence_kind_after_appeal in ('custody', 'suspended', 'community', 'fine', 'discharge', 'other')),
      add constraint base_sentence_fine_currency_allowed check (base_sentence_fine_currency in ('pln', 'gbp')),
      add constraint base_sentence_fine_currency_after_appeal_allowed check (base_sentence_fine_currency_after_appeal in ('pln', 'gbp'));
  end if;
end
$$;

comment on column public.judgments.base_sentence_custody_months is 'First-instance custody in whole months (total: consecutive summed, concurrent max); null for life or no custody.';
comment on column public.judgments.base_sentence_custody_months_after_appeal is 'Custody in whole months as it stands after the appeal; null when the conviction is quashed or the case sent back.';
comment on column public.judgments.base_sentence_change_months is 'Custody after appeal minus custody at first instance, in months.';

-- The range filters researchers ask first ("immediate custody over 60 months"), the kind, and the change.
create index if not exists judgments_base_sentence_custody_months_idx on public.judgments (base_sentence_custody_months);
create index if not exists judgments_base_sentence_custody_months_after_appeal_idx on public.judgments (base_sentence_custody_months_after_appeal);
create index if not exists judgments_base_sentence_kind_idx on public.judgments (base_sentence_kind);
create index if not exists judgments_base_sentence_change_months_idx on public.judgments (base_sentence_change_months);
create index if not exists judgments_base_sentence_suspended_true_idx on public.judgments (id) where base_sentence_suspended;
