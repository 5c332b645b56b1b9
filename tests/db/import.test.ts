/**
 * `npm run import` against real Postgres, on the real samples of each source (tests/fixtures/real-formats, provenance
 * in its PROVENANCE.md and per-source READMEs): the fields each sample maps to, the licence, the references kept,
 * bad data reported and never half-written, idempotent re-runs and resuming after a stop.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { parquetWriteFile } from "hyparquet-writer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rebuildCitations } from "@/lib/citations/store";
import { exitCodeOf, runImport } from "@/lib/import/run";
import { readSaos } from "@/lib/import/saos";
import { legacyRecordHash } from "@/lib/import/upsert";
import type { ImportSource } from "@/lib/import/types";
import { adminPool, stackEnv } from "../helpers/stack";

const pool = adminPool();
const FIX = path.join(process.cwd(), "tests/fixtures/real-formats");
const SAOS_CT = path.join(FIX, "saos/dump-item-205374.constitutional-tribunal.json");
const SAOS_2101 = path.join(FIX, "saos/api-judgments-227221.common-court.json");
const SAOS_CC = path.join(FIX, "saos/api-judgments-227221.date-2016-04-14.json");
const FCL_AKN = path.join(FIX, "uk-find-case-law/ewca-civ-2025-673.enriched.akn.xml");
const FCL_ATOM = path.join(FIX, "uk-find-case-law/atom-feed.api-spec-example.xml");
const JUDDGES_V1 = path.join(FIX, "juddges/pl-court-raw.row-v1.154505000005127_XVII_AmA_000014_1994_Uz_1994-07-20_001.json");
const JUDDGES_ID = "154505000005127_XVII_AmA_000014_1994_Uz_1994-07-20_001";
const dir = mkdtempSync(path.join(tmpdir(), "import-test-"));
/** Ids this file creates beyond the samples' own (resume and truncation fixtures). */
const SYNTH = "import-test-";

async function cleanup() {
  await pool.query(
    `delete from public.judgments
      where (source = 'saos' and (source_id in ('205374', '227221') or source_id like $1))
         or (source = 'fcl' and source_id like 'ewca/civ/2025/673%')
         or (source = 'juddges' and (source_id like $2 or source_id like $1))`,
    [`${SYNTH}%`, `${JUDDGES_ID}%`],
  );
}
beforeAll(cleanup);
afterAll(async () => {
  await cleanup();
  await pool.end();
});

const db = () => stackEnv().databaseUrl;
const run = (source: ImportSource, inputs: string[], extra: { limit?: number; dryRun?: boolean } = {}) =>
  runImport({ source, inputs, databaseUrl: db(), today: new Date("2026-12-01T00:00:00Z"), ...extra });

interface Row {
  source: string;
  source_id: string;
  case_number: string | null;
  court_name: string | null;
  court_level: string | null;
  decision_date: string | null;
  judges: { name: string; role: string | null }[];
  title: string;
  text_length: number;
  html_length: number | null;
  references: number;
  licence: string;
  source_url: string | null;
  metadata: Record<string, unknown>;
  source_references: { kind: string; text: string }[];
  updated_at: string;
}

async function row(source: string, sourceId: string): Promise<Row | undefined> {
  const { rows } = await pool.query<Row>(
    `select source, source_id, case_number, court_name, court_level, decision_date::text as decision_date, judges, title,
            length(full_text) as text_length, length(full_html) as html_length, jsonb_array_length(source_references) as "references",
            licence, source_url, metadata, source_references, updated_at::text as updated_at
       from public.judgments where source = $1 and source_id = $2`,
    [source, sourceId],
  );
  return rows[0];
}

async function count(source: string, like: string): Promise<number> {
  const { rows } = await pool.query<{ n: number }>("select count(*)::int as n from public.judgments where source = $1 and source_id like $2", [source, like]);
  return rows[0].n;
}

