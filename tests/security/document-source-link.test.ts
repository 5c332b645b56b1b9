import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedInBrowser, type Browser } from "../helpers/http";
import { adminPool } from "../helpers/stack";

/**
 * The document page links a judgment's source only when it is an http(s) URL. The database refuses any other scheme
 * for new writes (judgments_source_url_scheme_check, NOT VALID), but a row stored before that check may still hold
 * `javascript:` or `data:`, so the page checks again before rendering. To stand in for such a row, the check is lifted
 * for this file and put back (as it was, NOT VALID) afterwards, with the seeded judgment's source_url.
 */
const pool = adminPool();
let id: string;
let original: string | null;
let reader: Browser;

const CHECK = "judgments_source_url_scheme_check";
let checkDef: string;

beforeAll(async () => {
  const { rows } = await pool.query<{ id: string; source_url: string | null }>("select id::text, source_url from public.judgments order by id limit 1");
  ({ id, source_url: original } = rows[0]);
  ({ browser: reader } = await signedInBrowser());
  checkDef = (await pool.query<{ def: string }>("select pg_get_constraintdef(oid) as def from pg_constraint where conname = $1", [CHECK])).rows[0].def;
});
afterAll(async () => {
  await pool.query("update public.judgments set source_url = $2 where id = $1", [id, original]);
  await pool.query(`alter table public.judgments drop constraint if exists ${CHECK}`);
  await pool.query(`alter table public.judgments add constraint ${CHECK} ${checkDef.replace(/\s+NOT VALID$/i, "")} not valid`);
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
  it("the database refuses a javascript: source for a new write", async () => {
    await expect(pool.query("update public.judgments set source_url = $2 where id = $1", [id, "javascript:alert(1)"])).rejects.toThrow(CHECK);
  });

  it("javascript:, data: and vbscript: sources render no link (and no such href anywhere)", async () => {
    // A row from before the check: written with the check lifted.
    await pool.query(`alter table public.judgments drop constraint ${CHECK}`);
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
