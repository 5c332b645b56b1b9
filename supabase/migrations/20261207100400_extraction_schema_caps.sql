-- The schema caps in the database (P-79): fields per extraction schema (SCHEMA_MAX_FIELDS, 100) and values per enum
-- field (SCHEMA_MAX_ENUM_VALUES, 200). Signed-in callers write extraction_schemas and schema_versions themselves (RLS,
-- owner only) and a job snapshots a schema's fields for the worker, which sends them to a model per judgment: the
-- app's zod schema was the only bound. A trigger on both tables now refuses a larger field list whoever writes it
-- (22023, detail = the cap's name); a field list is also held to 512 KB. Rows stored before are left as they are.

insert into public.app_limits (name, value) values ('SCHEMA_MAX_ENUM_VALUES', 200) on conflict (name) do nothing;

create or replace function public.extraction_fields_enforce_caps() returns trigger
  language plpgsql
  set search_path = ''
  as $$
begin
  if jsonb_typeof(new.fields) = 'array' then
    if jsonb_array_length(new.fields) > public.app_limit('SCHEMA_MAX_FIELDS') then
      raise exception 'at most % fields per schema', public.app_limit('SCHEMA_MAX_FIELDS')
        using errcode = '22023', detail = 'SCHEMA_MAX_FIELDS';
    end if;
    if exists (select 1 from jsonb_array_elements(new.fields) f
                where jsonb_typeof(f -> 'enum_values') = 'array'
                  and jsonb_array_length(f -> 'enum_values') > public.app_limit('SCHEMA_MAX_ENUM_VALUES')) then
      raise exception 'at most % values per enum field', public.app_limit('SCHEMA_MAX_ENUM_VALUES')
        using errcode = '22023', detail = 'SCHEMA_MAX_ENUM_VALUES';
    end if;
  end if;
  if pg_column_size(new.fields) > 524288 then
    raise exception 'the field list is larger than 512 KB' using errcode = '22023', detail = 'fields';
  end if;
  return new;
end
$$;

drop trigger if exists extraction_schemas_enforce_caps on public.extraction_schemas;
create trigger extraction_schemas_enforce_caps
  before insert or update of fields on public.extraction_schemas
  for each row execute function public.extraction_fields_enforce_caps();

drop trigger if exists schema_versions_enforce_caps on public.schema_versions;
create trigger schema_versions_enforce_caps
  before insert or update of fields on public.schema_versions
  for each row execute function public.extraction_fields_enforce_caps();