function writeFile(name: string, text: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

describe("SAOS", () => {
  it("rejects the real 2101-04-14 judgment date with the file, record, id and reason, and writes nothing of it", async () => {
    const s = await run("saos", [SAOS_2101]);
    expect(s).toMatchObject({ read: 1, valid: 0, inserted: 0, rejected: 1 });
    expect(s.rejections[0]).toMatchObject({ file: SAOS_2101, record: 1, id: "227221" });
    expect(s.rejections[0].reason).toMatch(/judgmentDate 2101-04-14 is impossible/);
    expect(exitCodeOf(s)).toBe(3);
    expect(await row("saos", "227221")).toBeUndefined();
  });

  it("imports a dump item (Constitutional Tribunal) and an API response (common court) with the source's structured fields", async () => {
    const s = await run("saos", [SAOS_CT, SAOS_CC]);
    expect(s).toMatchObject({ files: 2, read: 2, inserted: 2, updated: 0, skipped: 0, rejected: 0 });
    expect(exitCodeOf(s)).toBe(0);

    const ct = await row("saos", "205374");
    expect(ct).toMatchObject({
      case_number: "U 3/86",
      court_name: "Trybunał Konstytucyjny",
      decision_date: "1986-06-16",
      title: "Wyrok Trybunału Konstytucyjnego z dnia 16 czerwca 1986 r., U 3/86",
      judges: [
        { name: "Andrzej Kabat", role: "reporting" },
        { name: "Kazimierz Buchała", role: "presiding" },
        { name: "Stanisław Pawela", role: null },
      ],
      references: 3,
      source_url: "https://www.saos.org.pl/judgments/205374",
      html_length: null,
    });
    // The sample's textContent was shortened by its publisher (README): plain text, kept as given.
    expect(ct?.text_length).toBe(679);
    expect(ct?.licence).toMatch(/excluded from copyright.*SAOS/);

    const cc = await row("saos", "227221");
    expect(cc).toMatchObject({
      case_number: "II K 84/16",
      court_name: "Sąd Rejonowy w Toruniu",
      court_level: "Sąd Rejonowy",
      decision_date: "2016-04-14",
      title: "Wyrok Sądu Rejonowego w Toruniu z dnia 14 kwietnia 2016 r., II K 84/16",
      judges: [{ name: "Joanna Becińska", role: "presiding" }],
      references: 5,
    });
    expect(cc?.metadata).toMatchObject({ division: "II Wydział Karny", court_type: "COMMON" });
    expect(cc?.source_references.filter((r) => r.kind === "judgment")).toEqual([
      { kind: "judgment", text: "II K 1130/13", case_number: "II K 1130/13", source_ids: ["30789", "183576"], generated: true, from: "referencedCourtCases" },
    ]);
    // HTML → text: the sanitised HTML keeps the source's anonymisation markup; the text has no tags.
    expect(cc?.text_length).toBeGreaterThan(20_000);
    expect(cc?.html_length).toBeGreaterThan(cc?.text_length ?? 0);
    const { rows } = await pool.query<{ full_text: string; full_html: string }>("select full_text, full_html from public.judgments where source = 'saos' and source_id = '227221'");
    expect(rows[0].full_text).toContain("oskarżonego o to, że:");
    expect(rows[0].full_text).not.toMatch(/<[a-z]/);
    expect(rows[0].full_html).toContain('<span class="anon">R. I.</span>');
    expect(rows[0].full_html).not.toMatch(/<!--/);
  });

  it("re-running is idempotent: unchanged records are skipped, not rewritten", async () => {
    const before = await row("saos", "205374");
    const s = await run("saos", [SAOS_CT, SAOS_CC]);
    expect(s).toMatchObject({ read: 2, inserted: 0, updated: 0, skipped: 2, rejected: 0 });
    expect((await row("saos", "205374"))?.updated_at).toBe(before?.updated_at);
  });

  it("a file of the wrong source gets one line naming it, and nothing is read from it", async () => {
    const s = await run("saos", [FCL_AKN, JUDDGES_V1]);
    expect(s.read).toBe(0);
    expect(s.rejections).toHaveLength(2);
    expect(s.rejections[0]).toMatchObject({ file: FCL_AKN });
    expect(s.rejections[0].reason).toMatch(/not a SAOS JSON file: it is XML/);
    expect(s.rejections[1].reason).toMatch(/file of the wrong source: not a SAOS judgment/);
    expect(exitCodeOf(s)).toBe(3);
  });

  it("a truncated dump page: the whole items before the cut land, the cut one does not, and the position is named", async () => {
    const item = JSON.parse(readFileSync(SAOS_CT, "utf8")) as Record<string, unknown>;
    const page = JSON.stringify({ links: [], items: [1, 2, 3].map((i) => ({ ...item, id: `${SYNTH}trunc-${i}` })), queryTemplate: {}, info: {} });
    const cut = page.slice(0, page.lastIndexOf(`${SYNTH}trunc-3`) + 40);
    const file = writeFile("truncated.json", cut);
    const s = await run("saos", [file]);
    expect(s).toMatchObject({ read: 2, inserted: 2, rejected: 1 });
    expect(s.rejections[0]).toMatchObject({ file });
    expect(s.rejections[0].reason).toMatch(/malformed JSON at end of file \(byte \d+\), truncated/);
    expect(await count("saos", `${SYNTH}trunc-%`)).toBe(2);
  });

  it("resumes: a run stopped after 2 of 5 records, re-run, inserts the other 3 and nothing twice", async () => {
    const item = JSON.parse(readFileSync(SAOS_CT, "utf8")) as Record<string, unknown>;
    const lines = [1, 2, 3, 4, 5].map((i) => JSON.stringify({ ...item, id: `${SYNTH}resume-${i}` })).join("\n");
    const file = writeFile("resume.jsonl", lines);
    const first = await run("saos", [file], { limit: 2 });
    expect(first).toMatchObject({ read: 2, inserted: 2, limit: 2 });
    const second = await run("saos", [file]);
    expect(second).toMatchObject({ read: 5, inserted: 3, skipped: 2, updated: 0, rejected: 0 });
    expect(await count("saos", `${SYNTH}resume-%`)).toBe(5);
  });

  it("a changed record is updated in place (same row, new content), an unchanged one in the same file skipped", async () => {
    const item = JSON.parse(readFileSync(SAOS_CT, "utf8")) as Record<string, unknown>;
    const lines = (kw: string[]) => [1, 2].map((i) => JSON.stringify({ ...item, id: `${SYNTH}upd-${i}`, keywords: i === 2 ? kw : [] })).join("\n");
    const file = writeFile("update.jsonl", lines(["prawo karne"]));
    expect(await run("saos", [file])).toMatchObject({ inserted: 2 });
    const before = await pool.query<{ id: string }>("select id from public.judgments where source = 'saos' and source_id = $1", [`${SYNTH}upd-2`]);
    writeFileSync(file, lines(["prawo karne", "środki karne"]));
    expect(await run("saos", [file])).toMatchObject({ read: 2, inserted: 0, updated: 1, skipped: 1 });
    const after = await pool.query<{ id: string; keywords: string[] }>("select id, keywords from public.judgments where source = 'saos' and source_id = $1", [`${SYNTH}upd-2`]);
    expect(after.rows).toEqual([{ id: before.rows[0].id, keywords: ["prawo karne", "środki karne"] }]);
  });

  it("a row stored with the first hash form (sha-256 of the whole record's JSON) is still recognised as unchanged", async () => {
    const item = JSON.parse(readFileSync(SAOS_CT, "utf8")) as Record<string, unknown>;
    const file = writeFile("legacy-hash.jsonl", JSON.stringify({ ...item, id: `${SYNTH}legacy-hash` }));
    expect(await run("saos", [file])).toMatchObject({ inserted: 1 });
    const records = [];
    for await (const it of readSaos(file, { onBytes: () => undefined, today: new Date("2026-12-01T00:00:00Z"), stop: () => false })) if (it.kind === "record") records.push(it.record);
    await pool.query("update public.judgments set source_hash = $1 where source = 'saos' and source_id = $2", [legacyRecordHash(records[0]), `${SYNTH}legacy-hash`]);
    const before = await row("saos", `${SYNTH}legacy-hash`);
    expect(await run("saos", [file])).toMatchObject({ read: 1, inserted: 0, updated: 0, skipped: 1 });
    expect((await row("saos", `${SYNTH}legacy-hash`))?.updated_at).toBe(before?.updated_at);
    // Changed since: written, and stored with the current form.
    writeFileSync(file, JSON.stringify({ ...item, id: `${SYNTH}legacy-hash`, keywords: ["prawo karne"] }));
    expect(await run("saos", [file])).toMatchObject({ read: 1, updated: 1 });
    const { rows } = await pool.query<{ source_hash: string }>("select source_hash from public.judgments where source = 'saos' and source_id = $1", [`${SYNTH}legacy-hash`]);
    expect(rows[0].source_hash).toMatch(/^v2:[0-9a-f]{64}$/);
  });

  it("--dry-run reads and checks without writing", async () => {
    const item = JSON.parse(readFileSync(SAOS_CT, "utf8")) as Record<string, unknown>;
    const file = writeFile("dry.json", JSON.stringify({ ...item, id: `${SYNTH}dry` }));
    const s = await runImport({ source: "saos", inputs: [file], dryRun: true });
    expect(s).toMatchObject({ dry_run: true, read: 1, valid: 1, inserted: 0 });
    expect(await count("saos", `${SYNTH}dry`)).toBe(0);
  });

  it("writes the citation graph with each batch: a reference to a judgment of a later batch resolves when that one lands, and a rebuild changes nothing", async () => {
    const item = JSON.parse(readFileSync(SAOS_CT, "utf8")) as Record<string, unknown>;
    // A cites B (written in a later batch), C cites A; case numbers the fixture corpus does not hold.
    const judgment = (key: string, caseNumber: string, text: string) =>
      JSON.stringify({ ...item, id: `${SYNTH}cite-${key}`, courtCases: [{ caseNumber }], textContent: `Orzeczenie w sprawie ${caseNumber}. ${text}` });
    const file = writeFile(
      "cite.jsonl",
      [
        judgment("a", "II KK 9901/26", "Sąd podziela pogląd wyrażony w sprawie II KK 9902/26."),
        judgment("b", "II KK 9902/26", "Bez powołań."),
        judgment("c", "II KK 9903/26", "Por. sprawa II KK 9901/26."),
      ].join("\n"),
    );
    const s = await runImport({ source: "saos", inputs: [file], databaseUrl: db(), today: new Date("2026-12-01T00:00:00Z"), batchSize: 1 });
    expect(s).toMatchObject({ read: 3, inserted: 3, rejected: 0 });
    const graph = async () =>
      (
        await pool.query<{ source_id: string; cited: string | null; cited_by_count: number; cites: string[] }>(
          `select j.source_id, t.source_id as cited, j.cited_by_count, j.cites
             from public.judgments j
             left join public.judgment_references r on r.source_judgment_id = j.id and r.kind = 'case' and r.canonical_id like 'pl:ii kk 99%'
             left join public.judgments t on t.id = r.target_judgment_id
            where j.source = 'saos' and j.source_id like $1 order by 1`,
          [`${SYNTH}cite-%`],
        )
      ).rows.map((r) => ({ ...r, cites: r.cites.filter((c) => /^[0-9a-f-]{36}$/.test(c)).length }));
    const after = await graph();
    expect(after).toEqual([
      { source_id: `${SYNTH}cite-a`, cited: `${SYNTH}cite-b`, cited_by_count: 1, cites: 1 },
      { source_id: `${SYNTH}cite-b`, cited: null, cited_by_count: 1, cites: 0 },
      { source_id: `${SYNTH}cite-c`, cited: `${SYNTH}cite-a`, cited_by_count: 0, cites: 1 },
    ]);
    const { rows } = await pool.query<{ id: string }>("select id::text from public.judgments where source = 'saos' and source_id like $1", [`${SYNTH}cite-%`]);
    const rebuilt = await rebuildCitations(pool, { ids: rows.map((r) => r.id) });
    expect(rebuilt.countsChanged).toBe(0);
    expect(await graph()).toEqual(after);
  });
});

describe("Find Case Law", () => {
  it("imports the LegalDocML judgment from its FRBR and uk: metadata, with paragraph numbers and every <ref> kept", async () => {
    const s = await run("fcl", [FCL_AKN]);
    expect(s).toMatchObject({ read: 1, inserted: 1, rejected: 0 });
    expect(s.notice).toMatch(/does not permit computational analysis .* separate transactional licence from The National Archives/);
    const r = await row("fcl", "ewca/civ/2025/673");
    expect(r).toMatchObject({
      case_number: "[2025] EWCA Civ 673",
      court_name: "The Court of Appeal of England and Wales (Civil Division)",
      decision_date: "2025-05-23",
      title: "Tortoise Media Limited, R (on the application of) v Conservative and Unionist Party [2025] EWCA Civ 673",
      // The header tags two of the three judges; the third is not guessed from the text.
      judges: [
        { name: "SIR GEOFFREY VOS, MASTER OF THE ROLLS", role: null },
        { name: "LORD JUSTICE DINGEMANS", role: null },
      ],
      references: 33,
      source_url: "https://caselaw.nationalarchives.gov.uk/ewca/civ/2025/673",
    });
    expect(r?.licence).toMatch(/Open Justice Licence.*computational analysis/);
    expect(r?.text_length).toBeGreaterThan(20_000);
    expect(r?.source_references.filter((x) => x.kind === "judgment")).toHaveLength(18);
    expect(r?.source_references.filter((x) => x.kind === "legislation")).toHaveLength(15);
    expect(r?.metadata).toMatchObject({ court_code: "EWCA-Civil", case_numbers: ["CA-2023-002540"], lower_court_citations: ["[2023] EWHC 3088 (Admin)"] });
    const { rows } = await pool.query<{ full_text: string; full_html: string }>("select full_text, full_html from public.judgments where source = 'fcl' and source_id = 'ewca/civ/2025/673'");
    expect(rows[0].full_text).toContain("1. The main issue in this case is whether");
    expect(rows[0].full_html).toContain('<div class="para" data-eid="para_1" data-num="1.">');
    expect(rows[0].full_html).toMatch(/<a class="ref" data-ref-type="legislation" href="http:\/\/www\.legislation\.gov\.uk\/id\/ukpga\/1998\/42\/section\/6"[^>]*>section 6<\/a>/);
    expect(rows[0].full_html).not.toMatch(/<img|style=/);
  });

  it("an Atom feed page lists its entries' document URIs and imports no judgment", async () => {
    const s = await run("fcl", [FCL_ATOM]);
    expect(s).toMatchObject({ read: 0, inserted: 0, rejected: 0 });
    expect(s.feed_entries).toEqual([
      {
        uri: "d-9b51d493-65ba-471f-8f08-c369ec66e3f8",
        xml_url: "https://caselaw.nationalarchives.gov.uk/uksc/2024/123/data.xml",
        html_url: "https://caselaw.nationalarchives.gov.uk/uksc/2024/123",
        title: "Jarndyce v. Jarndyce",
        citation: "[2024] UKSC 123",
        court: "Upper Tribunal (Lands Chamber)",
        published: "2025-04-30T00:00:00+00:00",
        updated: "2025-04-30T09:54:24+00:00",
        content_hash: "d1b2a59fbea7e20077af9f91b27e95e865061b270be03ff539ab3b73587882e8",
      },
    ]);
  });

  it("XML with a control character: one line naming the file, line and column; nothing written", async () => {
    const xml = readFileSync(FCL_AKN, "utf8").replace("<FRBRthis value=\"https://caselaw.nationalarchives.gov.uk/id/ewca/civ/2025/673\"/>", '<FRBRthis value="https://caselaw.nationalarchives.gov.uk/id/ewca/civ/2025/673-ctl"/>').replace("The main issue", "The main\u0001 issue");
    const file = writeFile("control.xml", xml);
    const s = await run("fcl", [file]);
    expect(s).toMatchObject({ read: 0, inserted: 0, rejected: 1 });
    expect(s.rejections[0]).toMatchObject({ file });
    expect(s.rejections[0].reason).toMatch(/^malformed XML at line \d+, column \d+: .*disallowed character/i);
    expect(await row("fcl", "ewca/civ/2025/673-ctl")).toBeUndefined();
  });
});

describe("JuDDGES", () => {
  const v1 = JSON.parse(readFileSync(JUDDGES_V1, "utf8")) as Record<string, unknown>;

  it("imports the real v1 row (JSON): structured fields, Portal XML → HTML, legal bases as references; run-together judges reported", async () => {
    const s = await run("juddges", [JUDDGES_V1]);
    expect(s).toMatchObject({ read: 1, inserted: 1, rejected: 0 });
    expect(s.warnings).toEqual([
      { file: JUDDGES_V1, record: 1, line: 1, id: JUDDGES_ID, reason: 'judge name "SW Jacek Sikorski i Bogdan Gierzyński" looks like two names joined by a conjunction' },
    ]);
    const r = await row("juddges", JUDDGES_ID);
    expect(r).toMatchObject({
      case_number: "XVII AmA 14/94",
      court_name: "Sąd Okręgowy w Warszawie",
      decision_date: "1994-07-20",
      title: "Wyrok Sądu Okręgowego w Warszawie z dnia 20 lipca 1994 r., XVII AmA 14/94",
      // Kept as the source gives it (never split by guesswork).
      judges: [
        { name: "SSW Stanisław Gronowski", role: "presiding" },
        { name: "SW Jacek Sikorski i Bogdan Gierzyński", role: null },
      ],
      references: 4 + (v1.references as unknown[]).length + (v1.legalBases as unknown[]).length,
      source_url: "https://huggingface.co/datasets/JuDDGES/pl-court-raw",
    });
    expect(r?.text_length).toBe((v1.text as string).trim().length);
    expect(r?.licence).toMatch(/CC BY 4\.0/);
    expect(r?.metadata).toMatchObject({ schema: "v1", division: "XVII Wydział Sąd Ochrony Konkurencji i Konsumenta", page_count: 7 });
    expect(r?.source_references[0]).toMatchObject({ kind: "legislation", isap_id: "WDU19640430296", journal: { year: 1964, number: 43, entry: 296 } });
    const { rows } = await pool.query<{ full_html: string }>("select full_html from public.judgments where source = 'juddges' and source_id = $1", [JUDDGES_ID]);
    expect(rows[0].full_html).toContain('<span class="anon">A. M.</span>');
    expect(rows[0].full_html).toContain('<span class="ref" data-ref-type="legislation">');
  });

  function parquetOf(name: string, columns: Record<string, unknown[]>): string {
    const file = path.join(dir, name);
    parquetWriteFile({
      filename: file,
      rowGroupSize: 2,
      columnData: Object.entries(columns).map(([n, data]) => ({ name: n, data: data as never, type: n === "judgment_date" ? ("TIMESTAMP" as const) : undefined })),
    });
    return file;
  }

  it("reads parquet with the current column names row group by row group; a 2101 date is rejected, the rest land", async () => {
    const ids = [`${SYNTH}pq-1`, `${SYNTH}pq-2`, `${SYNTH}pq-3`];
    const file = parquetOf("current.parquet", {
      judgment_id: ids,
      docket_number: ["II AKa 516/19", "II AKa 517/19", "II AKa 518/19"],
      judgment_date: [new Date("2019-04-04T22:00:00Z"), new Date("2101-04-14T00:00:00Z"), new Date("2019-04-05T10:00:00Z")],
      court_name: ["Sąd Apelacyjny w Poznaniu", "Sąd Apelacyjny w Poznaniu", "Sąd Apelacyjny w Poznaniu"],
      judgment_type: ["SENTENCE", "SENTENCE", "DECISION"],
      presiding_judge: ["SSA Anna Nowak", "SSA Anna Nowak", "SSA Anna Nowak"],
      judges: [["SSA Anna Nowak", "SSO Jan Kowalski"], ["SSA Anna Nowak"], []],
      full_text: [v1.text, v1.text, v1.text],
      extracted_legal_bases: [v1.text_legal_bases, [], []],
    });
    const s = await run("juddges", [file]);
    expect(s).toMatchObject({ read: 3, inserted: 2, rejected: 1 });
    expect(s.rejections[0]).toMatchObject({ file, record: 2, id: ids[1] });
    expect(s.rejections[0].reason).toMatch(/judgment_date 2101-04-14 is impossible/);
    const r = await row("juddges", ids[0]);
    // 2019-04-04T22:00Z is 5 April in Poland: the day of the judgment as the court gives it.
    expect(r).toMatchObject({
      decision_date: "2019-04-05",
      title: "Wyrok Sądu Apelacyjnego w Poznaniu z dnia 5 kwietnia 2019 r., II AKa 516/19",
      judges: [
        { name: "SSA Anna Nowak", role: "presiding" },
        { name: "SSO Jan Kowalski", role: null },
      ],
      references: 4,
    });
    expect((await row("juddges", ids[2]))?.title).toBe("Postanowienie Sądu Apelacyjnego w Poznaniu z dnia 5 kwietnia 2019 r., II AKa 518/19");
    expect(await row("juddges", ids[1])).toBeUndefined();
  });

  it("a parquet file missing a required column is rejected whole with one line; nothing written", async () => {
    const file = parquetOf("missing.parquet", { judgment_id: [`${SYNTH}pq-missing`], docket_number: ["I C 1/20"], full_text: ["Tekst."] });
    const s = await run("juddges", [file]);
    expect(s).toMatchObject({ read: 0, inserted: 0, rejected: 1 });
    expect(s.rejections[0]).toMatchObject({ file, at: "schema", reason: "parquet file of pl-court-raw lacks column(s): judgment_date or date" });
    expect(await count("juddges", `${SYNTH}pq-missing`)).toBe(0);
  });
});

describe("the CLI", () => {
  const cli = (args: string[]) =>
    promisify(execFile)("npx", ["tsx", "server/cli/import.ts", ...args], { env: { ...process.env, DATABASE_URL: db() } });

  it("prints one JSON summary line and exits 3 when something was rejected", async () => {
    const err = (await cli(["saos", SAOS_2101, "--no-sync"]).catch((e: unknown) => e)) as { code: number; stdout: string };
    expect(err.code).toBe(3);
    const lines = err.stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    const summary = JSON.parse(lines[0]) as { rejected: number; rejections: { reason: string }[]; sync: string };
    expect(summary).toMatchObject({ rejected: 1, sync: "skipped" });
    expect(summary.rejections[0].reason).toMatch(/2101-04-14/);
  });

  it("exits 0 when everything landed, and 1 on bad arguments", async () => {
    const ok = await cli(["saos", SAOS_CT, "--no-sync"]);
    expect(JSON.parse(ok.stdout.trim())).toMatchObject({ read: 1, rejected: 0 });
    const bad = (await cli(["westlaw", SAOS_CT]).catch((e: unknown) => e)) as { code: number; stderr: string };
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/unknown source "westlaw"/);
  });
});
