import ExcelJS from "exceljs";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { signedInVisitor, Visitor } from "./structured-visitor";
import { adminPool, stackEnv } from "../helpers/stack";
import { deleteFixtureRows, insertFixtureRows, rebuildAppIndex } from "../helpers/app-index";
import { byName } from "@/lib/schema";

/**
 * The exports of every list (lib/backend/exports) over real HTTP: search results, extraction rows, collection members,
 * aggregates and comparisons of two cohorts, each as CSV, XLSX and JSONL, parsed back and checked row by row against the list the API itself
 * answers; labels vs codes (EN and PL); the formula guard in CSV and XLSX; sign-in and another user's collection.
 */
// In dev mode the first request to each route compiles it: minutes on a busy machine.
vi.setConfig({ testTimeout: 240_000 });

const dataDir = (stackEnv() as { searchDataDir?: string }).searchDataDir ?? process.env.SEARCH_DATA_DIR;
let pool: pg.Pool;
let alice: Visitor;
let bob: Visitor;

beforeAll(async () => {
  if (!dataDir) throw new Error("set SEARCH_DATA_DIR (or the stack's searchDataDir) for the search export tests");
  pool = adminPool();
  ({ visitor: alice } = await signedInVisitor());
  ({ visitor: bob } = await signedInVisitor());
  // The search index of the app holds the test corpus and the search-conformance fixture rows.
  await insertFixtureRows(pool);
  await rebuildAppIndex(pool, dataDir);
}, 180_000);

afterAll(async () => {
  if (pool) await deleteFixtureRows(pool);
  await pool?.end();
});

