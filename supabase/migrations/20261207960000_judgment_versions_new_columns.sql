-- The judgment_versions trigger compares every column of judgments (20261126110000): the sentence-number columns
-- (20261207800000) and the citator's cited_by_count (20261207700000) came after the trigger was last generated, so it
-- is generated again. A changed cited_by_count is recorded like any other change: the count a reader saw is part of
-- the record's history.
select public.judgment_versions_define_trigger();
