/**
 * JuDDGES English rows by their published schemas (tests/fixtures/real-formats/juddges/README.md: no real row is
 * published, so these rows are built from the field lists): en-court-raw (current and earlier names) and
 * en-appealcourt (context/output, no id), read through the same reader the import uses.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readJuddges } from "@/lib/import/juddges";
import type { ReadItem } from "@/lib/import/types";

const dir = mkdtempSync(path.join(tmpdir(), "juddges-en-"));

async function read(rows: unknown[]): Promise<ReadItem[]> {
  const file = path.join(dir, `rows-${Math.random().toString(36).slice(2)}.jsonl`);
  writeFileSync(file, rows.map((r) => JSON.stringify(r)).join("\n"));
  const out: ReadItem[] = [];
  for await (const item of readJuddges(file, { onBytes: () => undefined, today: new Date("2026-12-01T00:00:00Z"), stop: () => false })) out.push(item);
  return out;
}

const TEXT = "Neutral Citation Number: [2019] EWCA Crim 1234\n\nIN THE COURT OF APPEAL (CRIMINAL DIVISION)\n\nR E G I N A\n\nv\n\nJOHN PAUL SMITH\n\nThe appellant pleaded guilty to robbery.";

describe("JuDDGES en-court-raw", () => {
  it("maps the current names: citation → case number, court and title; uri → source_url; Open Justice Licence", async () => {
    const [item] = await read([
      {
        judgment_id: "ewca-crim-2019-1234",
        citation: "[2019] EWCA Crim 1234",
        docket_number: "201900123 B1",
        publication_date: "2019-07-16",
        court_type: "crown court",
        excerpt: "Neutral Citation Number: [2019] EWCA Crim 1234",
        full_text: "REGINA v SMITH\n\n" + TEXT,
        judges: ["LORD JUSTICE HOLROYDE", "MR JUSTICE JAY"],
        file_name: "ewca_crim_2019_1234.xml",
        xml_uri: "https://caselaw.nationalarchives.gov.uk/ewca/crim/2019/1234/data.xml",
        uri: "https://caselaw.nationalarchives.gov.uk/ewca/crim/2019/1234",
        source: "en-court",
        country: "England",
      },
    ]);
    expect(item.kind).toBe("record");
    if (item.kind !== "record") return;
    expect(item.record).toMatchObject({
      source: "juddges",
      source_id: "ewca-crim-2019-1234",
      jurisdiction: "UK",
      case_number: "[2019] EWCA Crim 1234",
      title: "R v Smith [2019] EWCA Crim 1234",
      court_name: "Court of Appeal (Criminal Division)",
      case_type: "Criminal",
      publication_date: "2019-07-16",
      judges: [
        { name: "LORD JUSTICE HOLROYDE", role: null },
        { name: "MR JUSTICE JAY", role: null },
      ],
      source_url: "https://caselaw.nationalarchives.gov.uk/ewca/crim/2019/1234",
      summary: "Neutral Citation Number: [2019] EWCA Crim 1234",
    });
    expect(item.record.licence).toMatch(/Open Justice Licence.*computational analysis/);
  });

  it("reads the earlier names (_id, signature, date, content)", async () => {
    const [item] = await read([{ _id: "old-1", citation: "[2018] EWCA Crim 7", signature: "201800001", date: "2018-01-10", content: TEXT, judges: [] }]);
    expect(item).toMatchObject({ kind: "record", record: { source_id: "old-1", case_number: "[2018] EWCA Crim 7", publication_date: "2018-01-10" } });
  });
});

describe("JuDDGES en-appealcourt", () => {
  it("keys a row by its text's hash, takes the citation and R v Surname from the title block, keeps the annotations", async () => {
    const row = { context: TEXT, output: JSON.stringify({ ConvCourtName: ["Crown Court at Leeds"], AppealOutcome: "dismissed" }) };
    const [a] = await read([row]);
    const [b] = await read([row]);
    expect(a).toMatchObject({
      kind: "record",
      record: {
        case_number: "[2019] EWCA Crim 1234",
        title: "R v Smith [2019] EWCA Crim 1234",
        metadata: { dataset: "en-appealcourt", annotations: { ConvCourtName: ["Crown Court at Leeds"], AppealOutcome: "dismissed" } },
      },
    });
    expect(a.kind === "record" && b.kind === "record" && a.record.source_id === b.record.source_id).toBe(true);
    expect(a.kind === "record" && a.record.source_id).toMatch(/^en-appealcourt-[0-9a-f]{32}$/);
  });

  it("a row whose output is not JSON, or without text, is rejected with the reason", async () => {
    const items = await read([
      { context: TEXT, output: "{not json" },
      { context: "", output: "{}" },
    ]);
    expect(items.map((i) => (i.kind === "rejected" ? i.reason : i.kind))).toEqual(["output is not JSON", "missing text (context is empty)"]);
  });
});
