import { expect, test } from "playwright/test";
import { PLANTED_JUDGE } from "../../supabase/seed/planted-lines";
import { ensureE2ECorpus } from "./support/corpus";
import { signUpViaApi } from "./support/users";

test.beforeAll(async ({ baseURL }) => {
  test.setTimeout(300_000); // seeding and indexing the corpus, once per worker
  await ensureE2ECorpus(baseURL!);
});

// Journey (judge fingerprint, reasoning lines): find the planted judge, read her strongest style with the
// phrases and judgments behind it, then open the reasoning-lines page.
test("a researcher finds a judge's reasoning style with its evidence, then opens reasoning lines", async ({ page }) => {
  test.setTimeout(60_000);
  await signUpViaApi(page, "judges");
  await page.goto("/judges");
  await expect(page.getByRole("heading", { level: 1, name: "Judges" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Analysis" }).getByRole("link", { name: "Judges" })).toHaveAttribute("aria-current", "page");

  // The form refuses a one-letter query with the API's own rule, without calling it.
  await page.getByLabel("Judge's name").fill("k");
  await page.getByRole("button", { name: "Find" }).click();
  await expect(page.locator("#judge-q-error")).not.toBeEmpty();

  await page.getByLabel("Judge's name").fill("kropiwnicka");
  await page.keyboard.press("Enter");
  await page.getByRole("button", { name: PLANTED_JUDGE.name }).click();

  const profile = page.getByTestId("judge-profile");
  await expect(profile.getByRole("heading", { name: `Profile: ${PLANTED_JUDGE.name}` })).toBeVisible({ timeout: 30_000 });
  await expect(profile.locator("tr[data-style=teleological] td")).toHaveText("100");
  await expect(profile.locator("figure svg.recharts-surface").first()).toBeVisible();
  const evidence = profile.locator("[data-evidence-style=teleological]").first();
  await expect(evidence).toContainText("Teleological");
  await expect(evidence.getByRole("link").first()).toHaveAttribute("href", /^\/documents\//);

  await page.getByRole("navigation", { name: "Analysis" }).getByRole("link", { name: "Reasoning lines" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Reasoning lines" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "How the lines follow each other" })).toBeVisible();
  // A signed-in non-admin sees no admin controls.
  await expect(page.getByRole("heading", { name: "Administration" })).toHaveCount(0);
});
