import { expect, test, type Page } from "playwright/test";
import { ensureE2ECorpus } from "./support/corpus";
import { signUpViaApi } from "./support/users";

test.beforeAll(async ({ baseURL }) => {
  test.setTimeout(300_000); // seeding and indexing the corpus, once per worker
  await ensureE2ECorpus(baseURL!);
});

/** A word no judgment contains: its text chip empties any cohort. */
const NONSENSE = "qzxwvkjunkword";

/** The count the page must show, asked of the filter route directly. */
async function apiTotal(page: Page, filters: Record<string, unknown>, textQuery?: string): Promise<number> {
  const res = await page.request.post("/api/extractions/base-schema/filter", { data: { filters, ...(textQuery ? { text_query: textQuery } : {}), limit: 1 } });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { total: number }).total;
}

const matches = (n: number) => `${n.toLocaleString("en-US")} ${n === 1 ? "judgment matches" : "judgments match"}`;

// Without a model: the question becomes chips with a count before anything is applied; a chip that empties the list
// is named and dropped in one click; then the proposal is applied to the page.
test("the NL box proposes chips with a count, names the chip that emptied it, drops it and applies", async ({ page }) => {
  test.setTimeout(180_000);
  await signUpViaApi(page, "nlbox");
  await page.goto("/search/extractions");
  await expect(page.getByTestId("nl-mode")).toHaveAttribute("data-mode", "rules");

  // "appeals", "since" (once the year is read), "about" are not content: only the nonsense word is a text chip.
  await page.getByLabel("Describe the cohort in words").fill(`UK appeals since 2015 about ${NONSENSE}`);
  await page.getByRole("button", { name: "Fill the filter" }).click();
  const proposal = page.getByTestId("nl-proposal");
  // The first translation compiles its route when the app runs in dev mode.
  await expect(proposal.locator("[data-nl-chip=jurisdiction]")).toBeVisible({ timeout: 60_000 });
  await expect(proposal.locator("[data-nl-chip=decision_date]")).toBeVisible();
  await expect(proposal.locator("[data-nl-chip=text_query]")).toHaveText(`Text: “${NONSENSE}”`);
  // Nothing is applied yet: the page's URL carries no filter.
  expect(page.url()).not.toMatch(/[?&]f=/);

  const cohort = { jurisdiction: ["UK"], decision_date: { from: "2015-01-01" } };
  const without = await apiTotal(page, cohort);
  expect(without).toBeGreaterThan(0);
  expect(await apiTotal(page, cohort, NONSENSE)).toBe(0);
  await expect(page.getByTestId("nl-count")).toHaveAttribute("data-count", "0", { timeout: 60_000 });
  await expect(proposal).toContainText("No judgment matches all of these chips.");
  const culprit = proposal.getByTestId("nl-culprit");
  await expect(culprit).toHaveCount(1);
  await expect(culprit).toHaveAttribute("data-chip", "text_query");
  await expect(culprit).toContainText(`Emptied by the chip Text: “${NONSENSE}”: without it, ${matches(without)}.`);

  // The button reads "Drop this chip"; its accessible name names the chip.
  await expect(culprit.getByRole("button")).toHaveText("Drop this chip");
  await culprit.getByRole("button", { name: `Drop the chip Text: “${NONSENSE}”` }).click();
  await expect(proposal.locator("[data-nl-chip=text_query]")).toHaveCount(0);
  await expect(page.getByTestId("nl-count")).toHaveText(matches(without));

  await proposal.getByRole("button", { name: "Show these results" }).click();
  await expect(page).toHaveURL(/[?&]f=/);
  expect(new URL(page.url()).searchParams.get("q") ?? "").toBe("");
  await expect(page.getByTestId("cohort-total")).toHaveText(matches(without));
  await expect(page.locator("[data-chip=jurisdiction]")).toBeVisible();
  await expect(page.locator("[data-chip=decision_date]")).toBeVisible();
});

// The acceptance question: read by the rules into the typed sentence fields, counted as the filter route counts it.
test("the acceptance question becomes the sentence filter with its count before applying", async ({ page }) => {
  test.setTimeout(120_000);
  await signUpViaApi(page, "nlbox-acc");
  await page.goto("/search/extractions");
  await page.getByLabel("Describe the cohort in words").fill("Polish appeals where the defendant appealed and immediate custody was over 60 months");
  await page.getByRole("button", { name: "Fill the filter" }).click();
  const proposal = page.getByTestId("nl-proposal");
  await expect(proposal).toBeVisible({ timeout: 60_000 });
  for (const chip of ["jurisdiction", "appellant", "sentence_kind", "sentence_custody_months"]) {
    await expect(proposal.locator(`[data-nl-chip=${chip}]`)).toBeVisible();
  }
  await expect(proposal.locator("[data-nl-chip=text_query]")).toHaveCount(0);
  await expect(proposal.locator("[data-nl-chip=sentence_custody_months]")).toContainText("≥ 61");
  const expected = await apiTotal(page, { jurisdiction: ["PL"], appellant: ["offender"], sentence_kind: ["custody"], sentence_custody_months: { min: 61 } });
  await expect(page.getByTestId("nl-count")).toHaveAttribute("data-count", String(expected), { timeout: 60_000 });

  // Dropping a chip re-counts the proposal.
  await proposal.getByRole("button", { name: /Remove filter Sentence kind/ }).click();
  const wider = await apiTotal(page, { jurisdiction: ["PL"], appellant: ["offender"], sentence_custody_months: { min: 61 } });
  await expect(page.getByTestId("nl-count")).toHaveAttribute("data-count", String(wider));
});
