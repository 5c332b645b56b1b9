import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminPool } from "../helpers/stack";
import { Browser } from "../helpers/http";

/**
 * Reading a judgment outside its page: the permalink by citation (/cite/…) and the downloads, as a guest (the same
 * access as the judgment page), against rows this file inserts and removes (real Postgres, real HTTP).
 */
const tag = randomUUID().slice(0, 8);
const n = Number.parseInt(tag.slice(0, 6), 16) % 100_000;
const UK = { id: randomUUID(), ncn: `[2099] EWCA Crim ${n}`, title: `R v Reader ${tag}` };
const PL = { id: randomUUID(), caseNumber: `II AKa ${n}/19` };
const SHARED = [randomUUID(), randomUUID()];
const SHARED_CASE = `IV Ka ${n}/20`;
const ALL = [UK.id, PL.id, ...SHARED];

beforeAll(async () => {
  const pool = adminPool();
  const row = (id: string, jurisdiction: string, caseNumber: string | null, ncn: string | null, title: string, text: string) =>
    pool.query(
      `insert into public.judgments (id, source_id, jurisdiction, case_number, base_neutral_citation_number, title, court_name, decision_type, decision_date, full_text)
       values ($1, $2, $3, $4, $5, $6, $7, $8, '2019-04-05', $9)`,
      [id, `reader-test-${id}`, jurisdiction, caseNumber, ncn, title, jurisdiction === "PL" ? "Sąd Apelacyjny w Poznaniu" : "Court of Appeal", jurisdiction === "PL" ? "Wyrok" : "Judgment", text],
    );
  await row(UK.id, "UK", `2099/${n}/B3`, UK.ncn, UK.title, "The appellant was convicted of robbery.\n\nThe appeal is dismissed.");
  await row(PL.id, "PL", PL.caseNumber, null, "Wyrok", "Oskarżony dokonał kradzieży z włamaniem <b>nie</b> tag.");
  for (const id of SHARED) await row(id, "PL", SHARED_CASE, null, "Wyrok", "Tekst.");
});

afterAll(async () => {
  await adminPool().query("delete from public.judgments where id = any($1::uuid[])", [ALL]);
});

const path = (ref: string) => `/cite/${ref.split("/").map(encodeURIComponent).join("/")}`;

describe("/cite/<neutral citation or case number>", () => {
  it("redirects a neutral citation and a case number (a slash in it, any case and spacing) to the judgment", async () => {
    const b = new Browser();
    const uk = await b.get(path(UK.ncn));
    expect([307, 308]).toContain(uk.status);
    expect(new URL(uk.headers.get("location") as string, "http://x").pathname).toBe(`/documents/${UK.id}`);
    for (const ref of [PL.caseNumber, `  ${PL.caseNumber.toLowerCase().replace(" ", "   ")} `]) {
      const pl = await b.get(path(ref));
      expect([307, 308], ref).toContain(pl.status);
      expect(new URL(pl.headers.get("location") as string, "http://x").pathname, ref).toBe(`/documents/${PL.id}`);
    }
    // Typed as is into the address bar: the brackets and spaces escaped by the client only.
    const raw = await b.get(`/cite/[2099]%20EWCA%20Crim%20${n}`);
    expect(new URL(raw.headers.get("location") as string, "http://x").pathname).toBe(`/documents/${UK.id}`);
  });

  it("sends a case number several judgments share to search for it", async () => {
    const res = await new Browser().get(path(SHARED_CASE));
    expect([307, 308]).toContain(res.status);
    const to = new URL(res.headers.get("location") as string, "http://x");
    expect(to.pathname).toBe("/search");
    expect(to.searchParams.get("q")).toBe(`"${SHARED_CASE}"`);
  });

  it("answers an unknown citation with a 404 page that links to search; LIKE wildcards match nothing", async () => {
    for (const ref of [`[2099] EWCA Crim ${n}0000`, "%", "II AKa _/19"]) {
      const res = await new Browser().get(path(ref));
      expect(res.status, ref).toBe(404);
      const html = await res.text();
      // The production server writes the page as HTML, the dev server partly as its RSC payload (escaped quotes).
      expect(html, ref).toMatch(/data-testid\\?"?[=:]\\?"cite-not-found/);
      expect(html, ref).toMatch(/href\\?"?[=:]\\?"\/search\\?"/);
    }
  });
});

describe("GET /api/documents/{id}/download", () => {
  it("gives the judgment as a standalone HTML file, named after the case number", async () => {
    const res = await new Browser().get(`/api/documents/${PL.id}/download?format=html`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html; charset=utf-8/);
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="II-AKa-${n}-19.html"`);
    const html = await res.text();
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain(`<li>Case number: ${PL.caseNumber}</li>`);
    expect(html).toContain("Oskarżony dokonał kradzieży z włamaniem");
    // The text's markup-like characters arrive escaped, as on the page.
    expect(html).toContain("&lt;b&gt;nie&lt;/b&gt;");
    expect(html).not.toContain("<b>nie</b>");
  });

  it("gives the plain text under the same header; html is the default format", async () => {
    const b = new Browser();
    const res = await b.get(`/api/documents/${UK.id}/download?format=txt`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="2099-${n}-B3.txt"`);
    const text = await res.text();
    expect(text.split("\n").slice(0, 3)).toEqual([UK.title, `Case number: 2099/${n}/B3`, `Neutral citation: ${UK.ncn}`]);
    expect(text).toContain("The appellant was convicted of robbery.\n\nThe appeal is dismissed.");
    const dflt = await b.get(`/api/documents/${UK.id}/download`);
    expect(dflt.headers.get("content-type")).toMatch(/^text\/html/);
  });

  it("refuses what the judgment read refuses: an unknown id 404, a malformed one 400; an unknown format is a validation error", async () => {
    const b = new Browser();
    expect((await b.get(`/api/documents/${randomUUID()}/download`)).status).toBe(404);
    expect((await b.get("/api/documents/not-a-uuid/download")).status).toBe(400);
    const bad = await b.get(`/api/documents/${PL.id}/download?format=pdf`);
    expect(bad.status).toBeGreaterThanOrEqual(400);
    expect(bad.status).toBeLessThan(500);
  });
});

describe("/documents/{id}?q=", () => {
  it("renders the find box with the query and the citation tools in the server HTML", async () => {
    const res = await new Browser().get(`/documents/${PL.id}?q=${encodeURIComponent("kradzież z włamaniem")}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('data-testid="find-in-text"');
    expect(html).toMatch(/id="find-in-text"[^>]*value="kradzież z włamaniem"|value="kradzież z włamaniem"[^>]*id="find-in-text"/);
    expect(html).toContain(`data-citation="${PL.caseNumber}, wyrok SA w Poznaniu z 5.04.2019 r."`);
    expect(html).toContain(`href="/cite/II%20AKa%20${n}/19"`);
    expect(html).toContain(`/api/documents/${PL.id}/download?format=txt`);
  });
});
