import { expect, test } from "playwright/test";
import { DEFAULT_CORPUS_SEED, generateJudgment } from "../../supabase/seed/generate";
import { ensureE2ECorpus } from "./support/corpus";
import { signUpViaApi } from "./support/users";

test.beforeAll(async ({ baseURL }) => {
  test.setTimeout(300_000); // seeding and indexing the corpus, once per worker
  await ensureE2ECorpus(baseURL!);
});

// Journey (no model): on a judgment page, the assistant panel summarises it, lists its key points,
// analyses its arguments, finds precedents (opening one) and shows its versions; every answer carries its mode label.
test("a researcher summarises a judgment, reads its key points and arguments, and opens a precedent", async ({ page }) => {
  test.setTimeout(120_000);
  await signUpViaApi(page, "tools");
  const doc = generateJudgment(DEFAULT_CORPUS_SEED, 3);
  await page.goto(`/documents/${doc.id}`);
  const panel = page.getByTestId("assistant-panel");
  await expect(panel.getByRole("heading", { name: "Assistant tools" })).toBeVisible();

  await panel.getByLabel("Length").selectOption("short");
  await panel.getByRole("button", { name: "Summarise" }).click();
  const summary = panel.getByTestId("summary-result");
  await expect(summary.getByTestId("assistant-mode")).toHaveAttribute("data-mode", "extractive", { timeout: 30_000 });
  await expect(summary).toContainText("TextRank");
  await expect(summary.locator("p").last()).not.toBeEmpty();

  await panel.getByRole("button", { name: "Key points" }).click();
  await panel.getByRole("button", { name: "Show key points" }).click();
  await expect(panel.getByTestId("key-points-result").getByRole("listitem").first()).toBeVisible({ timeout: 30_000 });

  await panel.getByRole("button", { name: "Arguments", exact: true }).click();
  await panel.getByRole("button", { name: "Analyse arguments" }).click();
  const args = panel.getByTestId("argumentation-result");
  await expect(args.getByTestId("assistant-mode")).toHaveAttribute("data-mode", "rules", { timeout: 30_000 });
  await expect(args).toContainText("Overall");

  await panel.getByRole("button", { name: "Versions" }).click();
  await expect(panel.getByTestId("versions-result")).toBeVisible();

  await panel.getByRole("button", { name: "Precedents" }).click();
  const question = panel.getByLabel(/What should the precedents be about/);
  await question.fill("zabójstwo nożem zamiar ewentualny");
  await panel.getByRole("button", { name: "Find precedents" }).click();
  const results = panel.getByTestId("precedents-result");
  await expect(results.getByTestId("assistant-mode")).toHaveAttribute("data-mode", "rules", { timeout: 30_000 });
  const first = results.getByRole("link").first();
  const href = await first.getAttribute("href");
  expect(href).toMatch(/^\/documents\//);
  expect(href).not.toBe(`/documents/${doc.id}`);
  await first.click();
  await expect(page).toHaveURL(new RegExp(`${href}$`));
  await expect(page.getByTestId("assistant-panel")).toBeVisible();
});
