import { describe, expect, it } from "vitest";
import { csvCell, headerCells, rowCells } from "@/lib/backend/extraction-jobs/export";
import type { ResultRow } from "@/lib/backend/extraction-jobs/types";
import { schemaFieldsSchema } from "@/lib/schema/requests/schemas";

/** The export's pure parts (the streamed responses are byte-checked over HTTP in tests/api/extraction-jobs.test.ts). */
const fields = schemaFieldsSchema().parse([
  { name: "case_number", type: "string" },
  { name: "status", type: "string" },
  { name: "field_case_number", type: "string" },
  { name: "judges", type: "string[]" },
]);

describe("extraction export columns", () => {
  it("a field named like a fixed column gets its own distinct header; the fixed columns keep theirs", () => {
    const header = headerCells(fields);
    expect(header).toEqual(["document_id", "case_number", "status", "error", "field:case_number", "field:status", "field_case_number", "judges"]);
    expect(new Set(header).size).toBe(header.length);
  });

  it("a row puts the fixed values first, then each field's value under its header", () => {
    const row: ResultRow = {
      document_id: "d1",
      position: 1,
      case_number: "II AKa 1/20",
      title: null,
      status: "completed",
      values: { case_number: "=1+1", status: "final", judges: ["A", "B"] },
      error: null,
      model: "rules-v1",
      attempts: 1,
      finished_at: null,
    };
    expect(rowCells(row, fields).map(csvCell)).toEqual(["d1", "II AKa 1/20", "completed", "", "'=1+1", "final", "", "A; B"]);
    // A field rules mode could not fill reads "needs a model" in a completed row, never a blank; other rows stay as they are.
    const needs = new Set(["field_case_number"]);
    expect(rowCells(row, fields, needs)[6]).toBe("(needs a model)");
    expect(rowCells({ ...row, status: "failed", values: null }, fields, needs)[6]).toBeNull();
  });
});
