-- Versions of judgments: every UPDATE of a judgments row that changes a column writes one row to
-- judgment_versions with the changed columns only. Why this shape (ruling P-45):
--   * INSERTs are not recorded: the seed and ingestion insert ~12k rows in bulk, and the row itself is version 1.
--   * Only columns whose value changed are written (IS DISTINCT FROM over to_jsonb of OLD and NEW), so a bulk
--     update (extraction, search bookkeeping) costs one small row per touched judgment, and a no-op update none.
--   * Short values (≤ 256 characters as JSON) are kept old and new; a longer value (full_text, summary, judges,
--     base_raw_extraction, …) is kept as {"length": n, "md5": "…"} so a 30,000-character text is never copied twice.
--   * Bookkeeping and derived columns (updated_at, the generated *_tsv vectors) are not versions of the judgment.
--   * Cheap: see judgment_versions_define_trigger below (per-column comparison, measured).
-- Readable by any signed-in user, like judgments; written only by the trigger (SECURITY DEFINER: why: the writer of
-- a judgments row (service role, migrations) need not hold insert on judgment_versions; nobody else gets it).

create table if not exists public.judgment_versions (
  id bigint generated always as identity primary key,
  judgment_id uuid not null references public.judgments (id) on delete cascade,
  changed_at timestamptz not null default now(),
  changed_by uuid,
  changed_columns text[] not null check (cardinality(changed_columns) >= 1),
  old_values jsonb not null check (jsonb_typeof(old_values) = 'object'),
  new_values jsonb not null check (jsonb_typeof(new_values) = 'object')
);
comment on table public.judgment_versions is
  'One row per UPDATE of a judgment that changed something: changed column names, old/new values (long values as length+md5).';
create index if not exists judgment_versions_judgment_idx on public.judgment_versions (judgment_id, id desc);

alter table public.judgment_versions enable row level security;
drop policy if exists judgment_versions_read_authenticated on public.judgment_versions;
create policy judgment_versions_read_authenticated on public.judgment_versions for select to authenticated using (true);
revoke all on table public.judgment_versions from anon, authenticated;
grant select on table public.judgment_versions to authenticated;
grant select, insert, delete on table public.judgment_versions to service_role;

create or replace function public.judgment_version_value(p_value jsonb) returns jsonb
  language sql immutable parallel safe
  set search_path = ''
  as $$
    select case
      when p_value is null or pg_catalog.length(p_value::text) <= 256 then coalesce(p_value, 'null'::jsonb)
      else pg_catalog.jsonb_build_object('length',
             case when pg_catalog.jsonb_typeof(p_value) = 'string' then pg_catalog.length(p_value #>> '{}') else pg_catalog.length(p_value::text) end,
             'md5', pg_catalog.md5(p_value::text))
    end
  $$;
revoke execute on function public.judgment_version_value(jsonb) from public;
grant execute on function public.judgment_version_value(jsonb) to authenticated, service_role;

-- The trigger function compares column by column (OLD.col IS DISTINCT FROM NEW.col: a memcmp for text) and converts
-- only changed columns to JSON. Measured on 3,000 judgments of 30,000 characters, a bulk update of one short column:
-- 2.0-3.1 s without the trigger, 3.7-4.6 s with it (whole-row to_jsonb(OLD)/to_jsonb(NEW) was worse, 4.0-6.9 s,
-- mostly turning the tsvector columns into text); what is left is comparing the unchanged long texts (equal lengths
-- mean a detoast and memcmp). Inserts (the seed) do not fire it at all. The body is generated from the catalog by judgment_versions_define_trigger(): a later migration
-- that adds a column to judgments calls it again (tests/db/judgment-versions.test.ts fails until it does).
create or replace function public.judgment_versions_define_trigger() returns void
  language plpgsql
  set search_path = ''
  as $def$
declare
  body text := '';
  col record;
begin
  for col in
    select a.attname::text as name
      from pg_catalog.pg_attribute a
     where a.attrelid = 'public.judgments'::regclass and a.attnum > 0 and not a.attisdropped
       and a.attgenerated = '' and a.attname not in ('updated_at')
     order by a.attnum
  loop
    body := body || pg_catalog.format(
      $f$  if old.%1$I is distinct from new.%1$I then
    cols := cols || %2$L::text;
    ov := ov || pg_catalog.jsonb_build_object(%2$L, public.judgment_version_value(pg_catalog.to_jsonb(old.%1$I)));
    nv := nv || pg_catalog.jsonb_build_object(%2$L, public.judgment_version_value(pg_catalog.to_jsonb(new.%1$I)));
  end if;
$f$, col.name, col.name);
  end loop;
  execute pg_catalog.format(
    $f$create or replace function public.judgments_record_version() returns trigger
  language plpgsql
  security definer
  set search_path = ''
  as $body$
declare
  cols text[] := '{}';
  ov jsonb := '{}'::jsonb;
  nv jsonb := '{}'::jsonb;
begin
%s  if pg_catalog.cardinality(cols) > 0 then
    insert into public.judgment_versions (judgment_id, changed_by, changed_columns, old_values, new_values)
    values (new.id, auth.uid(), cols, ov, nv);
  end if;
  return null;
end
$body$$f$, body);
  execute 'revoke execute on function public.judgments_record_version() from public';
end
$def$;
revoke execute on function public.judgment_versions_define_trigger() from public, anon, authenticated;

select public.judgment_versions_define_trigger();

drop trigger if exists judgments_record_version on public.judgments;
-- No WHEN clause: judgments_before_write moves updated_at on every update, so a row comparison would always differ;
-- the function compares column by column and writes nothing when only ignored columns changed.
create trigger judgments_record_version
  after update on public.judgments
  for each row
  execute function public.judgments_record_version();

-- Versions of one judgment, newest first, at most p_limit (1-100), before an optional version id (paging); null when
-- the caller cannot see the judgment (so the route answers 404, not an empty list, for an id that is no judgment).
create or replace function public.judgment_versions_list(p_id uuid, p_limit integer default 50, p_before bigint default null)
returns jsonb
language sql
stable
security invoker
set search_path = ''
as $$
  select case when exists (select 1 from public.judgments j where j.id = p_id) then
    coalesce((
      select pg_catalog.jsonb_agg(pg_catalog.to_jsonb(v) - 'judgment_id' order by v.id desc)
        from (select * from public.judgment_versions x
               where x.judgment_id = p_id and (p_before is null or x.id < p_before)
               order by x.id desc
               limit greatest(1, least(coalesce(p_limit, 50), 100))) v
    ), '[]'::jsonb)
  end
$$;
revoke execute on function public.judgment_versions_list(uuid, integer, bigint) from public, anon;
grant execute on function public.judgment_versions_list(uuid, integer, bigint) to authenticated, service_role;
