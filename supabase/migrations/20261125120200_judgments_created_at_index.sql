-- The alert digest asks, per alerted saved search, for the judgments added since its last digest
-- (created_at > watermark): with this index that is a short range scan of the newest rows instead of a full scan
-- per search.
create index if not exists judgments_created_at_idx on public.judgments (created_at desc);
