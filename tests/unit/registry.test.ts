import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  ALL_FIELDS,
  BASE_FIELDS,
  GROUPS,
  NEVER_INDEXED_COLUMNS,
  OPERATIONAL_FIELDS,
  aggregableKeys,
  byColumn,
  byName,
  fieldsByGroup,
  filterable,
  ftsColumns,
  indexAttribute,
  rpcFilterFields,
  searchable,
  sortable,
  SENTENCE_FIELDS,
} from "@/lib/schema";

interface SharedField {
  name: string;
  column: string;
  db_type: string;
  control?: string;
  group?: string;
  enum_values?: string[];
  quick_filter?: boolean;
  rpc_filter_key?: boolean;
  searchable?: boolean;
  fts_weight?: string;
  meili_searchable?: boolean;
  meili_filterable?: boolean;
  sortable?: boolean;
}
interface SharedFile {
  fields: SharedField[];
  operational_fields: { name: string; column: string; control: string; group: string; enum_values?: string[] }[];
  metadata_columns: { column: string }[];
}

// A copy of ../shared/data/base-schema-fields.json kept in the repository, so a clone anywhere passes (refresh it by
// copying the shared file again when the field list changes).
const sharedPath = path.resolve(__dirname, "..", "fixtures", "base-schema-fields.json");
const shared = JSON.parse(readFileSync(sharedPath, "utf8")) as SharedFile;

describe("field registry against the shared base-schema field list", () => {
  it("holds exactly the 51 base fields, in the shared order", () => {
    expect(BASE_FIELDS).toHaveLength(51);
    expect(BASE_FIELDS.map((f) => f.name)).toEqual(shared.fields.map((f) => f.name));
  });

  it.each(shared.fields.map((f) => [f.name, f] as const))("%s: column, type, control, group, enum set agree", (_n, s) => {
    const f = byName(s.name);
    expect(f).toBeDefined();
    expect(f?.column).toBe(s.column);
    expect(f?.type).toBe(s.db_type);
    expect(f?.control).toBe(s.control ?? "none");
    if (s.group) expect(f?.group).toBe(s.group);
    expect(f?.enumValues?.map((o) => o.value) ?? null).toEqual(s.enum_values ?? null);
    expect(f?.quickFilter).toBe(Boolean(s.quick_filter));
    expect(f?.rpcFilter).toBe(Boolean(s.rpc_filter_key));
    expect(f?.ftsWeight).toBe(s.searchable ? (s.fts_weight ?? "D") : null);
    expect(f?.index.searchableRank !== null).toBe(Boolean(s.meili_searchable));
    expect(f?.index.sortable).toBe(Boolean(s.sortable));
  });

  it("operational entries match the shared list and sit in the last group", () => {
    expect(OPERATIONAL_FIELDS.map((f) => [f.name, f.column, f.control, f.group])).toEqual(
      shared.operational_fields.map((f) => [f.name, f.column, f.control, f.group]),
    );
    expect(OPERATIONAL_FIELDS[0].enumValues?.map((o) => o.value)).toEqual(["pending", "completed", "failed"]);
    expect(GROUPS.at(-1)?.id).toBe("operational");
  });

  it("never-indexed columns are the shared metadata columns (minus the map coordinates)", () => {
    expect([...NEVER_INDEXED_COLUMNS].sort()).toEqual(
      shared.metadata_columns.map((c) => c.column).filter((c) => c.startsWith("base_")).sort(),
    );
  });
});

describe("index roles (spec draft extension, D-04, D-26, D-27)", () => {
  it("45 filterable attributes", () => {
    expect(filterable()).toHaveLength(45);
    expect(filterable().filter((f) => f.group === "operational")).toHaveLength(3);
  });

  it("9 searchable base fields ranked 10-18 in the spec's order", () => {
    expect(searchable().map((f) => [f.column, f.index.searchableRank])).toEqual(
      [
        "base_neutral_citation_number",
        "base_appeal_court_judges_names",
        "base_case_name",
        "base_offender_representative_name",
        "base_crown_attorney_general_representative_name",
        "base_remand_custody_time",
        "base_offender_age_offence",
        "base_offender_mental_offence",
        "base_victim_mental_offence",
      ].map((c, i) => [c, 10 + i]),
    );
  });

  it("four sortable additions, dates through their epoch twins", () => {
    expect(sortable().map(indexAttribute).sort()).toEqual(
      ["base_case_number", "base_date_of_appeal_court_judgment_ts", "base_extracted_at_ts", "base_num_victims"].sort(),
    );
  });

  it("42 BaseSchemaFilters keys of the spec plus the 15 sentence numbers, and an aggregate allowlist including the core columns (D-05)", () => {
    expect(rpcFilterFields()).toHaveLength(42 + 15);
    expect(rpcFilterFields().filter((f) => SENTENCE_FIELDS.includes(f))).toHaveLength(15);
    expect(aggregableKeys()).toEqual(expect.arrayContaining(["sentence_custody_months", "sentence_kind", "sentence_suspended", "sentence_change_months"]));
    const keys = aggregableKeys();
    expect(keys).toEqual(expect.arrayContaining(["jurisdiction", "court_name", "decision_date", "offender_gender", "appeal_outcome"]));
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys).not.toContain("case_name");
  });

  it("lookups by name and column agree; every field is labelled in both languages", () => {
    for (const f of ALL_FIELDS) {
      expect(byColumn(f.column)).toBe(f);
      expect(f.column).toBe(`base_${f.name}`);
      expect(f.label.en && f.label.pl && f.description).toBeTruthy();
      for (const o of f.enumValues ?? []) expect(o.en && o.pl).toBeTruthy();
    }
  });

  it("the drawer lists every field with a control, grouped, operational last", () => {
    const groups = fieldsByGroup();
    expect(groups.at(-1)?.group.id).toBe("operational");
    expect(groups.flatMap((g) => g.fields)).toHaveLength(ALL_FIELDS.filter((f) => f.control !== "none").length);
  });

  it("base_search_tsv covers the searchable shared fields", () => {
    const all = Object.values(ftsColumns()).flat();
    expect(all.sort()).toEqual(shared.fields.filter((f) => f.searchable).map((f) => f.column).sort());
  });
});
