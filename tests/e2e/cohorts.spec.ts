import { expect, test, type Page } from "playwright/test";
import { ensureE2ECorpus } from "./support/corpus";
import { screenshotBoth } from "./support/screens";
import { PASSWORD, uniqueEmail } from "./support/users";
import { searchFilterExpression } from "@/lib/client/search-url-state";

/**
 * A confirmed user made through the Auth admin API with the stack's service key, then signed in through the app (the
 * session cookies stay in the page). Sign-up also hashes and mails; on a loaded machine it outran its time limit.
 */
async function signedIn(page: Page, tag: string): Promise<void> {
  const stack = JSON.parse(process.env.TEST_STACK_ENV ?? "{}") as { supabaseUrl?: string; serviceRoleKey?: string };
  if (!stack.supabaseUrl || !stack.serviceRoleKey) throw new Error("TEST_STACK_ENV has no supabaseUrl/serviceRoleKey");
  const email = uniqueEmail(tag);
  const made = await fetch(`${stack.supabaseUrl}/auth/v1/admin/users`, {
    method: "POST",
    headers: { "content-type": "application/json", apikey: stack.serviceRoleKey, authorization: `Bearer ${stack.serviceRoleKey}` },
    body: JSON.stringify({ email, password: PASSWORD, email_confirm: true }),
    signal: AbortSignal.timeout(120_000),
  });
  expect(made.status, await made.clone().text()).toBeLessThan(300);
  const res = await page.request.post("/api/auth/sign-in", { data: { email, password: PASSWORD } });
  expect(res.status(), await res.text()).toBe(200);
}

test.beforeAll(async ({ baseURL }) => {
  test.setTimeout(300_000); // seeding and indexing the corpus, once per worker
  await ensureE2ECorpus(baseURL!);
});

/** The `f` parameter of /search/extractions for a filter (base64url of its JSON), as the page writes it. */
const encode = (filter: object) => Buffer.from(JSON.stringify(filter)).toString("base64url");

test("a researcher compares two cohorts, exports the comparison (CSV, XLSX), cites a cohort and opens its link signed out", async ({ page, browser }) => {
  test.setTimeout(300_000);
  await signedIn(page, "cohorts");

  // Compare Polish and UK judgments on the jurisdiction field: every Polish judgment is in A, none in B.
  await page.goto(`/cohorts/compare?a=${encode({ jurisdiction: ["PL"] })}&b=${encode({ jurisdiction: ["UK"] })}&fields=jurisdiction,decision_date`);
  await expect(page).toHaveTitle(/Compare cohorts/);
  const api = await page.request.post("/api/cohorts/compare", { data: { a: { filters: { jurisdiction: ["PL"] } }, b: { filters: { jurisdiction: ["UK"] } }, fields: ["jurisdiction"] } });
  expect(api.status()).toBe(200);
  const sizes = (await api.json()) as { a: { size: number }; b: { size: number } };
  await expect(page.getByTestId("size-a")).toHaveText(`Cohort A: ${sizes.a.size.toLocaleString("en-US")} judgments`, { timeout: 30_000 });
  await expect(page.getByTestId("size-b")).toHaveText(`Cohort B: ${sizes.b.size.toLocaleString("en-US")} judgments`);
  const jur = page.getByTestId("compare-field-jurisdiction");
  await expect(jur.getByRole("row", { name: /Poland/ })).toContainText("100%");
  await expect(jur.getByRole("row", { name: /Poland/ }).getByTestId("compare-diff")).toHaveText("100%");
  // Labels, not codes: the field and its values are named in words.
  await expect(jur).toContainText("United Kingdom");
  await expect(page.getByTestId("compare-field-decision_date")).toBeVisible();
  await screenshotBoth(page, "cohorts-compare");

  // The export control streams the comparison from the server: CSV with labels, then XLSX with codes.
  const exporter = page.getByTestId("export-compare");
  await exporter.locator("summary").click();
  await expect(exporter).toContainText("Export comparison");
  const download = page.waitForEvent("download");
  await exporter.getByTestId("export-compare-download").click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^cohort-comparison-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = await (await file.createReadStream()).toArray();
  const text = Buffer.concat(csv as Buffer[]).toString("utf8");
  expect(text.split("\r\n")[0]).toBe(
    "\uFEFFField,Kind,Value,Statistic,A: judgments,A: cohort size,A: share,A: median,A: lower quartile,A: upper quartile,B: judgments,B: cohort size,B: share,B: median,B: lower quartile,B: upper quartile,Difference (A − B),95 % interval: from,95 % interval: to",
  );
  expect(text).toContain(`Jurisdiction,Categories,Poland,Difference of shares (Newcombe's hybrid score interval),${sizes.a.size},${sizes.a.size},1,,,,0,${sizes.b.size},0,,,,1,`);
  await expect(exporter.getByTestId("export-compare-progress")).toContainText(/Downloaded cohort-comparison-.*\.csv/);
  await exporter.getByTestId("export-compare-format").selectOption("xlsx");
  await exporter.getByTestId("export-compare-headers").selectOption("codes");
  const xlsx = page.waitForEvent("download");
  await exporter.getByTestId("export-compare-download").click();
  const xfile = await xlsx;
  expect(xfile.suggestedFilename()).toMatch(/\.xlsx$/);
  const zip = Buffer.concat((await (await xfile.createReadStream()).toArray()) as Buffer[]);
  expect(zip.subarray(0, 2).toString("latin1")).toBe("PK");

  // Cite the UK cohort from the extraction page.
  await page.goto(`/search/extractions?f=${encode({ jurisdiction: ["UK"] })}`);
  await page.getByTestId("cite-cohort").click();
  const dialog = page.getByRole("dialog", { name: "Cite this cohort" });
  await dialog.getByRole("button", { name: "Create the link" }).click();
  await expect(dialog.getByTestId("cite-done")).toContainText(`Cited: ${sizes.b.size.toLocaleString("en-US")} judgments.`);
  const link = await dialog.getByLabel("Permanent link").inputValue();
  expect(link).toMatch(/\/c\/[0-9A-Za-z]{12}$/);

  // Anyone with the link: a fresh browser, signed out.
  const anon = await browser.newContext();
  const other = await anon.newPage();
  await other.goto(link);
  await expect(other.getByTestId("cohort-count")).toHaveText(`${sizes.b.size.toLocaleString("en-US")} judgments`);
  await expect(other.getByTestId("cohort-unchanged")).toBeVisible();
  await expect(other.getByTestId("filter-summary")).toContainText("United Kingdom");
  await expect(other.getByTestId("cite-bibtex")).toContainText(`@misc{cohort_${link.slice(-12)},`);
  await expect(other.getByTestId("cite-csl")).toContainText('"type": "dataset"');
  await expect(other.getByTestId("cohort-members").getByRole("row").nth(1)).toBeVisible();
  const bib = other.waitForEvent("download");
  await other.getByTestId("download-bibtex").click();
  expect((await bib).suggestedFilename()).toBe(`cohort-${link.slice(-12)}.bib`);
  await screenshotBoth(other, "cohort-cited");
  await anon.close();
});

