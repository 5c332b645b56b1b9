import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import * as lancedb from "@lancedb/lancedb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FilterAttributeError, FilterSyntaxError } from "@/lib/search/errors";
import {
  MAX_FILTER_DEPTH,
  compileFilter,
  parseFilter,
  parseIndexFilter,
  toLanceSql,
  toMeiliFilter,
  type FilterNode,
  type SqlColumnKind,
} from "@/lib/search/filter";

const ALLOWED = ["jurisdiction", "decision_date_ts", "base_num_victims", "tags", "flag"];
const p = (s: string) => parseFilter(s, { filterable: ALLOWED });

describe("filter parser", () => {
  it("parses every operator of the syntax", () => {
    expect(p("jurisdiction = PL")).toEqual({ type: "compare", attribute: "jurisdiction", op: "=", value: "PL" });
    expect(p("base_num_victims >= 2")).toEqual({ type: "compare", attribute: "base_num_victims", op: ">=", value: 2 });
    for (const op of ["!=", ">", "<", "<="]) expect(p(`base_num_victims ${op} 1.5`)).toMatchObject({ op, value: 1.5 });
    expect(p("decision_date_ts 1 TO 2")).toEqual({ type: "range", attribute: "decision_date_ts", from: 1, to: 2 });
    expect(p("jurisdiction IN [PL, 'UK']")).toEqual({ type: "in", attribute: "jurisdiction", values: ["PL", "UK"], negated: false });
    expect(p("jurisdiction NOT IN []")).toEqual({ type: "in", attribute: "jurisdiction", values: [], negated: true });
    expect(p("tags EXISTS")).toEqual({ type: "exists", attribute: "tags", negated: false });
    expect(p("tags NOT EXISTS")).toEqual({ type: "exists", attribute: "tags", negated: true });
    expect(p("tags IS NULL")).toEqual({ type: "isNull", attribute: "tags", negated: false });
    expect(p("tags IS NOT NULL")).toEqual({ type: "isNull", attribute: "tags", negated: true });
    expect(p("tags IS EMPTY")).toEqual({ type: "isEmpty", attribute: "tags", negated: false });
    expect(p("tags is not empty")).toEqual({ type: "isEmpty", attribute: "tags", negated: true });
    expect(p("flag = true")).toMatchObject({ value: true });
    expect(p('jurisdiction = "true"')).toMatchObject({ value: "true" });
    expect(p('jurisdiction = "a \\"quoted\\" \\\\ value"')).toMatchObject({ value: 'a "quoted" \\ value' });
  });

  it("gives AND precedence over OR, honours NOT and parentheses", () => {
    expect(p("flag = true OR jurisdiction = PL AND tags EXISTS")).toEqual({
      type: "or",
      children: [
        { type: "compare", attribute: "flag", op: "=", value: true },
        {
          type: "and",
          children: [
            { type: "compare", attribute: "jurisdiction", op: "=", value: "PL" },
            { type: "exists", attribute: "tags", negated: false },
          ],
        },
      ],
    });
    expect(p("NOT (flag = true OR flag = false)")).toMatchObject({ type: "not", child: { type: "or" } });
  });

  it("returns undefined for a blank filter", () => {
    expect(p("   ")).toBeUndefined();
  });

  it("names an unknown attribute with its position", () => {
    const e = (() => {
      try {
        p("jurisdiction = PL AND full_text = x");
      } catch (err) {
        return err;
      }
    })();
    expect(e).toBeInstanceOf(FilterAttributeError);
    expect(e).toMatchObject({ attribute: "full_text", position: 22 });
  });

  it("reports syntax errors with their position", () => {
    const cases: Array<[string, number]> = [
      ["jurisdiction =", 14],
      ["jurisdiction PL", 15],
      ["(jurisdiction = PL", 18],
      ["jurisdiction IN [PL", 19],
      ["jurisdiction = 'PL", 15],
      ["jurisdiction ! PL", 13],
      ["AND", 0],
      ["jurisdiction = PL OR", 20],
      ["jurisdiction = PL)", 17],
    ];
    for (const [input, pos] of cases) {
      let caught: unknown;
      try {
        p(input);
      } catch (err) {
        caught = err;
      }
      expect(caught, input).toBeInstanceOf(FilterSyntaxError);
      expect((caught as FilterSyntaxError).position, input).toBe(pos);
    }
  });

  it("bounds nesting depth", () => {
    const deep = "(".repeat(MAX_FILTER_DEPTH + 1) + "flag = true" + ")".repeat(MAX_FILTER_DEPTH + 1);
    expect(() => p(deep)).toThrow(FilterSyntaxError);
    expect(() => p("NOT ".repeat(MAX_FILTER_DEPTH + 1) + "flag = true")).toThrow(FilterSyntaxError);
  });

  it("checks the index's declared filterable list", () => {
    expect(parseIndexFilter("decision_date_ts >= 0 AND base_appeal_outcome IN [outcome_other]")).toBeDefined();
    expect(() => parseIndexFilter("title = x")).toThrow(FilterAttributeError);
    expect(() => parseIndexFilter("base_date_of_appeal_court_judgment = x")).toThrow(FilterAttributeError); // D-26
  });
});