/** RFC 4180: fields separated by commas, quoted when they hold a quote, comma or line break; CRLF rows; a leading BOM. */
function parseCsv(text: string): string[][] {
  const s = text.replace(/^\uFEFF/, "");
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (quoted) {
      if (c === '"' && s[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(cell);
      cell = "";
    } else if (c === "\r" && s[i + 1] === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      i++;
    } else cell += c;
  }
  if (cell !== "" || row.length) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

interface Table {
  header: string[];
  rows: unknown[][];
}

/** Any export body as a header and rows of cell values (CSV: strings; XLSX: cell values; JSONL: the objects' values). */
async function table(res: Response, format: "csv" | "xlsx" | "jsonl"): Promise<Table> {
  expect(res.status).toBe(200);
  if (format === "csv") {
    const [header, ...rows] = parseCsv(await res.text());
    return { header, rows };
  }
  if (format === "jsonl") {
    const objects = (await res.text())
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    return { header: objects.length ? Object.keys(objects[0]) : [], rows: objects.map((o) => Object.values(o)) };
  }
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as unknown as ExcelJS.Buffer);
  const ws = wb.worksheets[0];
  const values = (r: number) => (ws.getRow(r).values as unknown[]).slice(1);
  const rows: unknown[][] = [];
  for (let r = 2; r <= ws.rowCount; r++) rows.push(values(r));
  return { header: values(1).map(String), rows };
}

const column = (t: Table, name: string) => {
  const i = t.header.indexOf(name);
  expect(i, `column ${name} in ${t.header.join(",")}`).toBeGreaterThanOrEqual(0);
  return t.rows.map((r) => r[i] ?? "");
};

const FORMATS = ["csv", "xlsx", "jsonl"] as const;
const enc = (v: unknown) => encodeURIComponent(JSON.stringify(v));

describe("sign-in is required", () => {
  it("every export answers 401 to a guest (search export is for signed-in users)", async () => {
    const anon = new Visitor();
    for (const path of [
      "/api/search/export?q=robbery",
      "/api/extractions/base-schema/export",
      "/api/extractions/base-schema/aggregate/export",
      "/api/collections/00000000-0000-4000-8000-000000000000/export",
    ]) {
      const res = await anon.get(path);
      expect(res.status, path).toBe(401);
    }
    const compare = await anon.post("/api/cohorts/compare/export", { a: { filters: {} }, b: { filters: {} }, fields: ["jurisdiction"] });
    expect(compare.status).toBe(401);
  });

  it("a bad format or header mode is a 422 and sends no file", async () => {
    for (const path of ["/api/search/export?format=pdf", "/api/extractions/base-schema/export?headers=names"]) {
      const res = await alice.get(path);
      expect(res.status, path).toBe(422);
      expect(res.headers.get("content-disposition")).toBeNull();
    }
  });
});

describe("GET /api/search/export", () => {
  it("exports the hits in the search route's order, across pages, in each format", async () => {
    // The whole corpus (no query): more hits than one page of 100, so the export pages like a reader would.
    const first = (await (await alice.get("/api/search/documents?q=&sort=newest&limit=100")).json()) as { hits: { id: string }[]; estimated_total: number };
    const total = Math.min(first.estimated_total, 1000);
    expect(total).toBeGreaterThan(100);
    const ids = first.hits.map((h) => h.id);
    for (let offset = 100; offset < total; offset += 100) {
      const page = (await (await alice.get(`/api/search/documents?q=&sort=newest&limit=100&offset=${offset}`)).json()) as { hits: { id: string }[] };
      ids.push(...page.hits.map((h) => h.id));
    }
    for (const format of FORMATS) {
      const res = await alice.get(`/api/search/export?q=&sort=newest&format=${format}&headers=codes`);
      expect(res.headers.get("x-export-rows")).toBe(String(total));
      const t = await table(res, format);
      expect(t.rows.length, format).toBe(total);
      expect(column(t, "id"), format).toEqual(ids.slice(0, total));
      expect(column(t, "rank").map(Number), format).toEqual(ids.slice(0, total).map((_, i) => i + 1));
    }
  });

  it("takes the search route's filter and sort", async () => {
    const filter = encodeURIComponent("decision_type = fixture AND jurisdiction = UK");
    const api = (await (await alice.get(`/api/search/documents?q=robbery&filter=${filter}&limit=100`)).json()) as { hits: { id: string; title: string }[] };
    expect(api.hits.length).toBeGreaterThan(0);
    const res = await alice.get(`/api/search/export?q=robbery&filter=${filter}&format=csv&headers=codes`);
    expect(res.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(res.headers.get("content-disposition")).toMatch(/attachment; filename="search-robbery-\d{4}-\d{2}-\d{2}\.csv"/);
    const t = await table(res, "csv");
    expect(column(t, "id")).toEqual(api.hits.map((h) => h.id));
    expect(column(t, "title")).toEqual(api.hits.map((h) => h.title));
    expect(column(t, "jurisdiction").every((j) => j === "UK")).toBe(true);
  });
});

describe("GET /api/extractions/base-schema/export", () => {
  const filters = { jurisdiction: ["PL"] };

  it("exports the filter route's cohort, in its order, one column per extracted field, in each format", async () => {
    const listed: { id: string; case_number: string | null }[] = [];
    for (let offset = 0; ; offset += 100) {
      const page = (await (await alice.post("/api/extractions/base-schema/filter", { filters, limit: 100, offset })).json()) as { results: { id: string; case_number: string | null }[]; has_more: boolean };
      listed.push(...page.results);
      if (!page.has_more) break;
    }
    expect(listed.length).toBeGreaterThan(100);
    const outcomes = new Map(
      (await pool.query<{ id: string; base_appeal_outcome: string[] | null }>("select id, base_appeal_outcome from public.judgments where id = any($1::uuid[])", [listed.map((r) => r.id)])).rows.map((r) => [r.id, r.base_appeal_outcome]),
    );
    for (const format of FORMATS) {
      const t = await table(await alice.get(`/api/extractions/base-schema/export?filters=${enc(filters)}&format=${format}&headers=codes`), format);
      expect(t.rows.length, format).toBe(listed.length);
      expect(column(t, "id"), format).toEqual(listed.map((r) => r.id));
      expect(column(t, "case_number"), format).toEqual(listed.map((r) => r.case_number ?? ""));
      // The typed columns: the judgment's own stored value (a list: "; "-joined in CSV and XLSX, an array in JSONL).
      const joined = (v: unknown) => (Array.isArray(v) ? v.join("; ") : String(v ?? ""));
      expect(column(t, "appeal_outcome").map(joined), format).toEqual(listed.map((r) => joined(outcomes.get(r.id))));
      expect(t.header).toContain("sentence_custody_months");
    }
  });

  it("labels: the registry's EN or PL header and enum labels; codes: the stored names and values", async () => {
    const field = byName("appeal_outcome")!;
    const codes = await table(await alice.get(`/api/extractions/base-schema/export?filters=${enc(filters)}&format=csv&headers=codes`), "csv");
    const en = await table(await alice.get(`/api/extractions/base-schema/export?filters=${enc(filters)}&format=csv&headers=labels&lang=en`), "csv");
    // No lang: the interface locale, here from Accept-Language.
    const plRes = await alice.get(`/api/extractions/base-schema/export?filters=${enc(filters)}&format=csv`, { "accept-language": "pl-PL,pl;q=0.9" });
    expect(plRes.headers.get("x-export-headers")).toBe("labels");
    const pl = await table(plRes, "csv");
    expect(codes.header).toContain("appeal_outcome");
    expect(en.header).toContain(field.label.en);
    expect(pl.header).toContain(field.label.pl);
    for (const h of [...en.header, ...pl.header]) expect(h, "no snake_case header in labels mode").not.toMatch(/^[a-z]+(_[a-z]+)+$/);
    const codeValues = column(codes, "appeal_outcome");
    const plValues = column(pl, field.label.pl);
    const i = codeValues.findIndex((v) => v !== "");
    expect(i).toBeGreaterThanOrEqual(0);
    const option = field.enumValues!.find((o) => o.value === String(codeValues[i]).split("; ")[0])!;
    expect(String(plValues[i])).toContain(option.pl);
    expect(String(column(en, field.label.en)[i])).toContain(option.en);
  });

  it("a bad filter is the filter route's own 422, before any byte", async () => {
    const res = await alice.get(`/api/extractions/base-schema/export?filters=${enc({ no_such_field: ["x"] })}`);
    expect(res.status).toBe(422);
    expect(((await res.json()) as { detail: { code: string } }).detail.code).toBe("FILTER_INVALID");
  });
});

describe("GET /api/collections/{id}/export", () => {
  let collectionId = "";
  let members: string[] = [];
  let plantedTitle: string | null = null;

  beforeAll(async () => {
    members = (await pool.query<{ id: string }>("select id from public.judgments where decision_type is distinct from 'fixture' order by id limit 7")).rows.map((r) => r.id);
    const res = await alice.post("/api/collections", { name: "Export test — Łódź", document_ids: members });
    expect(res.status).toBe(201);
    collectionId = ((await res.json()) as { id: string }).id;
    // A title a spreadsheet would run as a formula.
    plantedTitle = (await pool.query<{ title: string | null }>("select title from public.judgments where id = $1", [members[0]])).rows[0].title;
    await pool.query(`update public.judgments set title = '=HYPERLINK("http://x","y")' where id = $1`, [members[0]]);
  });

  afterAll(async () => {
    await pool.query("update public.judgments set title = $2 where id = $1", [members[0], plantedTitle]);
  });

  it("exports the members as the collection lists them, in each format, with the chosen preset", async () => {
    const listed = (await (await alice.get(`/api/collections/${collectionId}/documents?limit=100`)).json()) as { documents: { id: string; added_at: string }[] };
    expect(listed.documents).toHaveLength(7);
    for (const format of FORMATS) {
      const res = await alice.get(`/api/collections/${collectionId}/export?format=${format}&headers=codes&preset=full`);
      expect(res.headers.get("content-disposition")).toContain(`Export-test-Lodz.${format}`);
      const t = await table(res, format);
      expect(t.header).toEqual(["id", "case_number", "title", "jurisdiction", "court_name", "decision_date", "source_url", "added_at"]);
      expect(column(t, "id"), format).toEqual(listed.documents.map((d) => d.id));
    }
    const citation = await table(await alice.get(`/api/collections/${collectionId}/export?preset=citation&headers=codes`), "csv");
    const courts = (await pool.query<{ id: string; court_name: string | null }>("select id, court_name from public.judgments where id = any($1::uuid[])", [members])).rows;
    expect(citation.header).toEqual(["case_number", "title", "court_name", "decision_date", "source_url"]);
    expect(new Set(column(citation, "court_name"))).toEqual(new Set(courts.map((c) => c.court_name ?? "")));
  });

  it("neutralises formula cells in CSV and XLSX (a leading apostrophe), and leaves JSONL as data", async () => {
    const csvText = await (await alice.get(`/api/collections/${collectionId}/export?format=csv&headers=codes`)).text();
    expect(csvText).toContain(`"'=HYPERLINK(""http://x"",""y"")"`);
    for (const row of parseCsv(csvText).slice(1)) for (const cell of row) expect(cell).not.toMatch(/^[=+\-@\t\r]/);

    const xlsx = await table(await alice.get(`/api/collections/${collectionId}/export?format=xlsx&headers=codes`), "xlsx");
    const titles = column(xlsx, "title");
    expect(titles).toContain(`'=HYPERLINK("http://x","y")`);
    for (const row of xlsx.rows) for (const cell of row) if (typeof cell === "string") expect(cell).not.toMatch(/^[=+\-@\t\r]/);
    // Cells are values, never formula cells.
    for (const row of xlsx.rows) for (const cell of row) expect(typeof cell === "object" && cell !== null && "formula" in cell).toBe(false);

    const jsonl = await table(await alice.get(`/api/collections/${collectionId}/export?format=jsonl&headers=codes`), "jsonl");
    expect(column(jsonl, "title")).toContain(`=HYPERLINK("http://x","y")`);
  });

  it("labels in PL from the locale cookie", async () => {
    alice.setCookie("locale", "pl");
    try {
      const t = await table(await alice.get(`/api/collections/${collectionId}/export?preset=basic`), "csv");
      expect(t.header).toEqual(["ID orzeczenia", "Sygnatura", "Tytuł", "Jurysdykcja", "Data orzeczenia"]);
    } finally {
      alice.setCookie("locale", undefined);
    }
  });

  it("another user's collection is a 404, as on every collection route", async () => {
    const res = await bob.get(`/api/collections/${collectionId}/export?format=csv`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { detail: { code: string } }).detail.code).toBe("COLLECTION_NOT_FOUND");
    expect((await alice.get("/api/collections/not-a-uuid/export")).status).toBe(400);
  });
});

describe("GET /api/extractions/base-schema/aggregate/export", () => {
  const filters = { jurisdiction: ["PL", "UK"] };
  const fields = ["appeal_outcome", "jurisdiction", "decision_date", "num_victims"];

  it("one row per field and value, with the counts the aggregate route answers, in each format", async () => {
    const agg = (await (await alice.post("/api/extractions/base-schema/aggregate", { filters, fields })).json()) as {
      fields: Record<string, { kind: string; values?: { value: string; count: number }[]; buckets?: { lo: number; count: number }[]; null: number }>;
    };
    for (const format of FORMATS) {
      const t = await table(await alice.get(`/api/extractions/base-schema/aggregate/export?filters=${enc(filters)}&fields=${fields.join(",")}&format=${format}&headers=codes`), format);
      expect(t.header).toEqual(["field", "kind", "value", "lo", "hi", "count", "share"]);
      const f = column(t, "field").map(String);
      const v = column(t, "value").map(String);
      const lo = column(t, "lo").map(String);
      const n = column(t, "count").map(Number);
      for (const [name, d] of Object.entries(agg.fields)) {
        for (const x of d.values ?? []) {
          const i = f.findIndex((ff, k) => ff === name && v[k] === x.value);
          expect(n[i], `${format} ${name}=${x.value}`).toBe(x.count);
        }
        for (const b of d.buckets ?? []) {
          const i = f.findIndex((ff, k) => ff === name && lo[k] === String(b.lo));
          expect(n[i], `${format} ${name} bucket ${b.lo}`).toBe(b.count);
        }
        expect(n[f.findIndex((ff, k) => ff === name && v[k] === "(missing)")]).toBe(d.null);
      }
    }
  });

  it("labels: field and value labels as on the charts; an unknown field is the aggregate route's 422", async () => {
    const t = await table(await alice.get(`/api/extractions/base-schema/aggregate/export?filters=${enc(filters)}&fields=appeal_outcome&lang=pl`), "csv");
    expect(t.header).toEqual(["Pole", "Rodzaj", "Wartość", "Od", "Do (bez)", "Liczba", "Udział wśród uzupełnionych"]);
    const label = byName("appeal_outcome")!;
    expect(new Set(column(t, "Pole"))).toEqual(new Set([label.label.pl]));
    for (const v of column(t, "Wartość")) expect(String(v)).not.toMatch(/^[a-z]+(_[a-z]+)+$/);
    const bad = await alice.get("/api/extractions/base-schema/aggregate/export?fields=no_such_field");
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { detail: { code: string } }).detail.code).toBe("FIELD_NOT_AGGREGABLE");
  });
});

