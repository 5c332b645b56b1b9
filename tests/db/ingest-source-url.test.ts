import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminPool, stackEnv } from "../helpers/stack";
import { ingestFile } from "@/lib/import/ingest-row";

/**
 * Ingestion keeps only http(s) source links (httpUrlSchema, lib/schema/text.ts): the value becomes a link on the public
 * document page, and `javascript:` / `data:` parse as URLs, so z.url() alone let them in. A bad link rejects its row
 * with a reason naming source_url; an http(s) one lands.
 */
const pool = adminPool();
const PREFIX = "ingest-url-test-";
const dir = mkdtempSync(path.join(tmpdir(), PREFIX));

const cleanup = () => pool.query("delete from public.judgments where source_id like $1", [`${PREFIX}%`]);
beforeAll(cleanup);
afterAll(async () => {
  await cleanup();
  await pool.end();
});

const row = (n: number, source_url: string) => ({ source_id: `${PREFIX}${n}`, jurisdiction: "UK", full_text: "R v Example. Appeal against sentence.", source_url });

describe("ingestion: source_url must be http(s)", () => {
  it("rejects javascript:, data:, vbscript: and file: links by line; lands http and https ones", async () => {
    const lines = [
      row(1, "javascript:alert(document.cookie)"),
      row(2, "data:text/html,<script>alert(1)</script>"),
      row(3, "https://www.bailii.org/ew/cases/EWCA/Crim/2023/1.html"),
      row(4, "JavaScript:alert(1)"),
      row(5, "vbscript:msgbox(1)"),
      row(6, "file:///etc/passwd"),
      row(7, "http://orzeczenia.ms.gov.pl/details/x"),
    ];
    const file = path.join(dir, "urls.jsonl");
    writeFileSync(file, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
    const report = await ingestFile(stackEnv().databaseUrl, file);
    expect(report.rejected.map((r) => r.line)).toEqual([1, 2, 4, 5, 6]);
    for (const r of report.rejected) expect(r.reason).toMatch(/source_url/);
    expect(report.inserted).toBe(2);
    const { rows } = await pool.query<{ source_url: string }>("select source_url from public.judgments where source_id like $1 order by source_id", [`${PREFIX}%`]);
    expect(rows.map((r) => r.source_url)).toEqual(["https://www.bailii.org/ew/cases/EWCA/Crim/2023/1.html", "http://orzeczenia.ms.gov.pl/details/x"]);
  });
});
