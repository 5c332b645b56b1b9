import { describe, expect, it } from "vitest";
import { csvCell, guardFormula, headerOf, safeFileName, valuesOf, xlsxCell, type ExportColumn } from "@/lib/backend/exports/stream";
import { columnLabel, compareExportSource, compareRows, distributionRows, distributionValueLabel, fieldLabel } from "@/lib/backend/exports/lists";
import type { CompareCohortsResponse } from "@/lib/backend/cohorts/compare";
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

describe("comparison rows", () => {
  const res: CompareCohortsResponse = {
    a: { size: 10 },
    b: { size: 9 },
    confidence: 0.95,
    seed: 1,
    bootstrap_resamples: 1000,
    fields: [
      { field: "appeal_outcome", kind: "categorical", multi: true, a_covered: 10, b_covered: 9, values: [{ value: byName("appeal_outcome")!.enumValues![0].value, a_count: 6, b_count: 3, a_share: 0.6, b_share: 1 / 3, diff: 0.2666666666, ci_low: -0.1, ci_high: 0.5 }] },
      { field: "num_victims", kind: "numeric", a: { n: 2, median: 1, q1: 1, q3: 1.5, min: 1, max: 2 }, b: { n: 0, median: null, q1: null, q3: null, min: null, max: null }, diff: null, ci_low: null, ci_high: null, bins: [] },
    ],
  };

  it("one row per categorical value (shares of the cohort, rounded) and one per numeric field (medians)", () => {
    const [cat, num] = compareRows(res);
    expect(cat).toMatchObject({ field: "appeal_outcome", statistic: "share_difference", a_count: 6, a_size: 10, a_share: 0.6, b_count: 3, b_size: 9, b_share: 0.333333, diff: 0.266667, a_median: null });
    expect(num).toMatchObject({ field: "num_victims", kind: "numeric", value: null, statistic: "median_difference", a_count: 2, a_median: 1, a_q3: 1.5, b_count: 0, b_median: null, diff: null, a_share: null });
  });

  it("labels: field, value and statistic labelled per locale; codes: as stored", () => {
    const src = compareExportSource(res);
    const [cat] = compareRows(res);
    const option = byName("appeal_outcome")!.enumValues![0];
    expect(src.columns.map((c) => headerOf(c, "codes", "en")).slice(0, 5)).toEqual(["field", "kind", "value", "statistic", "a_count"]);
    expect(src.columns.map((c) => headerOf(c, "labels", "pl")).slice(0, 5)).toEqual(["Pole", "Rodzaj", "Wartość", "Statystyka", "A: orzeczenia"]);
    expect(valuesOf(cat, src.columns, "labels", "pl").slice(0, 4)).toEqual([byName("appeal_outcome")!.label.pl, "Kategorie", option.pl, "Różnica udziałów (przedział hybrydowy Newcombe'a)"]);
    expect(valuesOf(cat, src.columns, "codes", "pl").slice(0, 4)).toEqual(["appeal_outcome", "categorical", option.value, "share_difference"]);
    expect(src.expectedRows).toBe(2);
  });

  it("values read as on the charts: jurisdictions by name, booleans Yes/No, free text as it is", () => {
    expect(distributionValueLabel("jurisdiction", "PL", "en")).toBe("Poland");
    expect(distributionValueLabel("jurisdiction", "UK", "pl")).toBe("Wielka Brytania");
    expect(distributionValueLabel("did_offender_confess", "true", "pl")).toBe("Tak");
    expect(distributionValueLabel("court_name", "Sąd Apelacyjny w Łodzi", "en")).toBe("Sąd Apelacyjny w Łodzi");
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
