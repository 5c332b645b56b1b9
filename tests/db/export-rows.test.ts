import { afterAll, describe, expect, it } from "vitest";
import { asRole, userClaims } from "../helpers/as-role";
import { adminPool } from "../helpers/stack";
import { EXTRACTED_FIELDS } from "@/lib/schema";

const pool = adminPool();
afterAll(() => pool.end());

const USER = userClaims("5a1e0000-0000-4000-8000-00000000e801");

/** export_extracted_rows: the filter page's cohort and order, 1,000 rows per call, short columns only. */
describe("export_extracted_rows", () => {
  it("answers the filter page's rows in its order, page after page, as the caller", async () => {
    const filters = { jurisdiction: ["PL"] };
    await asRole(pool, "authenticated", USER, async (c) => {
      const listed: string[] = [];
      for (let offset = 0; ; offset += 100) {
        const { rows } = await c.query<{ id: string }>("select id::text from public.filter_documents_by_extracted_data($1, null, 100, $2)", [filters, offset]);
        listed.push(...rows.map((r) => r.id));
        if (rows.length < 100) break;
      }
      expect(listed.length).toBeGreaterThan(100);
      const exported: string[] = [];
      for (let offset = 0; ; offset += 150) {
        const { rows } = await c.query<{ r: Record<string, unknown> }>("select r from public.export_extracted_rows($1, null, 150, $2) r", [filters, offset]);
        exported.push(...rows.map((x) => String(x.r.id)));
        if (rows.length < 150) break;
      }
      expect(exported).toEqual(listed);
    }, { rollback: true });
  });

  it("carries every extracted field's column and none of the long texts; the limit is clamped to 1,000", async () => {
    await asRole(pool, "authenticated", USER, async (c) => {
      const { rows } = await c.query<{ r: Record<string, unknown> }>("select r from public.export_extracted_rows('{}', null, 5000, 0) r");
      expect(rows.length).toBeLessThanOrEqual(1000);
      expect(rows.length).toBeGreaterThan(0);
      const keys = Object.keys(rows[0].r);
      for (const f of EXTRACTED_FIELDS) expect(keys, f.column).toContain(f.column);
      for (const k of ["id", "case_number", "title", "jurisdiction", "court_name", "decision_date"]) expect(keys).toContain(k);
      for (const k of ["full_text", "full_html", "summary", "base_raw_extraction", "base_search_tsv"]) expect(keys).not.toContain(k);
    }, { rollback: true });
  });
});