test("a user sees their search history with its filters, runs a search again with them and deletes one and then all", async ({ page }) => {
  test.setTimeout(240_000);
  await signedIn(page, "history");
  await page.goto("/history");
  await expect(page).toHaveTitle(/Search history/);
  await expect(page.getByTestId("history-empty")).toBeVisible();

  // Two searches as this user, the second with the search page's filters and sort (the rows are written in batches,
  // so wait for them).
  expect((await page.request.get(`/api/search/documents?q=${encodeURIComponent("burglary sentence")}`)).status()).toBe(200);
  const filter = searchFilterExpression({ q: "", mode: "text", jurisdiction: ["PL"], from: "2012-01-01", to: "", court: "", page: 1 });
  expect((await page.request.get(`/api/search/documents?q=${encodeURIComponent("kradzież z włamaniem")}&filter=${encodeURIComponent(filter)}&sort=newest`)).status()).toBe(200);
  await expect
    .poll(async () => ((await (await page.request.get("/api/search/analytics/history")).json()) as { total: number }).total, { timeout: 20_000 })
    .toBe(2);
  await page.reload();
  await expect(page.getByTestId("history-total")).toHaveText("2 searches");
  const rows = page.getByTestId("history-row");
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText("kradzież z włamaniem");
  await screenshotBoth(page, "history");

  // The filters come back as chips, and searching again restores them with the query.
  await expect(rows.first().getByTestId("history-chip")).toHaveCount(3);
  await expect(rows.first().getByTestId("history-chips")).toContainText("Jurisdiction: Poland");
  await expect(rows.first().getByTestId("history-chips")).toContainText("Decided from");
  await expect(rows.first().getByTestId("history-chips")).toContainText("Sorted: Newest first");
  await expect(rows.last().getByTestId("history-chip")).toHaveCount(0);
  const again = rows.first().getByRole("link", { name: "Search again" });
  await expect(again).toHaveAttribute("href", /^\/search\?q=kradzie%C5%BC\+z\+w%C5%82amaniem&jurisdiction=PL&from=2012-01-01&sort=newest$/);
  await again.click();
  await expect(page).toHaveURL(/\/search\?q=kradzie/);
  await expect(page.getByRole("combobox", { name: "Search query" })).toHaveValue("kradzież z włamaniem");
  await expect(page.getByRole("checkbox", { name: "Poland" })).toBeChecked();
  await expect(page.getByRole("checkbox", { name: "United Kingdom" })).not.toBeChecked();
  // That search is in the history again, with the same filters.
  await expect
    .poll(async () => ((await (await page.request.get("/api/search/analytics/history")).json()) as { total: number }).total, { timeout: 20_000 })
    .toBe(3);
  await page.goto("/history");
  await expect(rows).toHaveCount(3);
  await expect(rows.first().getByTestId("history-chips")).toContainText("Jurisdiction: Poland");
  await rows.first().getByRole("button", { name: "Delete" }).click();
  await expect(rows).toHaveCount(2);
  await expect(rows.last()).toContainText("burglary sentence");

  await page.getByRole("button", { name: "Delete all" }).click();
  const confirm = page.getByRole("dialog", { name: "Delete your whole search history?" });
  await expect(confirm).toContainText("2 searches will be deleted");
  await confirm.getByRole("button", { name: "Delete all" }).click();
  await expect(page.getByTestId("history-empty")).toBeVisible();

  // Reachable from the menu.
  await page.goto("/search");
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "History" }).first()).toHaveAttribute("href", "/history");
});
