-- A batch of searches (record_searches writes the queue in one insert) took one timestamp: now() is the
-- transaction's, so two searches of one user in a batch tied and the history page ("newest first") showed them in
-- any order. clock_timestamp() is read per row, and the insert takes the rows in the queue's order, so later searches
-- get later times.
alter table public.search_analytics alter column created_at set default clock_timestamp();
