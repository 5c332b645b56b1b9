-- The reference API's schema list (GET /api/v1/schemas): the key's user's extraction schemas, read as that user under
-- RLS exactly as the web tier's GET /api/schemas reads them. Same pattern as api_v1_list_collections
-- (20261125150000_api_v1.sql): switch the transaction to `authenticated` with the user's claims, then call the very
-- function the web tier calls, so the owner-only policy of extraction_schemas decides and nothing is re-implemented.

create or replace function public.api_v1_list_extraction_schemas(p_user_id uuid, p_limit integer, p_offset integer)
returns table (id uuid, name text, description text, version integer, created_at timestamptz, total_count bigint)
language plpgsql
volatile
security invoker
set search_path = ''
as $$
begin
  perform public.api_v1_become_user(p_user_id);
  return query select s.id, s.name, s.description, s.version, s.created_at, s.total_count from public.list_extraction_schemas(p_limit, p_offset) s;
end
$$;

-- Only the app's service client calls it (it takes the user id from a verified key): never anon or authenticated.
revoke all on function public.api_v1_list_extraction_schemas(uuid, integer, integer) from public, anon, authenticated;
grant execute on function public.api_v1_list_extraction_schemas(uuid, integer, integer) to service_role;
