import type { Page } from "playwright/test";

/** Full-page screenshots at 1280 and 375 px wide, kept as artifacts under test-results/screenshots/. */
export async function screenshotBoth(page: Page, name: string): Promise<void> {
  const original = page.viewportSize() ?? { width: 1280, height: 900 };
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForTimeout(300); // let charts re-measure their container
    await page.screenshot({ path: `test-results/screenshots/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize(original);
}
