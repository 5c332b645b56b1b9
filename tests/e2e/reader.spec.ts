import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "playwright/test";
import { ensureE2ECorpus } from "./support/corpus";
import { createAdminUser, signUpViaApi } from "./support/users";

test.beforeAll(async ({ baseURL }) => {
  test.setTimeout(300_000); // seeding and indexing the corpus, once per worker
  await ensureE2ECorpus(baseURL!);
});

/** Search as a visitor would and open the first result (its link carries the query). */
async function openFirstResult(page: Page, q: string): Promise<void> {
  await page.goto(`/search?q=${encodeURIComponent(q)}`);
  const first = page.locator("section#results ol > li h3 a").first();
  await expect(first).toHaveAttribute("href", new RegExp(`\\?q=${encodeURIComponent(q)}$`));
  // Followed by address, not by a click that could land before hydration (the link is what is under test).
  await page.goto((await first.getAttribute("href")) as string);
  await expect(page).toHaveURL(/\/documents\/[^?]+\?q=/);
}

test("search → open a result: the query is marked in the full text, with n / p and the find box", async ({ page }) => {
  test.setTimeout(180_000);
  await openFirstResult(page, "appeal");
  const status = page.getByTestId("find-status");
  await expect(status).toHaveText(/^1 of \d+$/);
  const total = Number((await status.textContent())?.split(" of ")[1]);
  const marks = page.locator("[data-testid=full-text] mark[data-find-mark]");
  await expect(marks).toHaveCount(total);
  await expect(marks.first()).toHaveAttribute("data-find-active", "");
  // Every mark is the query's word (folded), never another word.
  for (const text of await marks.allTextContents()) expect(text.toLowerCase()).toMatch(/^appeal/);
  if (total > 1) {
    await page.keyboard.press("n");
    await expect(status).toHaveText(`2 of ${total}`);
    await expect(marks.nth(1)).toHaveAttribute("data-find-active", "");
    await page.keyboard.press("p");
    await expect(status).toHaveText(`1 of ${total}`);
  }
  await page.getByRole("button", { name: "Previous match (p)" }).click();
  await expect(status).toHaveText(`${total} of ${total}`);
  // The find box: another word, Enter steps through its matches; nothing found says so.
  const box = page.getByRole("searchbox", { name: "Find in this judgment" });
  await box.fill("COURT");
  await expect(status).toHaveText(/^1 of \d+$|^No matches$/);
  await box.fill("zzzqqq");
  await expect(status).toHaveText("No matches");
  await expect(marks).toHaveCount(0);
});

test("keyboard only: from the search box to the first result in three Tabs", async ({ page }) => {
  await page.goto("/search");
  const box = page.getByRole("combobox", { name: "Search query" });
  await box.focus();
  await page.keyboard.type("sentence");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("result-count")).toBeVisible();
  await box.focus();
  await page.keyboard.press("Tab");
  await expect(page.getByTestId("skip-to-results")).toBeFocused();
  await expect(page.getByTestId("skip-to-results")).toBeVisible();
  await page.keyboard.press("Enter");
  await page.keyboard.press("Tab");
  const first = page.locator("section#results ol > li h3 a").first();
  await expect(first).toBeFocused();
  // The focus ring is painted: a 3 px outline on a block-level link.
  const outline = await first.evaluate((el) => getComputedStyle(el).outlineWidth);
  expect(parseFloat(outline)).toBeGreaterThanOrEqual(2);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/documents\//);
});

test("at 375 px the signed-in navigation is a menu (Escape closes it) and no page overflows", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await signUpViaApi(page, "reader-375");
  for (const path of ["/", "/search?q=appeal", "/chat", "/collections", "/settings", "/search/extractions"]) {
    await page.goto(path);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width, path).toBeLessThanOrEqual(375);
  }
  await page.goto("/search");
  const button = page.getByTestId("nav-menu-button");
  await expect(button).toBeVisible();
  await expect(page.getByTestId("nav-row")).toBeHidden();
  await button.focus();
  await page.keyboard.press("Enter");
  await expect(button).toHaveAttribute("aria-expanded", "true");
  const settings = page.getByTestId("nav-menu").getByRole("link", { name: "Settings" });
  await expect(settings).toBeVisible();
  await page.keyboard.press("Tab");
  await page.keyboard.press("Escape");
  await expect(button).toHaveAttribute("aria-expanded", "false");
  await expect(button).toBeFocused();
  await expect(settings).toBeHidden();
  await button.click();
  await settings.click();
  await expect(page).toHaveURL(/\/settings/);
  await expect(page.getByTestId("nav-menu-button")).toHaveAttribute("aria-expanded", "false");
});

test("axe: no serious or critical violations on the main pages", async ({ page }) => {
  test.setTimeout(180_000);
  await signUpViaApi(page, "reader-axe");
  await page.goto("/search?q=appeal");
  const doc = await page.locator("section#results ol > li h3 a").first().getAttribute("href");
  const pages = ["/", "/search?q=appeal", doc as string, "/search/extractions", "/collections", "/chat", "/settings"];
  for (const path of pages) {
    await page.goto(path);
    await page.waitForLoadState("networkidle");
    const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]).analyze();
    const bad = violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
    expect(bad, path).toEqual([]);
  }
  // The admin dashboard, as an admin.
  const admin = await createAdminUser("reader-axe-admin");
  await page.request.post("/api/auth/sign-out");
  expect((await page.request.post("/api/auth/sign-in", { data: { email: admin.email, password: admin.password } })).status()).toBe(200);
  await page.goto("/admin");
  await page.waitForLoadState("networkidle");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]).analyze();
  const bad = violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  expect(bad, "/admin").toEqual([]);
});
