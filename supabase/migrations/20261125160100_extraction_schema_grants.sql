-- Extraction schemas: the bootstrap's default privileges give `authenticated` every table right, and
-- 20261125160000 revoked them only from public and anon. Versions are history (written by the functions, never
-- rewritten), and nobody needs TRUNCATE, REFERENCES or TRIGGER on either table: keep exactly what the grants there say.
revoke all on table public.extraction_schemas, public.schema_versions from authenticated;
grant select, insert, update, delete on table public.extraction_schemas to authenticated;
grant select, insert on table public.schema_versions to authenticated;