describe("Meilisearch normaliser", () => {
  it("prints a canonical string that parses back to the same tree", () => {
    const inputs = [
      "jurisdiction = PL AND (base_num_victims > 2 OR tags IS NULL)",
      "NOT jurisdiction IN [PL, UK] OR decision_date_ts 1 TO 5",
      "tags NOT EXISTS AND tags IS NOT EMPTY AND jurisdiction != 'O\"Neil'",
    ];
    for (const input of inputs) {
      const ast = p(input) as FilterNode;
      const printed = toMeiliFilter(ast);
      expect(printed).toMatch(/^[^']*$/);
      // Values are printed quoted (strings), so compare after normalising values to strings.
      const norm = (n: FilterNode | undefined) => JSON.parse(JSON.stringify(n, (_k, v) => (typeof v === "number" || typeof v === "boolean" ? String(v) : v)));
      expect(norm(p(printed))).toEqual(norm(ast));
    }
    expect(toMeiliFilter(p("jurisdiction IN [PL, 'U K']") as FilterNode)).toBe('jurisdiction IN ["PL", "U K"]');
  });
});

describe("evaluator (Meilisearch semantics)", () => {
  const doc = { jurisdiction: "PL", tags: ["a", "B"], base_num_victims: 2, flag: true, decision_date_ts: 100, empty: [] };
  const ev = (s: string, d: Record<string, unknown> = doc) => compileFilter(p(s) as FilterNode)(d);
  it("matches like Meilisearch", () => {
    expect(ev("jurisdiction = pl")).toBe(true);
    expect(ev("tags = b")).toBe(true);
    expect(ev("tags != b")).toBe(false);
    expect(ev("base_num_victims = '2'")).toBe(true);
    expect(ev("flag = 'true'")).toBe(true);
    expect(ev("decision_date_ts 100 TO 100")).toBe(true);
    expect(ev("base_num_victims > x")).toBe(false);
    expect(ev("jurisdiction != PL", { jurisdiction: null })).toBe(true);
    expect(ev("jurisdiction IS NULL", { jurisdiction: null })).toBe(true);
    expect(ev("jurisdiction EXISTS", { jurisdiction: null })).toBe(true);
    expect(ev("jurisdiction EXISTS", {})).toBe(false);
    expect(ev("tags IS EMPTY", { tags: [] })).toBe(true);
  });
});

describe("LanceDB SQL compiler", () => {
  const COLUMNS = new Map<string, SqlColumnKind>([
    ["jurisdiction", "text"],
    ["decision_date_ts", "number"],
    ["base_num_victims", "number"],
    ["tags", "text[]"],
    ["flag", "boolean"],
  ]);
  let dir: string;
  let table: lancedb.Table;
  const rows = [
    { id: "a", jurisdiction: "PL", decision_date_ts: 100, base_num_victims: 2, tags: ["x", "y"], flag: true },
    { id: "b", jurisdiction: "UK", decision_date_ts: 200, base_num_victims: null, tags: [], flag: false },
    { id: "c", jurisdiction: null, decision_date_ts: 300, base_num_victims: 5, tags: ["O'Neil"], flag: null },
  ];

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "search-filter-"));
    const db = await lancedb.connect(dir);
    table = await db.createTable("t", rows);
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const run = async (s: string) =>
    (await table.query().where(toLanceSql(p(s) as FilterNode, COLUMNS)).select(["id"]).toArray()).map((r) => r.id as string).sort();
  const reference = (s: string) =>
    rows.filter((r) => compileFilter(p(s) as FilterNode)(r)).map((r) => r.id).sort();

  it("agrees with the evaluator on every operator", async () => {
    const cases = [
      "jurisdiction = pl",
      "jurisdiction != PL",
      "NOT jurisdiction = PL",
      "decision_date_ts 150 TO 300",
      "decision_date_ts > 100 AND decision_date_ts <= 300",
      "base_num_victims IS NULL",
      "base_num_victims IS NOT NULL",
      "tags = x",
      "tags IN [y, \"O'Neil\"]",
      "tags NOT IN [x]",
      "tags IS EMPTY",
      "flag = true",
      "flag != true",
      "jurisdiction EXISTS",
      "(jurisdiction = PL OR jurisdiction = UK) AND NOT flag = false",
      "base_num_victims = abc",
    ];
    for (const c of cases) expect(await run(c), c).toEqual(reference(c));
  });

  it("quotes every literal and refuses unknown identifiers and control characters", () => {
    expect(toLanceSql(p("jurisdiction = \"x' OR 1=1 --\"") as FilterNode, COLUMNS)).toBe(
      "coalesce(lower(`jurisdiction`) = lower('x'' OR 1=1 --'), false)",
    );
    expect(() => toLanceSql({ type: "compare", attribute: "id; drop", op: "=", value: 1 }, COLUMNS)).toThrow();
    expect(() => toLanceSql({ type: "compare", attribute: "jurisdiction", op: "=", value: "a\u0000b" }, COLUMNS)).toThrow();
  });

  it("fuzz: random and hostile input never crashes, hangs or injects", async () => {
    const hostile = fc.constantFrom(
      "'",
      '"',
      "\\",
      "--",
      ";",
      "/*",
      "*/",
      ")",
      "(",
      "[",
      "]",
      ",",
      "OR 1=1",
      "DROP TABLE t",
      "`",
      "\u0000",
      "\n",
      "IN",
      "NOT",
      "TO",
      "IS",
      "NULL",
      "EXISTS",
      "=",
      "!=",
      ">=",
      "jurisdiction",
      "tags",
      "flag",
      "base_num_victims",
      "1e308",
      "-0",
      "NaN",
    );
    const input = fc.oneof(
      fc.string({ maxLength: 200 }),
      fc.array(hostile, { maxLength: 30 }).map((parts) => parts.join(" ")),
      fc.array(fc.oneof(hostile, fc.string({ maxLength: 5 })), { maxLength: 30 }).map((parts) => parts.join("")),
    );
    const seen: string[] = [];
    fc.assert(
      fc.property(input, (s) => {
        const t0 = Date.now();
        let ast: FilterNode | undefined;
        try {
          ast = p(s);
        } catch (e) {
          expect(e instanceof FilterSyntaxError || e instanceof FilterAttributeError).toBe(true);
          return;
        } finally {
          // A generous ceiling only to catch catastrophic backtracking, not a speed assertion.
          expect(Date.now() - t0).toBeLessThan(1000);
        }
        if (!ast) return;
        let sql: string;
        try {
          sql = toLanceSql(ast, COLUMNS);
        } catch (e) {
          expect(String(e)).toMatch(/control character|non-finite|not filterable/);
          return;
        }
        // No literal escapes its quotes: outside quoted literals only the compiler's own vocabulary remains.
        const outside = sql.replace(/'(?:[^']|'')*'/g, "''").replace(/`[a-z_][a-z0-9_]*`/g, "C");
        expect(outside).toMatch(/^[\sA-Za-z0-9_(),.=<>!'\-+e]*$/);
        expect(outside).not.toMatch(/--|;|\/\*/);
        for (const word of outside.match(/[A-Za-z_]+/g) ?? []) {
          expect(["coalesce", "lower", "false", "true", "AND", "OR", "NOT", "IS", "NULL", "C", "array_has", "array_length", "e"]).toContain(word);
        }
        compileFilter(ast)({ jurisdiction: "PL", tags: [] });
        toMeiliFilter(ast);
        if (seen.length < 40) seen.push(sql);
      }),
      { numRuns: 3000, seed: 42 },
    );
    // Compiled samples also run against LanceDB without error.
    for (const sql of seen) await table.query().where(sql).select(["id"]).toArray();
  });
});

describe("filter cost bounds (security review H1)", () => {
  it("the parser caps values per IN list and over every list of the expression", () => {
    const list = (n: number) => `[${Array.from({ length: n }, (_, i) => `v${i}`).join(", ")}]`;
    const opts = { filterable: ALLOWED, maxListValues: 3, maxTotalValues: 5 };
    expect(parseFilter(`tags IN ${list(3)}`, opts)).toMatchObject({ type: "in", values: ["v0", "v1", "v2"] });
    expect(() => parseFilter(`tags IN ${list(4)}`, opts)).toThrow(/at most 3/);
    expect(() => parseFilter(`jurisdiction = PL OR tags NOT IN ${list(4)}`, opts)).toThrow(expect.objectContaining({ attribute: "tags" }));
    expect(parseFilter(`tags IN ${list(3)} AND jurisdiction NOT IN ${list(2)}`, opts)).toBeDefined();
    expect(() => parseFilter(`tags IN ${list(3)} AND jurisdiction NOT IN ${list(3)}`, opts)).toThrow(/at most 5 in all/);
    // The service's parser reads the caps from config (FILTER_MAX_LIST_VALUES = 100 by default).
    expect(() => parseIndexFilter(`jurisdiction IN ${list(101)}`)).toThrow(FilterSyntaxError);
    expect(parseIndexFilter(`jurisdiction IN ${list(100)}`)).toBeDefined();
  });

  it("IN compiled to Sets matches exactly like OR of `=` (fast-check)", () => {
    const scalar = fc.oneof(
      fc.constantFrom("PL", "pl", "Pl", "true", "FALSE", "5", " 5", "0x10", "", "Sąd", "SĄD", "5.0"),
      fc.string({ maxLength: 4 }),
      fc.integer({ min: -3, max: 20 }),
      fc.constantFrom(0, -0, 5, 16, 1.5),
      fc.boolean(),
    );
    const docValue = fc.oneof(scalar, fc.array(scalar, { maxLength: 4 }), fc.constant(null), fc.constant(undefined));
    fc.assert(
      fc.property(docValue, fc.array(scalar, { maxLength: 6 }), fc.boolean(), (v, values, negated) => {
        const doc = v === undefined ? {} : { a: v };
        const viaIn = compileFilter({ type: "in", attribute: "a", values, negated });
        const anyEq: FilterNode = { type: "or", children: values.map((value) => ({ type: "compare", attribute: "a", op: "=", value })) };
        const expected = values.length > 0 && compileFilter(anyEq)(doc);
        expect(viaIn(doc)).toBe(expected !== negated);
      }),
      { numRuns: 3000, seed: 12 },
    );
  });
});