describe("POST /api/cohorts/compare/export", () => {
  let a = "";
  let b = "";
  let members: string[] = [];
  let plantedCourt: string | null = null;
  const fields = ["jurisdiction", "appeal_outcome", "court_name", "decision_date", "sentence_custody_months"];

  beforeAll(async () => {
    members = (await pool.query<{ id: string }>("select id from public.judgments where decision_type is distinct from 'fixture' and base_extraction_status = 'completed' order by id limit 12")).rows.map((r) => r.id);
    const make = async (name: string, ids: string[]) => {
      const res = await alice.post("/api/collections", { name, document_ids: ids });
      expect(res.status).toBe(201);
      return ((await res.json()) as { id: string }).id;
    };
    [a, b] = await Promise.all([make("Compare export A", members.slice(0, 7)), make("Compare export B", members.slice(5))]);
    // A court name a spreadsheet would run as a formula, in both cohorts.
    plantedCourt = (await pool.query<{ court_name: string | null }>("select court_name from public.judgments where id = $1", [members[5]])).rows[0].court_name;
    await pool.query(`update public.judgments set court_name = '=HYPERLINK("http://x","y")' where id = $1`, [members[5]]);
  });

  afterAll(async () => {
    await pool.query("update public.judgments set court_name = $2 where id = $1", [members[5], plantedCourt]);
  });

  const body = (extra: Record<string, unknown> = {}) => ({ a: { collection_id: a }, b: { collection_id: b }, fields, ...extra });

  it("one row per field and value with the compare route's numbers, in each format", async () => {
    const cmp = (await (await alice.post("/api/cohorts/compare", body())).json()) as {
      a: { size: number };
      b: { size: number };
      fields: Array<{ field: string; kind: string; values?: { value: string; a_count: number; b_count: number; diff: number; ci_low: number; ci_high: number }[]; a?: { n: number; median: number | null }; b?: { n: number; median: number | null }; diff?: number | null }>;
    };
    expect(cmp.a.size).toBe(7);
    expect(cmp.b.size).toBe(7);
    const expectedRows = cmp.fields.reduce((n, f) => n + (f.kind === "numeric" ? 1 : f.values!.length), 0);
    for (const format of FORMATS) {
      const res = await alice.post("/api/cohorts/compare/export", body({ format, headers: "codes" }));
      expect(res.headers.get("content-disposition")).toMatch(new RegExp(`cohort-comparison-\\d{4}-\\d{2}-\\d{2}\\.${format}`));
      expect(res.headers.get("x-export-rows")).toBe(String(expectedRows));
      const t = await table(res, format);
      expect(t.header).toEqual(["field", "kind", "value", "statistic", "a_count", "a_size", "a_share", "a_median", "a_q1", "a_q3", "b_count", "b_size", "b_share", "b_median", "b_q1", "b_q3", "diff", "ci_low", "ci_high"]);
      expect(t.rows).toHaveLength(expectedRows);
      const f = column(t, "field").map(String);
      const v = column(t, "value").map(String);
      const num = (name: string) => column(t, name).map((x) => (x === "" || x === null ? null : Number(x)));
      const [ac, bc, diff, low, high, am] = ["a_count", "b_count", "diff", "ci_low", "ci_high", "a_median"].map(num);
      expect(new Set(num("a_size"))).toEqual(new Set([7]));
      for (const field of cmp.fields) {
        if (field.kind === "numeric") {
          const i = f.indexOf(field.field);
          expect(ac[i], `${format} ${field.field} n`).toBe(field.a!.n);
          expect(am[i]).toBe(field.a!.median);
          expect(diff[i]).toBe(field.diff ?? null);
          expect(column(t, "statistic")[i]).toBe("median_difference");
          continue;
        }
        for (const x of field.values!) {
          const i = f.findIndex((ff, k) => ff === field.field && (v[k] === x.value || v[k] === `'${x.value}`));
          expect(i, `${format} ${field.field}=${x.value}`).toBeGreaterThanOrEqual(0);
          expect([ac[i], bc[i]]).toEqual([x.a_count, x.b_count]);
          expect(diff[i]).toBeCloseTo(x.diff, 5);
          expect(low[i]).toBeCloseTo(x.ci_low, 5);
          expect(high[i]).toBeCloseTo(x.ci_high, 5);
        }
      }
    }
  });

  it("labels: EN and PL headers, field and value labels; codes: the stored names", async () => {
    const en = await table(await alice.post("/api/cohorts/compare/export", body({ fields: ["appeal_outcome", "jurisdiction"], lang: "en" })), "csv");
    expect(en.header.slice(0, 5)).toEqual(["Field", "Kind", "Value", "Statistic", "A: judgments"]);
    const outcome = byName("appeal_outcome")!;
    expect(new Set(column(en, "Field"))).toEqual(new Set([outcome.label.en, "Jurisdiction"]));
    for (const v of column(en, "Value")) expect(String(v)).not.toMatch(/^[a-z]+(_[a-z]+)+$/);
    const jurisdictions = column(en, "Value").filter((_, i) => column(en, "Field")[i] === "Jurisdiction");
    expect(jurisdictions.length).toBeGreaterThan(0);
    for (const v of jurisdictions) expect(["Poland", "United Kingdom"]).toContain(v);
    expect(new Set(column(en, "Statistic"))).toEqual(new Set(["Difference of shares (Newcombe's hybrid score interval)"]));

    alice.setCookie("locale", "pl");
    try {
      const pl = await table(await alice.post("/api/cohorts/compare/export", body({ fields: ["appeal_outcome"], format: "xlsx" })), "xlsx");
      expect(pl.header.slice(0, 4)).toEqual(["Pole", "Rodzaj", "Wartość", "Statystyka"]);
      expect(new Set(column(pl, "Pole"))).toEqual(new Set([outcome.label.pl]));
      const plLabels = new Set(outcome.enumValues!.map((o) => o.pl));
      for (const v of column(pl, "Wartość")) expect(plLabels.has(String(v)), String(v)).toBe(true);
    } finally {
      alice.setCookie("locale", undefined);
    }

    const codes = await table(await alice.post("/api/cohorts/compare/export", body({ fields: ["appeal_outcome"], headers: "codes", format: "jsonl" })), "jsonl");
    const codeSet = new Set(outcome.enumValues!.map((o) => o.value));
    for (const v of column(codes, "value")) expect(codeSet.has(String(v)), String(v)).toBe(true);
  });

  it("neutralises formula cells in CSV and XLSX, and leaves JSONL as data", async () => {
    const req = (format: string) => alice.post("/api/cohorts/compare/export", body({ fields: ["court_name"], format, headers: "codes" }));
    const csvText = await (await req("csv")).text();
    expect(csvText).toContain(`"'=HYPERLINK(""http://x"",""y"")"`);
    for (const row of parseCsv(csvText).slice(1)) for (const cell of row) expect(cell).not.toMatch(/^[=+@\t\r]/);
    const xlsx = await table(await req("xlsx"), "xlsx");
    expect(column(xlsx, "value")).toContain(`'=HYPERLINK("http://x","y")`);
    for (const row of xlsx.rows) for (const cell of row) expect(typeof cell === "object" && cell !== null && "formula" in cell).toBe(false);
    const jsonl = await table(await req("jsonl"), "jsonl");
    expect(column(jsonl, "value")).toContain(`=HYPERLINK("http://x","y")`);
  });

  it("the compare route's checks: another user's collection 404, a field that is not aggregable 422, a bad format 422", async () => {
    const other = await bob.post("/api/cohorts/compare/export", body());
    expect(other.status).toBe(404);
    expect(other.headers.get("content-disposition")).toBeNull();
    expect(((await other.json()) as { detail: { code: string } }).detail.code).toBe("COLLECTION_NOT_FOUND");
    const field = await alice.post("/api/cohorts/compare/export", body({ fields: ["no_such_field"] }));
    expect(field.status).toBe(422);
    expect(((await field.json()) as { detail: { code: string } }).detail.code).toBe("FIELD_NOT_AGGREGABLE");
    const format = await alice.post("/api/cohorts/compare/export", body({ format: "pdf" }));
    expect(format.status).toBe(422);
    expect(format.headers.get("content-disposition")).toBeNull();
  });
});
