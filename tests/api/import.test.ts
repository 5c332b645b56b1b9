/**
 * Imported real judgments reach the running app: `npm run import` (the real CLI, with its closing incremental sync
 * into the app's own index folder) of the SAOS and Find Case Law samples (tests/fixtures/real-formats), then each is
 * found by its case number / neutral citation and by two distinctive words, and its page shows the source's
 * markup, the source and the licence.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, signedInBrowser } from "../helpers/http";
import { adminPool, stackEnv } from "../helpers/stack";
import { appEnv } from "../helpers/test-app";

const FIX = path.join(process.cwd(), "tests/fixtures/real-formats");
const SAOS_CC = path.join(FIX, "saos/api-judgments-227221.date-2016-04-14.json");
const FCL_AKN = path.join(FIX, "uk-find-case-law/ewca-civ-2025-673.enriched.akn.xml");

let pool: pg.Pool;
let browser: Browser;
const ids: Record<string, string> = {};

async function cleanup() {
  await pool.query("delete from public.judgments where (source = 'saos' and source_id = '227221') or (source = 'fcl' and source_id = 'ewca/civ/2025/673')");
}

async function importCli(args: string[]) {
  const { stdout } = await promisify(execFile)("npx", ["tsx", "server/cli/import.ts", ...args], { env: appEnv(stackEnv()) });
  return JSON.parse(stdout.trim().split("\n").pop() as string) as { inserted: number; updated: number; sync: { kind?: string; error?: string } | string };
}

beforeAll(async () => {
  pool = adminPool();
  await cleanup();
  const saos = await importCli(["saos", SAOS_CC]);
  const fcl = await importCli(["fcl", FCL_AKN]);
  expect(saos).toMatchObject({ inserted: 1, sync: { kind: expect.any(String) } });
  expect(fcl).toMatchObject({ inserted: 1, sync: { kind: expect.any(String) } });
  const { rows } = await pool.query<{ source: string; id: string }>("select source, id from public.judgments where (source = 'saos' and source_id = '227221') or (source = 'fcl' and source_id = 'ewca/civ/2025/673')");
  for (const r of rows) ids[r.source] = r.id;
  // The app re-reads the index state at most once a second; one request then opens the new generation.
  await new Promise((r) => setTimeout(r, 1100));
  await new Browser().get("/api/search/suggest?q=warmup");
  await new Promise((r) => setTimeout(r, 1500));
  ({ browser } = await signedInBrowser());
}, 240_000);

afterAll(async () => {
  if (pool) await cleanup();
  await pool?.end();
});

async function hitIds(q: string): Promise<string[]> {
  const res = await browser.get(`/api/search/documents?q=${encodeURIComponent(q)}&limit=20`);
  expect(res.status).toBe(200);
  const body = (await res.json()) as { hits: { id: string; title: string }[] };
  return body.hits.map((h) => h.id);
}

describe("imported judgments in the running app", () => {
  it("are found by case number and neutral citation", async () => {
    expect(await hitIds("II K 84/16")).toContain(ids.saos);
    expect(await hitIds("[2025] EWCA Civ 673")).toContain(ids.fcl);
  });

  it("are found by two distinctive words", async () => {
    expect((await hitIds("Becińska Rybińska"))[0]).toBe(ids.saos);
    expect((await hitIds("Tortoise Conservative"))[0]).toBe(ids.fcl);
  });

  it("list with their display title", async () => {
    const res = await browser.get(`/api/search/documents?q=${encodeURIComponent("Tortoise Conservative")}&limit=1`);
    const body = (await res.json()) as { hits: { id: string; title: string }[] };
    expect(body.hits[0].title).toBe("Tortoise Media Limited, R (on the application of) v Conservative and Unionist Party [2025] EWCA Civ 673");
  });

  it("render on the judgment page with the source's markup, the source and the licence", async () => {
    const page = await (await new Browser().get(`/documents/${ids.fcl}`)).text();
    expect(page).toContain("Tortoise Media Limited, R (on the application of) v Conservative and Unionist Party [2025] EWCA Civ 673");
    expect(page).toContain("Find Case Law (The National Archives)");
    expect(page).toContain("Open Justice Licence");
    expect(page).toContain('data-num="1."');
    const html = (await (await new Browser().get(`/api/documents/${ids.saos}/html`)).json()) as { html: string };
    expect(html.html).toContain('<span class="anon">R. I.</span>');
    const meta = (await (await new Browser().get(`/api/documents/${ids.saos}/metadata`)).json()) as Record<string, unknown>;
    expect(meta).toMatchObject({ title: "Wyrok Sądu Rejonowego w Toruniu z dnia 14 kwietnia 2016 r., II K 84/16", source: "saos", case_number: "II K 84/16" });
    expect(meta).not.toHaveProperty("full_html");
    expect(meta).not.toHaveProperty("source_hash");
    // The first request of the page compiles it under `next dev`.
  }, 240_000);
});
