import { afterAll, describe, expect, it } from "vitest";
import { asRole, userClaims, type ApiRole } from "../helpers/as-role";
import { adminPool } from "../helpers/stack";

const pool = adminPool();
afterAll(() => pool.end());

/** The RPC functions of structured search and collections, with a harmless call of each. */
const CALLS: Record<string, string> = {
  list_extracted_filter_matches: "select count(*) from public.list_extracted_filter_matches('{}', null)",
  filter_documents_by_extracted_data: "select count(*) from public.filter_documents_by_extracted_data('{}', null, 1, 0)",
  aggregate_extracted_data: "select public.aggregate_extracted_data('{}', null, array['jurisdiction'])",
  facet_extracted_values: "select count(*) from public.facet_extracted_values('court_name')",
  export_extracted_rows: "select count(*) from public.export_extracted_rows('{}', null, 1, 0)",
  list_collections: "select count(*) from public.list_collections()",
  get_collection: "select count(*) from public.get_collection(gen_random_uuid())",
  update_collection: "select count(*) from public.update_collection(gen_random_uuid(), '{}')",
  delete_collection: "select public.delete_collection(gen_random_uuid())",
  count_visible_collections: "select public.count_visible_collections(array[gen_random_uuid()])",
  list_collection_documents: "select count(*) from public.list_collection_documents(gen_random_uuid())",
};

async function callAs(role: ApiRole, sql: string): Promise<string> {
  try {
    await asRole(pool, role, role === "authenticated" ? userClaims("5a1e0000-0000-4000-8000-00000000fc01") : { role }, (c) => c.query(sql), {
      rollback: true,
    });
    return "ok";
  } catch (e) {
    return (e as { code: string }).code;
  }
}

describe("database functions are a wire contract", () => {
  it("every function of ours in public has exactly one overload (a second one makes the REST layer answer 300)", async () => {
    const { rows } = await pool.query<{ proname: string; n: number }>(
      `select p.proname, count(*)::int as n from pg_proc p
       where p.pronamespace = 'public'::regnamespace
         -- Extension members (pgcrypto, pg_trgm, unaccent live in public locally) are not ours to expose.
         and not exists (select 1 from pg_depend d where d.classid = 'pg_proc'::regclass and d.objid = p.oid and d.deptype = 'e')
       group by p.proname having count(*) > 1`,
    );
    expect(rows).toEqual([]);
  });

  it("the structured-search and collection functions exist with the spec's argument names", async () => {
    const { rows } = await pool.query<{ proname: string; args: string }>(
      `select p.proname, pg_get_function_identity_arguments(p.oid) as args from pg_proc p
       where p.pronamespace = 'public'::regnamespace and p.proname = any($1) order by 1`,
      [["list_extracted_filter_matches", "filter_documents_by_extracted_data", "aggregate_extracted_data"]],
    );
    expect(rows).toEqual([
      {
        proname: "aggregate_extracted_data",
        args: "p_filters jsonb, p_text_query text, p_fields text[], p_sample_size integer, p_seed integer, p_top_n integer",
      },
      { proname: "filter_documents_by_extracted_data", args: "p_filters jsonb, p_text_query text, p_limit integer, p_offset integer" },
      { proname: "list_extracted_filter_matches", args: "p_filters jsonb, p_text_query text" },
    ]);
  });

  it("they are SECURITY INVOKER with a pinned search_path", async () => {
    const names = [...Object.keys(CALLS), "create_collection", "add_collection_documents", "remove_collection_documents"];
    const { rows } = await pool.query<{ proname: string; prosecdef: boolean; proconfig: string[] | null }>(
      `select p.proname, p.prosecdef, p.proconfig from pg_proc p
       where p.pronamespace = 'public'::regnamespace and p.proname = any($1) order by 1`,
      [names],
    );
    expect(rows.map((r) => r.proname).sort()).toEqual([...names].sort());
    for (const r of rows) {
      expect([r.proname, r.prosecdef]).toEqual([r.proname, false]);
      expect([r.proname, (r.proconfig ?? []).some((c) => c.startsWith("search_path="))]).toEqual([r.proname, true]);
    }
  });
});

describe("EXECUTE is granted to authenticated and service_role only (D-02)", () => {
  for (const [fn, sql] of Object.entries(CALLS)) {
    it(fn, async () => {
      expect(await callAs("anon", sql)).toBe("42501");
      expect(await callAs("authenticated", sql)).toBe("ok");
      expect(await callAs("service_role", sql)).toBe("ok");
    });
  }

  it("anon cannot reach the structured schema or the collection tables either", async () => {
    expect(await callAs("anon", "select count(*) from structured.filter_fields")).toBe("42501");
    expect(await callAs("anon", "select count(*) from public.collections")).toBe("42501");
    expect(await callAs("anon", "select count(*) from public.collection_documents")).toBe("42501");
  });
});
