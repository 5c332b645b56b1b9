-- One row per natural-language filter request (spec: POST /extractions/base-schema/nl-filter, "each request is logged
-- for analytics without blocking the response"). Like search_analytics, the raw question is kept here (it is not an
-- app event, and app_events never hold query text). Rows are written by the route through record_nl_filter_request
-- (service_role) after the response; a signed-in user reads only their own rows. Deleting an account deletes its
-- questions: they are personal data.

create table if not exists public.nl_filter_requests (
  id uuid primary key default gen_random_uuid(),
  user_id uuid references auth.users (id) on delete cascade,
  question text not null check (char_length(question) <= 1000),
  question_length integer not null check (question_length >= 0),
  success boolean not null,
  -- null on success; otherwise the error code answered (NL_FILTER_INVALID, NL_FILTER_FAILED, UPSTREAM_TIMEOUT, ...).
  error_code text check (error_code is null or error_code ~ '^[A-Z][A-Z0-9_]{0,63}$'),
  latency_ms integer not null check (latency_ms >= 0),
  -- The model that answered (LLM_MODEL), to compare models over time; null when none was called.
  model text check (model is null or char_length(model) <= 200),
  created_at timestamptz not null default now(),
  constraint nl_filter_requests_outcome check ((success and error_code is null) or (not success and error_code is not null))
);

create index if not exists nl_filter_requests_user_created_idx on public.nl_filter_requests (user_id, created_at desc) where user_id is not null;
create index if not exists nl_filter_requests_created_idx on public.nl_filter_requests (created_at);

alter table public.nl_filter_requests enable row level security;
revoke all on table public.nl_filter_requests from public, anon, authenticated;
grant select on table public.nl_filter_requests to authenticated;
grant select, insert on table public.nl_filter_requests to service_role;

drop policy if exists nl_filter_requests_owner_read on public.nl_filter_requests;
create policy nl_filter_requests_owner_read on public.nl_filter_requests
  for select to authenticated
  using (user_id = (select auth.uid()));

create or replace function public.record_nl_filter_request(
  p_user_id uuid,
  p_question text,
  p_success boolean,
  p_error_code text,
  p_latency_ms integer,
  p_model text default null
)
returns void
language sql
volatile
security invoker
set search_path = ''
as $$
  insert into public.nl_filter_requests (user_id, question, question_length, success, error_code, latency_ms, model)
  values (
    p_user_id,
    left(p_question, 1000),
    char_length(p_question),
    p_success,
    case when p_success then null else coalesce(p_error_code, 'UNKNOWN') end,
    greatest(coalesce(p_latency_ms, 0), 0),
    left(p_model, 200)
  )
$$;

revoke all on function public.record_nl_filter_request(uuid, text, boolean, text, integer, text) from public, anon, authenticated;
grant execute on function public.record_nl_filter_request(uuid, text, boolean, text, integer, text) to service_role;
