-- full_text and full_html are stored without pglz. Compressing them with pglz was the largest single cost of writing
-- a judgment (a quarter of Postgres' time per imported record, docs/ingestion.md "Figures"): ~50 kB of text and HTML
-- per Polish judgment, compressed to ~21 kB at ~0.5 ms. Where the server is built with lz4 (the postgres:17 image of
-- deploy/compose.yaml) they are compressed with lz4, several times faster for a slightly larger result; where it is
-- not (the embedded PostgreSQL of `npm start` and the tests), they are stored out of line uncompressed (EXTERNAL),
-- which costs disk: about 1.9 times the size for these two columns (18 kB more per SAOS judgment), and substring
-- reads of them no longer decompress first.
-- Values already stored keep their form (nothing is rewritten); new and changed values take the new one.
do $$
begin
  if exists (select 1 from pg_catalog.pg_settings where name = 'default_toast_compression' and 'lz4' = any (enumvals)) then
    alter table public.judgments alter column full_text set compression lz4, alter column full_html set compression lz4;
  else
    alter table public.judgments alter column full_text set storage external, alter column full_html set storage external;
  end if;
end
$$;
