import AxeBuilder from "@axe-core/playwright";
import { readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { expect, test, type Page } from "playwright/test";
import { ensureE2ECorpus } from "./support/corpus";
import { createAdminUser } from "./support/users";

/**
 * An admin uploads a real SAOS sample on /admin/imports with the keyboard, follows the run to its summary (read 1,
 * inserted 1), opens its details, and then finds the judgment by its case number on the search page. The page is axe
 * clean before and after the upload. The sample runs under an id of this journey's own (the importer suites import
 * and delete the sample's own id).
 */

const FIX = path.join(process.cwd(), "tests/fixtures/real-formats");
const SAOS_ID = `${910_000_000 + (process.pid % 100_000)}`;
const SAOS_ITEM = readFileSync(path.join(FIX, "saos/dump-item-205374.constitutional-tribunal.json"), "utf8").replace(/"id": 205374,/, `"id": ${SAOS_ID},`);

function pool(): pg.Pool {
  const { databaseUrl } = JSON.parse(process.env.TEST_STACK_ENV ?? "{}") as { databaseUrl: string };
  return new pg.Pool({ connectionString: databaseUrl, max: 1 });
}

async function cleanup() {
  const p = pool();
  try {
    await p.query("delete from public.judgments where source = 'saos' and source_id = $1", [SAOS_ID]);
  } finally {
    await p.end();
  }
}

test.beforeAll(async ({ baseURL }) => {
  test.setTimeout(300_000);
  await ensureE2ECorpus(baseURL!);
  await cleanup();
});
test.afterAll(cleanup);

async function axeClean(page: Page, label: string): Promise<void> {
  await page.waitForLoadState("networkidle");
  const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]).analyze();
  const bad = violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  expect(bad, label).toEqual([]);
}

test("an admin uploads a SAOS file, sees the run and its counts, then finds the judgment by case number", async ({ page }) => {
  test.setTimeout(180_000);
  const admin = await createAdminUser("imports");
  const signIn = await page.request.post("/api/auth/sign-in", { data: { email: admin.email, password: admin.password } });
  expect(signIn.status(), await signIn.text()).toBe(200);

  await page.goto("/admin/imports");
  await expect(page.getByRole("heading", { name: "Imports", level: 1 })).toBeVisible();
  await expect(page.getByRole("link", { name: "Imports" })).toHaveAttribute("aria-current", "page");
  await axeClean(page, "imports page");

  // The Find Case Law licence note shows when that source is chosen.
  const source = page.getByLabel("Source");
  await source.selectOption("fcl");
  await expect(page.getByText("Find Case Law licence")).toBeVisible();
  await source.selectOption("saos");
  await expect(page.getByText("Find Case Law licence")).toHaveCount(0);

  // Nothing chosen: the form says so, nothing is sent.
  await page.getByRole("button", { name: "Upload and import" }).click();
  await expect(page.getByText("Choose a file first.")).toBeVisible();

  await page.getByLabel("File").setInputFiles({ name: "saos-dump-item.json", mimeType: "application/json", buffer: Buffer.from(SAOS_ITEM) });
  // Keyboard only: focus the button and press Enter.
  await page.getByRole("button", { name: "Upload and import" }).focus();
  await page.keyboard.press("Enter");

  const current = page.getByTestId("import-current");
  await expect(current.locator("[data-status]").first()).toHaveAttribute("data-status", "succeeded", { timeout: 90_000 });
  await expect(current.locator('[data-count="read"]')).toHaveText("1");
  await expect(current.locator('[data-count="inserted"]')).toHaveText("1");
  await expect(current.locator('[data-count="rejected"]')).toHaveText("0");

  const runs = page.getByTestId("import-runs");
  const row = runs.locator('tr[data-status="succeeded"]', { hasText: "saos-dump-item.json" }).first();
  await expect(row).toBeVisible({ timeout: 10_000 });
  await row.getByRole("button", { name: /Details/ }).click();
  const details = page.getByTestId("import-details");
  await expect(details.getByText("No record was rejected.")).toBeVisible();
  await axeClean(page, "imports page after the upload");

  // Searchable: the worker's closing sync put it in the index the app reads.
  await expect(async () => {
    await page.goto(`/search?q=${encodeURIComponent('"U 3/86"')}`);
    await expect(page.locator("section[aria-labelledby=results-h]")).toContainText("U 3/86", { timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
});
