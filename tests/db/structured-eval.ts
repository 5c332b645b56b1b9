/**
 * An independent TypeScript evaluation of BaseSchemaFilters over judgment rows loaded from the database, written from
 * the spec's filter semantics (not from the SQL), so the property test can compare the two. Also loads the corpus
 * slice the tests evaluate against.
 */
import pg from "pg";
import { filterFieldSpecs, type FilterFieldSpec } from "@/lib/schema/filter-fields";

export type Row = Record<string, unknown> & { id: string; jurisdiction: string; decision_date: string | null };

// Dates as YYYY-MM-DD strings and numerics as numbers, so rows compare like JSON values.
pg.types.setTypeParser(1082, (v: string) => v);
pg.types.setTypeParser(1700, (v: string) => Number(v));

/** Every completed judgment with the columns any filter key reads. */
export async function loadCompletedRows(pool: pg.Pool): Promise<Row[]> {
  const cols = [...new Set(filterFieldSpecs().filter((s) => s.column !== "id").map((s) => s.column))];
  const { rows } = await pool.query<Row>(
    `select id::text, decision_date, ${cols.map((c) => `"${c}"`).join(", ")}
     from public.judgments where base_extraction_status = 'completed'`,
  );
  return rows;
}

type Filters = Record<string, unknown>;

function dateBounds(v: unknown): { lo: string | null; hi: string | null } {
  if (typeof v === "string") return { lo: v, hi: v };
  const o = v as Record<string, string | null | undefined>;
  return { lo: o.from ?? o.min ?? null, hi: o.to ?? o.max ?? null };
}

function matchesKey(spec: FilterFieldSpec, value: unknown, row: Row, membership: Map<string, Set<string>>): boolean {
  const cell = row[spec.column];
  switch (spec.control) {
    case "enum_multi":
    case "tag_array": {
      const wanted = value as string[];
      if (Array.isArray(cell)) return cell.some((e) => wanted.includes(e as string));
      return typeof cell === "string" && wanted.includes(cell);
    }
    case "boolean_tri":
      return cell === value;
    case "numeric_range": {
      const { min, max } = typeof value === "number" ? { min: value, max: value } : (value as { min?: number | null; max?: number | null });
      // No bound at all is no clause.
      if (min == null && max == null) return true;
      if (cell === null || cell === undefined) return false;
      const n = Number(cell);
      return (min == null || n >= min) && (max == null || n <= max);
    }
    case "date_range": {
      const { lo, hi } = dateBounds(value);
      if (lo === null && hi === null) return true;
      if (cell === null || cell === undefined) return false;
      const d = cell as string;
      return (lo === null || d >= lo) && (hi === null || d <= hi);
    }
    case "substring": {
      const needle = (value as string).trim().toLowerCase();
      if (needle === "") return true;
      return typeof cell === "string" && cell.toLowerCase().includes(needle);
    }
    case "uuid_membership": {
      const ids = value as string[];
      if (ids.length === 0) return true;
      return ids.some((c) => membership.get(c)?.has(row.id) ?? false);
    }
  }
}

/** Rows matching every key of `filters`, ordered as filter_documents_by_extracted_data orders them. */
export function evaluate(rows: Row[], filters: Filters, membership = new Map<string, Set<string>>()): Row[] {
  const specs = new Map(filterFieldSpecs().map((s) => [s.key, s]));
  const out = rows.filter((row) =>
    Object.entries(filters).every(([k, v]) => {
      const spec = specs.get(k);
      if (!spec || !spec.filterable) throw new Error(`evaluate: unknown key ${k}`);
      return matchesKey(spec, v, row, membership);
    }),
  );
  return out.sort((a, b) => {
    if (a.decision_date !== b.decision_date) {
      if (a.decision_date === null) return 1;
      if (b.decision_date === null) return -1;
      return a.decision_date < b.decision_date ? 1 : -1;
    }
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  });
}
