import { expect, test } from "playwright/test";
import { ensureE2ECorpus } from "./support/corpus";
import { screenshotBoth } from "./support/screens";

test.beforeAll(async ({ baseURL }) => {
  test.setTimeout(300_000); // seeding and indexing the corpus, once per worker
  await ensureE2ECorpus(baseURL!);
});

// A guest searches five times and meets the limit dialog on the sixth.
test("a guest searches five times, is nudged, then meets the limit dialog", async ({ page }) => {
  const queries = ["appeal", "sentence", "court", "offence", "judgment", "conviction"];
  await page.goto("/search");
  await expect(page).toHaveTitle(/Search judgments/);
  // Guests search by keyword only, and are told why.
  await expect(page.getByRole("radio", { name: "Semantic" })).toBeDisabled();

  for (let i = 0; i < 5; i++) {
    await page.getByRole("combobox", { name: "Search query" }).fill(queries[i]);
    await page.getByRole("button", { name: "Search", exact: true }).last().click();
    await expect(page).toHaveURL(new RegExp(`q=${queries[i]}`));
    await expect(page.getByTestId("guest-counter")).toContainText(`${4 - i} of 5`);
    if (i === 0) {
      await expect(page.getByTestId("result-count")).toBeVisible();
      await expect(page.locator("section[aria-labelledby=results-h] mark").first()).toBeVisible();
      await screenshotBoth(page, "search");
    }
    if (4 - i === 2) await expect(page.getByText("Only 2 searches left")).toBeVisible();
  }

  await page.getByRole("combobox", { name: "Search query" }).fill(queries[5]);
  await page.getByRole("button", { name: "Search", exact: true }).last().click();
  const dialog = page.getByRole("dialog", { name: "You have used today’s guest searches" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("link", { name: "Create an account" })).toBeVisible();
  await page.screenshot({ path: "test-results/screenshots/guest-limit-1280.png" });
});
