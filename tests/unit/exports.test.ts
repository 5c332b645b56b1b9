import { describe, expect, it } from "vitest";
import { csvCell, guardFormula, headerOf, safeFileName, valuesOf, xlsxCell, type ExportColumn } from "@/lib/backend/exports/stream";
import { columnLabel, distributionRows, fieldLabel } from "@/lib/backend/exports/lists";
import { dispositionName } from "@/lib/client/export-stream";
import { byName } from "@/lib/schema";

/** The export writer's pure parts; the streamed files are parsed back over HTTP in tests/api/exports.test.ts. */
describe("cells", () => {
  it("CSV: RFC 4180 quoting, formula guard on text, numbers as written", () => {
    expect(csvCell('He said "no", then left')).toBe('"He said ""no"", then left"');
    expect(csvCell("Line\nbreak")).toBe('"Line\nbreak"');
    for (const s of ["=1+1", "+1", "-1+2", "@SUM(A1)", "\tx", "\rx"]) expect(csvCell(s).replace(/^"/, "")).toMatch(/^'/);
    expect(csvCell(-5)).toBe("-5");
    expect(csvCell(["a", "b"])).toBe("a; b");
    expect(csvCell(null)).toBe("");
    expect(guardFormula("II AKa 1/20")).toBe("II AKa 1/20");
  });

  it("XLSX: numbers stay numbers, text is guarded, null is an empty cell", () => {
    expect(xlsxCell(-3.5)).toBe(-3.5);
    expect(xlsxCell('=HYPERLINK("x")')).toBe(`'=HYPERLINK("x")`);
    expect(xlsxCell(null)).toBeNull();
    expect(xlsxCell(true)).toBe("true");
  });
});

describe("labels and codes", () => {
  const f = byName("appeal_outcome")!;
  const option = f.enumValues![0];
  const cols: ExportColumn<Record<string, unknown>>[] = [
    { code: "appeal_outcome", label: f.label, value: (r) => r.o, options: f.enumValues! },
    { code: "did_offender_confess", label: byName("did_offender_confess")!.label, value: (r) => r.c },
    { code: "own_field", value: (r) => r.x },
  ];
  const row = { o: [option.value], c: true, x: "v" };

  it("codes: names and stored values as they are", () => {
    expect(cols.map((c) => headerOf(c, "codes", "pl"))).toEqual(["appeal_outcome", "did_offender_confess", "own_field"]);
    expect(valuesOf(row, cols, "codes", "pl")).toEqual([[option.value], true, "v"]);
  });

  it("labels: registry labels in the locale, enum labels, yes/no; a column without a label keeps its code", () => {
    expect(cols.map((c) => headerOf(c, "labels", "pl"))).toEqual([f.label.pl, byName("did_offender_confess")!.label.pl, "own_field"]);
    expect(valuesOf(row, cols, "labels", "pl")).toEqual([[option.pl], "Tak", "v"]);
    expect(valuesOf(row, cols, "labels", "en")).toEqual([[option.en], "Yes", "v"]);
  });

  it("a judgment column's label wins over an extracted field of the same name; filter keys read the registry first", () => {
    expect(columnLabel("case_number")?.en).toBe("Case number");
    expect(fieldLabel("case_number")?.en).toBe(byName("case_number")!.label.en);
    expect(columnLabel("jurisdiction")?.pl).toBe("Jurysdykcja");
  });
});

describe("aggregate rows", () => {
  it("one row per value or bucket, plus other and missing, shares of the covered judgments", () => {
    const cat = distributionRows("x", { kind: "categorical", multi: false, values: [{ value: "a", count: 3 }], other: 1, null: 6, covered: 4 });
    expect(cat).toEqual([
      { field: "x", kind: "categorical", value: "a", lo: null, hi: null, count: 3, share: 0.75 },
      { field: "x", kind: "categorical", value: "(other)", lo: null, hi: null, count: 1, share: 0.25 },
      { field: "x", kind: "categorical", value: "(missing)", lo: null, hi: null, count: 6, share: null },
    ]);
    const num = distributionRows("n", { kind: "numeric", buckets: [{ lo: 0, hi: 10, count: 2 }], min: 1, max: 9, null: 0, covered: 2 });
    expect(num[0]).toEqual({ field: "n", kind: "numeric", value: null, lo: 0, hi: 10, count: 2, share: 1 });
  });
});

describe("file names", () => {
  it("are safe on every OS, Polish letters folded", () => {
    expect(safeFileName("Rozbój / 2020: UK?")).toBe("Rozboj-2020-UK");
    expect(safeFileName("Łódź — sprawy")).toBe("Lodz-sprawy");
    expect(safeFileName("///")).toBe("export");
    expect(dispositionName('attachment; filename="a-b.csv"', "x")).toBe("a-b.csv");
    expect(dispositionName(null, "x.csv")).toBe("x.csv");
  });
});
