-- Review finding L9: POST /collections/from-filter in one transaction. Before this it was a create plus one RPC
-- per 1,000 ids, with every matching id sent to the app first: a crash or a failed chunk (with a failed clean-up)
-- left a partly filled collection behind. This function creates the collection, inserts at most p_cap + 1 matching
-- ids straight from the filter predicate, and raises when nothing or too much matched, so the whole call commits or
-- nothing is left.
--
-- SECURITY INVOKER: RLS on collections / collection_documents is the gate, exactly as for create_collection and
-- add_collection_documents. Errors (the HTTP layer maps them in lib/backend/extractions/db-errors.ts and
-- lib/backend/collections/from-filter.ts):
--   SF001  the filter is invalid (raised by structured.filter_predicate), detail = the field
--   22023  name or description invalid (create_collection's checks)
--   SC003  the filter matches nothing
--   SC004  the filter matches more than p_cap; detail = the exact number matched
create or replace function public.create_collection_from_filter(
  p_name text,
  p_description text,
  p_filters jsonb,
  p_text_query text,
  p_cap integer
)
  returns jsonb
  language plpgsql volatile security invoker
  set search_path = ''
  as $$
declare
  v_predicate text;
  v_collection public.collection_row;
  v_added integer;
  v_total bigint;
begin
  if p_cap is null or p_cap < 1 then
    raise exception 'cap must be a positive integer' using errcode = '22023', detail = 'cap';
  end if;
  -- Validate the filter before anything is written (SF001 names the field).
  v_predicate := structured.filter_predicate(coalesce(p_filters, '{}'::jsonb), p_text_query);
  v_collection := public.create_collection(p_name, p_description);
  -- The ids never leave the database; at most cap + 1 are written, enough to know the cap is exceeded.
  execute format(
    'insert into public.collection_documents (collection_id, judgment_id)
     select $1, j.id from public.judgments j where %s limit $2',
    v_predicate
  ) using v_collection.id, p_cap + 1;
  get diagnostics v_added = row_count;
  if v_added = 0 then
    raise exception 'the filter matches no judgments' using errcode = 'SC003';
  end if;
  if v_added > p_cap then
    -- Counted only on this refusal path, so the 413 can say how many matched.
    execute 'select count(*) from public.judgments j where ' || v_predicate into v_total;
    raise exception 'the filter matches % judgments; at most % can be saved', v_total, p_cap
      using errcode = 'SC004', detail = v_total::text;
  end if;
  v_collection.document_count := v_added;
  return jsonb_build_object('collection', to_jsonb(v_collection), 'added_count', v_added, 'total_matched', v_added);
end
$$;
comment on function public.create_collection_from_filter(text, text, jsonb, text, integer) is
  'Create a collection holding every judgment matching a filter, in one transaction; SC003 empty, SC004 over the cap.';

revoke all on function public.create_collection_from_filter(text, text, jsonb, text, integer) from public, anon;
grant execute on function public.create_collection_from_filter(text, text, jsonb, text, integer) to authenticated, service_role;
