import AxeBuilder from "@axe-core/playwright";
import pg from "pg";
import { expect, test, type Page } from "playwright/test";
import { judgmentId } from "@/supabase/seed/ids";
import { ART_279_ACQUITTAL_INDEXES, ART_279_INDEXES } from "@/supabase/seed/planted-statutes";
import { ensureE2ECorpus } from "./support/corpus";
import { signUpViaApi } from "./support/users";

/** The test stack's own slice (tests/helpers/test-stack.ts): the planted citation network and statute references. */
const SLICE_SEED = 7;
const PROVISION = "PL/kk/279/§1";

test.beforeAll(async ({ baseURL }) => {
  test.setTimeout(300_000);
  await ensureE2ECorpus(baseURL!);
});

async function axeClean(page: Page, label: string): Promise<void> {
  await page.waitForLoadState("networkidle");
  const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]).analyze();
  const bad = violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  expect(bad, label).toEqual([]);
}

/** A judgment citing another in its text, the cited one chosen with the fewest citers (its whole list fits a page). */
async function citingPair(): Promise<{ source: string; target: string; citers: number }> {
  const { databaseUrl } = JSON.parse(process.env.TEST_STACK_ENV ?? "{}") as { databaseUrl: string };
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  try {
    const { rows } = await pool.query<{ source: string; target: string; citers: number }>(
      `select r.source_judgment_id::text as source, r.target_judgment_id::text as target,
              (select count(distinct c.source_judgment_id)::int from public.judgment_references c where c.target_judgment_id = r.target_judgment_id) as citers
         from public.judgment_references r
        where r.origin = 'text' and r.kind = 'case' and r.target_judgment_id is not null
        order by citers, r.source_judgment_id limit 1`,
    );
    expect(rows.length, "the slice has a resolved case reference").toBe(1);
    return rows[0];
  } finally {
    await pool.end();
  }
}

test("a judgment's reference opens the cited judgment, whose Cited by panel lists the citing one", async ({ page }) => {
  test.setTimeout(120_000);
  const { source, target, citers } = await citingPair();
  await page.goto(`/documents/${source}`);
  const cites = page.getByTestId("cites-panel");
  await expect(cites.getByRole("heading", { level: 2 })).toHaveText(/^Cites \(\d+\)$/);
  await expect(cites.locator(`a[href="/documents/${target}"]`)).toBeVisible();
  // The reference in the full text is a link to the cited judgment too.
  const inText = page.locator(`[data-testid=full-text] a[data-ref=case][href="/documents/${target}"]`).first();
  await expect(inText).toBeVisible();
  await axeClean(page, "judgment page");
  // Keyboard: focus the link in the text and follow it.
  await inText.focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/documents/${target}$`));
  const citedBy = page.getByTestId("cited-by-panel");
  await expect(citedBy.getByRole("heading", { level: 2 })).toHaveText(`Cited by (${citers})`);
  if (citers <= 10) await expect(citedBy.locator(`[data-testid=cited-by-list] a[href="/documents/${source}"]`)).toBeVisible();
  // A filter no citing judgment meets empties the list and says so.
  await citedBy.getByLabel("Decided to").fill("1901-01-01");
  await citedBy.getByRole("button", { name: "Apply" }).click();
  await expect(citedBy.getByText("No judgment matches these filters.")).toBeVisible();
  await expect(citedBy.getByRole("heading", { level: 2 })).toHaveText("Cited by (0)");
});

test("a provision page lists the judgments applying it, with counts and a CSV link", async ({ page, request }) => {
  test.setTimeout(120_000);
  const api = await request.get(`/api/legislation/${PROVISION}`);
  expect(api.status()).toBe(200);
  const body = (await api.json()) as { total: number; items: { id: string }[] };
  await page.goto(`/legislation/${PROVISION}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("art. 279 § 1 k.k.");
  await expect(page.getByTestId("provision-total")).toHaveText(`${body.total} judgments apply it`);
  await expect(page.getByTestId("provision-parent")).toHaveText("art. 279 k.k.");
  const list = page.getByTestId("provision-judgments");
  // Every planted judgment applying it is listed; those that name it only to record an acquittal are not.
  expect(body.total).toBeGreaterThanOrEqual(ART_279_INDEXES.length);
  expect(body.total).toBeLessThanOrEqual(20);
  await expect(list.locator("li")).toHaveCount(body.total);
  for (const i of ART_279_INDEXES) await expect(list.locator(`a[href="/documents/${judgmentId(SLICE_SEED, i)}"]`)).toHaveCount(1);
  for (const i of ART_279_ACQUITTAL_INDEXES) await expect(list.locator(`a[href="/documents/${judgmentId(SLICE_SEED, i)}"]`)).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Download as CSV" })).toHaveAttribute("href", /format=csv/);
  await expect(page.getByRole("heading", { name: "Judgments per year" })).toBeVisible();
  await axeClean(page, "provision page");
  // An unknown but valid provision: its name and the empty state; no provision id at all: not found.
  await page.goto("/legislation/PL/kk/999/§9");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("art. 999 § 9 k.k.");
  await expect(page.getByText("No judgment in the corpus applies this provision yet.")).toBeVisible();
  const missing = await page.goto("/legislation/not-a-provision");
  expect(missing?.status()).toBe(404);
});

test("a provision typed into search lists the judgments applying it and links its page", async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto(`/search?q=${encodeURIComponent("art. 279 § 1 k.k.")}`);
  const line = page.getByTestId("search-provision").getByRole("link");
  await expect(line).toHaveText("Judgments applying art. 279 § 1 k.k.");
  await expect(page.getByRole("combobox", { name: "Sort" }).locator("option[value=cited_by]")).toHaveText("Most cited");
  await axeClean(page, "search with a provision");
  await line.click();
  await expect(page).toHaveURL(/\/legislation\/PL\/kk\/279\/(%C2%A7|§)1$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("art. 279 § 1 k.k.");
});

test("on /search/extractions a provision picked by what is typed narrows the cohort to the judgments applying it", async ({ page }) => {
  test.setTimeout(120_000);
  await signUpViaApi(page, "cites");
  await page.goto("/search/extractions");
  await page.getByTestId("open-filters").click();
  const drawer = page.getByRole("dialog", { name: "Filters" });
  await drawer.getByLabel("Cites: Find a provision").fill("279 § 1 kk");
  await drawer.getByRole("checkbox", { name: "art. 279 § 1 k.k." }).check();
  await axeClean(page, "provision picker");
  await drawer.getByRole("button", { name: "Show results" }).click();
  await expect(drawer).toBeHidden();
  await expect(page.locator("[data-chip=cites]")).toHaveText("Cites: art. 279 § 1 k.k.");
  // The count the page must show, asked of the API: the completed extractions among the planted judgments.
  const api = await page.request.post("/api/extractions/base-schema/filter", { data: { filters: { cites: [PROVISION] }, limit: 50 } });
  expect(api.status()).toBe(200);
  const body = (await api.json()) as { total: number; results: { id: string }[] };
  expect(body.total).toBeGreaterThan(0);
  const planted = ART_279_INDEXES.map((i) => judgmentId(SLICE_SEED, i));
  for (const r of body.results) expect(planted).toContain(r.id);
  await expect(page.getByTestId("cohort-total")).toHaveText(body.total === 1 ? "1 judgment matches" : `${body.total} judgments match`);
});
