-- A trivial RPC the health check calls to measure the database round trip through the REST layer.
create or replace function public.health_ping()
returns text
language sql
stable
security invoker
set search_path = ''
as $$ select 'ok'::text $$;

revoke all on function public.health_ping() from public;
grant execute on function public.health_ping() to anon, authenticated, service_role;
