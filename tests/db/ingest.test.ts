import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminPool, stackEnv } from "../helpers/stack";
import { ingestFile } from "@/lib/import/ingest-row";

const pool = adminPool();
const PREFIX = "ingest-test-";
const dir = mkdtempSync(path.join(tmpdir(), "ingest-test-"));

async function cleanup() {
  await pool.query("delete from public.judgments where source_id like $1", [`${PREFIX}%`]);
}
beforeAll(cleanup);
afterAll(async () => {
  await cleanup();
  await pool.end();
});

const good = {
  source_id: `${PREFIX}1`,
  jurisdiction: "UK",
  full_text: "R v Example. The appellant pleaded guilty to robbery.",
  case_number: "202301234 B1",
  decision_date: "2023-05-17",
  judges: [{ name: "Lord Justice Example", role: "presiding" }],
  metadata: { language: "en", page_count: 3 },
  extraction: {
    model: "test-model",
    data: {
      case_name: '  "R v Example"  ',
      offender_gender: "gender_male",
      num_victims: "2",
      did_offender_confess: "yes",
      plea_point: "don't_know",
      appeal_outcome: ["outcome_dismissed_or_refused", "none"],
      convict_offences: "robbery",
      date_of_appeal_court_judgment: "2023-05-17",
    },
  },
};
const second = { source_id: `${PREFIX}2`, jurisdiction: "PL", full_text: "Sygn. akt II AKa 1/23 WYROK", legal_topics: ["prawo karne"] };
const badEnum = { source_id: `${PREFIX}3`, jurisdiction: "PL", full_text: "x", extraction: { data: { offender_gender: ["gender_martian"] } } };
const noText = { source_id: `${PREFIX}4`, jurisdiction: "UK", title: "no text" };
const badJurisdiction = { source_id: `${PREFIX}5`, jurisdiction: "FR", full_text: "x" };
const update = { ...good, full_text: "Updated text.", extraction: { data: { case_name: "R v Example (No 2)" } } };

function writeLines(name: string, lines: string[]): string {
  const file = path.join(dir, name);
  writeFileSync(file, lines.join("\n") + "\n");
  return file;
}

describe("JSONL ingestion", () => {
  it("lands good rows, reports bad ones by line with a reason, and writes nothing of a bad row", async () => {
    const file = writeLines("mixed.jsonl", [
      JSON.stringify(good),
      '{"source_id": "ingest-test-9", "jurisdiction": "PL", "full_text": ',
      JSON.stringify(badEnum),
      "",
      JSON.stringify(noText),
      JSON.stringify(second),
      JSON.stringify(badJurisdiction),
    ]);
    const report = await ingestFile(stackEnv().databaseUrl, file);
    expect(report.inserted).toBe(2);
    expect(report.updated).toBe(0);
    expect(report.rejected.map((r) => r.line)).toEqual([2, 3, 5, 7]);
    expect(report.rejected[0].reason).toMatch(/malformed JSON/);
    expect(report.rejected[1].reason).toMatch(/offender_gender.*gender_martian.*allowed/);
    expect(report.rejected[2].reason).toMatch(/full_text/);
    expect(report.rejected[3].reason).toMatch(/jurisdiction/);

    const { rows } = await pool.query(
      "select source_id, full_text, base_case_name, base_offender_gender, base_num_victims, base_did_offender_confess, base_plea_point, base_appeal_outcome, base_convict_offences, base_date_of_appeal_court_judgment::text as d, base_extraction_status, base_extraction_model, judges_flat, base_raw_extraction from public.judgments where source_id like $1 order by source_id",
      [`${PREFIX}%`],
    );
    expect(rows.map((r) => r.source_id)).toEqual([`${PREFIX}1`, `${PREFIX}2`]);
    expect(rows[0]).toMatchObject({
      base_case_name: "R v Example",
      base_offender_gender: ["gender_male"],
      base_num_victims: 2,
      base_did_offender_confess: true,
      base_plea_point: "dont_know",
      base_appeal_outcome: ["outcome_dismissed_or_refused"],
      base_convict_offences: ["robbery"],
      d: "2023-05-17",
      base_extraction_status: "completed",
      base_extraction_model: "test-model",
      judges_flat: "Lord Justice Example",
    });
    expect(rows[0].base_raw_extraction.num_victims).toBe("2");
    expect(rows[1].base_extraction_status).toBe("pending");
  });

  it("upserts by source_id: a second file updates the row and clears stale extracted values", async () => {
    const file = writeLines("update.jsonl", [JSON.stringify(update)]);
    const report = await ingestFile(stackEnv().databaseUrl, file);
    expect(report).toMatchObject({ inserted: 0, updated: 1, rejected: [] });
    const { rows } = await pool.query("select full_text, base_case_name, base_offender_gender, base_num_victims from public.judgments where source_id = $1", [
      `${PREFIX}1`,
    ]);
    expect(rows).toEqual([{ full_text: "Updated text.", base_case_name: "R v Example (No 2)", base_offender_gender: null, base_num_victims: null }]);
  });

  it("an extracted line gets rules-v1's sentence numbers from its text unless the line states them", async () => {
    const text = "The appellant was sentenced to 4 years' imprisonment. We reduce the sentence to 3 years. The appeal is allowed.";
    const read = { source_id: `${PREFIX}6`, jurisdiction: "UK", full_text: text, extraction: { data: { case_name: "R v Numbers" } } };
    const stated = { ...read, source_id: `${PREFIX}7`, extraction: { data: { case_name: "R v Stated", sentence_custody_months: 50, sentence_kind: "custody" } } };
    const wrong = { ...read, source_id: `${PREFIX}8`, extraction: { data: { sentence_kind: "prison" } } };
    const file = writeLines("sentences.jsonl", [JSON.stringify(read), JSON.stringify(stated), JSON.stringify(wrong)]);
    const report = await ingestFile(stackEnv().databaseUrl, file);
    expect(report).toMatchObject({ inserted: 2 });
    expect(report.rejected.map((r: { line: number }) => r.line)).toEqual([3]);
    const { rows } = await pool.query(
      `select source_id, base_sentence_kind, base_sentence_custody_months, base_sentence_custody_months_after_appeal, base_sentence_change_months
         from public.judgments where source_id in ($1, $2) order by source_id`,
      [`${PREFIX}6`, `${PREFIX}7`],
    );
    expect(rows).toEqual([
      { source_id: `${PREFIX}6`, base_sentence_kind: "custody", base_sentence_custody_months: 48, base_sentence_custody_months_after_appeal: 36, base_sentence_change_months: -12 },
      { source_id: `${PREFIX}7`, base_sentence_kind: "custody", base_sentence_custody_months: 50, base_sentence_custody_months_after_appeal: 36, base_sentence_change_months: -12 },
    ]);
  });

  it("the CLI prints the report and exits 3 when lines were rejected", async () => {
    const file = writeLines("cli.jsonl", [JSON.stringify({ ...second, full_text: "CLI text" }), "not json"]);
    const run = promisify(execFile)("npx", ["tsx", "server/cli/ingest.ts", file, "--no-sync"], {
      env: { ...process.env, DATABASE_URL: stackEnv().databaseUrl },
    });
    await expect(run).rejects.toMatchObject({ code: 3, stdout: expect.stringMatching(/inserted 0, updated 1, rejected 1[\s\S]*line 2: malformed JSON/) });
  });
});
