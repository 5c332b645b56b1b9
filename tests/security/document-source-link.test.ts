import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedInBrowser, type Browser } from "../helpers/http";
import { adminPool } from "../helpers/stack";

/**
 * The document page links a judgment's source only when it is an http(s) URL: a row stored before ingestion refused
 * other schemes (or written around it) may hold `javascript:` or `data:`, and the page checks again before rendering.
 * One seeded judgment's source_url is changed for the test and put back afterwards.
 */
const pool = adminPool();
let id: string;
let original: string | null;
let reader: Browser;

beforeAll(async () => {
  const { rows } = await pool.query<{ id: string; source_url: string | null }>("select id::text, source_url from public.judgments order by id limit 1");
  ({ id, source_url: original } = rows[0]);
  ({ browser: reader } = await signedInBrowser());
});
afterAll(async () => {
  await pool.query("update public.judgments set source_url = $2 where id = $1", [id, original]);
  await pool.end();
});

/** The rendered link (the label alone also appears in the page's message catalogue). */
const SOURCE_LINK = /<a [^>]*>Open the original<\/a>/;

async function pageWith(sourceUrl: string): Promise<string> {
  await pool.query("update public.judgments set source_url = $2 where id = $1", [id, sourceUrl]);
  const res = await reader.get(`/documents/${id}`);
  expect(res.status).toBe(200);
  return res.text();
}

describe("document page: the source link is rendered for http(s) only", () => {
  it("javascript:, data: and vbscript: sources render no link (and no such href anywhere)", async () => {
    for (const url of ["javascript:alert(document.domain)", "JaVaScRiPt:alert(1)", "data:text/html,<script>alert(1)</script>", "vbscript:msgbox(1)"]) {
      const html = await pageWith(url);
      // Booleans, so a failure does not print the whole page.
      expect(/href="\s*(?:javascript|data|vbscript):/i.test(html), url).toBe(false);
      expect(SOURCE_LINK.test(html), url).toBe(false);
    }
  }, 120_000);

  it("an https source renders as the link", async () => {
    const url = "https://www.bailii.org/ew/cases/EWCA/Crim/2023/1.html";
    const html = await pageWith(url);
    expect(html.includes(`href="${url}"`)).toBe(true);
    expect(SOURCE_LINK.test(html)).toBe(true);
  }, 60_000);
});
