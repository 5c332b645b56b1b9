import { expect, test } from "playwright/test";
import { ensureE2ECorpus } from "./support/corpus";
import { screenshotBoth } from "./support/screens";
import { signUpViaApi } from "./support/users";

test.beforeAll(async ({ baseURL }) => {
  test.setTimeout(300_000); // seeding and indexing the corpus, once per worker
  await ensureE2ECorpus(baseURL!);
});

// Build a filter in the drawer, see the count and a chart, reload and get the same state, save the
// collection, open it, export CSV.
test("a user filters by extracted fields, charts, reloads, saves a collection and exports it", async ({ page }) => {
  test.setTimeout(180_000);
  await signUpViaApi(page, "extr");
  await page.goto("/search/extractions");
  await expect(page).toHaveTitle(/Search by extracted fields/);

  await page.getByTestId("open-filters").click();
  const drawer = page.getByRole("dialog", { name: "Filters" });
  await drawer.getByRole("checkbox", { name: "United Kingdom" }).check();
  await drawer.getByRole("button", { name: "Show results" }).click();
  await expect(drawer).toBeHidden();

  await expect(page).toHaveURL(/[?&]f=/);
  // The count the page must show, asked of the API directly (the page keeps the previous count while it reloads).
  const api = await page.request.post("/api/extractions/base-schema/filter", { data: { filters: { jurisdiction: ["UK"] }, limit: 1 } });
  expect(api.status()).toBe(200);
  const expected = ((await api.json()) as { total: number }).total;
  expect(expected).toBeGreaterThan(0);
  const countText = `${expected.toLocaleString("en-US")} judgments match`;
  const total = page.getByTestId("cohort-total");
  await expect(total).toHaveText(countText);
  await expect(page.locator("[data-chip=jurisdiction]")).toBeVisible();
  // A chart is drawn for the default aggregate fields.
  await expect(page.locator("[data-chart=decision_date] svg.recharts-surface")).toBeVisible();
  await expect(page.getByTestId("aggregate-total")).toContainText("Cohort");
  await screenshotBoth(page, "extractions");

  const url = page.url();
  await page.reload();
  await expect(page).toHaveURL(url);
  await expect(page.getByTestId("cohort-total")).toHaveText(countText!);
  await expect(page.locator("[data-chip=jurisdiction]")).toBeVisible();

  await page.getByRole("button", { name: "Save as collection" }).click();
  const save = page.getByRole("dialog", { name: "Save these results as a collection" });
  await save.getByLabel("Name").fill("E2E UK cohort");
  await save.getByRole("button", { name: "Save collection" }).click();
  await expect(save.getByTestId("save-done")).toContainText("E2E UK cohort");
  await save.getByRole("link", { name: "Open the collection" }).click();

  // The first visit compiles the page and its API routes when the app runs in dev mode.
  await expect(page.getByTestId("collection-name")).toHaveText("E2E UK cohort", { timeout: 30_000 });
  await expect(page.getByRole("table").getByRole("row").nth(1)).toBeVisible();
  await screenshotBoth(page, "collection");
  // The export streams through the server; codes give the machine header row.
  await page.getByTestId("export").locator("summary").click();
  await page.getByTestId("export-headers").selectOption("codes");
  const download = page.waitForEvent("download");
  await page.getByTestId("export-download").click();
  const file = await download;
  expect(file.suggestedFilename()).toBe("E2E-UK-cohort.csv");
  const csv = await (await file.createReadStream()).toArray();
  const text = Buffer.concat(csv).toString("utf8");
  expect(text.split("\r\n")[0]).toBe("\uFEFFid,case_number,title,jurisdiction,decision_date");
  expect(text).toContain(",UK,");
});

test("a malformed f shows an empty filter and a notice", async ({ page }) => {
  await signUpViaApi(page, "badf");
  await page.goto("/search/extractions?f=not-json");
  await expect(page.getByText("The filter in this link could not be read")).toBeVisible();
  await expect(page.locator("[data-chip]")).toHaveCount(0);
});

// Opening a judgment from a filtered list shows the highlighted base fields.
test("opening a judgment from a filtered list highlights the fields that matched", async ({ page }) => {
  test.setTimeout(120_000);
  await signUpViaApi(page, "doc");
  await page.goto("/search/extractions");
  await page.getByTestId("open-filters").click();
  const drawer = page.getByRole("dialog", { name: "Filters" });
  await drawer.getByRole("checkbox", { name: "Poland" }).check();
  await drawer.getByRole("button", { name: "Offender", exact: true }).click();
  await drawer.locator('[data-field="did_offender_confess"]').getByText("Yes").click();
  await drawer.getByRole("button", { name: "Show results" }).click();
  await expect(page).toHaveURL(/[?&]f=/);
  await expect(page.locator("[data-chip=did_offender_confess]")).toBeVisible();
  // The previous list stays on screen (dimmed, aria-busy) while the filtered one loads: open a row of the filtered one.
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  await expect(page.getByTestId("result-link").first()).toHaveAttribute("href", /\?f=.+#base-fields$/);

  await page.getByTestId("result-link").first().click();
  await expect(page).toHaveURL(/\/documents\/[0-9a-f-]{36}\?f=.+#base-fields$/);
  await expect(page.locator('[data-key="country"][data-matched="true"]')).toContainText("Poland");
  await expect(page.locator('[data-key="base_did_offender_confess"][data-matched="true"]')).toContainText("Yes");
  await expect(page.locator("#base-fields")).toBeVisible();
  await expect(page.locator(".prose-judgment")).toBeVisible({ timeout: 30_000 });
  await screenshotBoth(page, "judgment");
});
