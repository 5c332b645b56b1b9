/**
 * GET /api/documents/{id}/references and /cited-by over real HTTP against the app: public like the judgment's
 * metadata (guests and signed-in users read the same), resolved targets' ids, cited-by paged newest first with the
 * total of distinct citing judgments, 400 for a malformed id, 404 for an id that is no judgment, 422 for bad paging.
 * The graph is planted (committed, removed afterwards) and built by the real rebuild.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rebuildCitations } from "@/lib/citations/store";
import { Browser, signedInBrowser } from "../helpers/http";
import { adminPool } from "../helpers/stack";

const pool = adminPool();
const ids: string[] = [];
let target = "";
let older = "";
let newer = "";
let uncited = "";

async function insert(j: { jurisdiction: string; text: string; case_number?: string; neutral?: string; court?: string; date?: string }): Promise<string> {
  const { rows } = await pool.query<{ id: string }>(
    `insert into public.judgments (full_text, jurisdiction, case_number, base_neutral_citation_number, court_name, decision_date, title)
     values ($1, $2, $3, $4, $5, $6, 'Citator test') returning id::text`,
    [j.text, j.jurisdiction, j.case_number ?? null, j.neutral ?? null, j.court ?? null, j.date ?? null],
  );
  ids.push(rows[0].id);
  return rows[0].id;
}

beforeAll(async () => {
  target = await insert({ jurisdiction: "PL", text: "Wyrok.", case_number: "II AKa 98801/25", court: "Sąd Apelacyjny w Krakowie", date: "2025-05-05" });
  older = await insert({
    jurisdiction: "PL",
    text: "Sąd zważył (art. 279 § 1 k.k.), że — zob. wyrok Sądu Apelacyjnego w Krakowie z dnia 5 maja 2025 r., II AKa 98801/25 — oraz V KK 98899/15.",
    case_number: "II AKa 98802/25",
    date: "2025-09-01",
  });
  newer = await insert({ jurisdiction: "PL", text: "Por. II AKa 98801/25 i ponownie II AKa 98801/25.", case_number: "II AKa 98803/26", date: "2026-01-10" });
  uncited = await insert({ jurisdiction: "UK", text: "No references here.", neutral: "[2026] EWCA Crim 98801" });
  await rebuildCitations(pool, { ids });
});

afterAll(async () => {
  await pool.query("delete from public.judgments where id = any ($1::uuid[])", [ids]);
  await pool.end();
});

const json = async (res: Response) => (await res.json()) as Record<string, unknown>;
const code = (body: Record<string, unknown>) => (body.detail as Record<string, unknown> | undefined)?.code;

describe("GET /api/documents/{id}/references", () => {
  it("answers a guest with every reference, its span and canonical id, and the resolved target's id", async () => {
    const res = await new Browser().get(`/api/documents/${older}/references`);
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.document_id).toBe(older);
    expect(body.total).toBe(3);
    const items = body.items as Array<Record<string, unknown>>;
    expect(items.map((r) => [r.kind, r.canonical_id, r.resolved, r.target_id])).toEqual([
      ["legislation", "PL/kk/279/§1", false, null],
      ["case", "pl:ii aka 98801/25", true, target],
      ["case", "pl:v kk 98899/15", false, null],
    ]);
    expect(items[1]).toMatchObject({ court: "Sądu Apelacyjnego w Krakowie", date: "2025-05-05", origin: "text", target: { id: target, case_number: "II AKa 98801/25" } });
    const text = "Sąd zważył (art. 279 § 1 k.k.), że — zob. wyrok Sądu Apelacyjnego w Krakowie z dnia 5 maja 2025 r., II AKa 98801/25 — oraz V KK 98899/15.";
    for (const r of items) expect(text.slice(r.start as number, r.end as number)).toBe(r.text);
  });

  it("answers a signed-in user the same, and an empty list for a judgment citing nothing", async () => {
    const { browser } = await signedInBrowser();
    const guest = await json(await new Browser().get(`/api/documents/${older}/references`));
    expect(await json(await browser.get(`/api/documents/${older}/references`))).toEqual(guest);
    expect(await json(await new Browser().get(`/api/documents/${uncited}/references`))).toEqual({ document_id: uncited, items: [], total: 0 });
  });

  it("400 for a malformed id, 404 for an id that is no judgment", async () => {
    const bad = await new Browser().get("/api/documents/not-a-uuid/references");
    expect([bad.status, code(await json(bad))]).toEqual([400, "INVALID_ID"]);
    const missing = await new Browser().get("/api/documents/00000000-0000-4000-8000-000000000000/references");
    expect([missing.status, code(await json(missing))]).toEqual([404, "DOCUMENT_NOT_FOUND"]);
  });
});

describe("GET /api/documents/{id}/cited-by", () => {
  it("lists the citing judgments newest first, each once with its number of references; total = distinct citers", async () => {
    const body = await json(await new Browser().get(`/api/documents/${target}/cited-by`));
    expect(body).toMatchObject({ document_id: target, total: 2, limit: 20, offset: 0 });
    const items = body.items as Array<Record<string, unknown>>;
    expect(items.map((r) => [r.id, r.references, r.decision_date])).toEqual([
      [newer, 2, "2026-01-10"],
      [older, 1, "2025-09-01"],
    ]);
    const { rows } = await pool.query<{ n: number }>("select cited_by_count as n from public.judgments where id = $1", [target]);
    expect(rows[0].n).toBe(2);
  });

  it("pages with limit and offset, the total unchanged", async () => {
    const page2 = await json(await new Browser().get(`/api/documents/${target}/cited-by?limit=1&offset=1`));
    expect(page2).toMatchObject({ total: 2, limit: 1, offset: 1 });
    expect((page2.items as Array<{ id: string }>).map((r) => r.id)).toEqual([older]);
    const past = await json(await new Browser().get(`/api/documents/${target}/cited-by?limit=5&offset=2`));
    expect(past).toMatchObject({ total: 2, items: [] });
    expect(await json(await new Browser().get(`/api/documents/${uncited}/cited-by`))).toMatchObject({ total: 0, items: [] });
  });

  it("422 for bad paging, 400 for a malformed id, 404 for an id that is no judgment", async () => {
    for (const q of ["limit=0", "limit=101", "offset=-1", "limit=abc"]) {
      const res = await new Browser().get(`/api/documents/${target}/cited-by?${q}`);
      expect(res.status, q).toBe(422);
    }
    expect((await new Browser().get("/api/documents/xyz/cited-by")).status).toBe(400);
    const missing = await new Browser().get("/api/documents/00000000-0000-4000-8000-000000000000/cited-by");
    expect([missing.status, code(await json(missing))]).toEqual([404, "DOCUMENT_NOT_FOUND"]);
  });
});
