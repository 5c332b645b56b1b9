import { defineConfig, devices } from "playwright/test";
import { chromiumLaunchOptions } from "./tests/helpers/chromium";

/**
 * Playwright drives Debian's Chromium (never a downloaded browser). The app under test is started by
 * `tests/run-all.ts` (or `npm start`) and named by APP_URL.
 */

export default defineConfig({
  testDir: "tests/e2e",
  outputDir: "test-results/playwright",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [["list"]],
  use: {
    baseURL: process.env.APP_URL ?? "http://127.0.0.1:3000",
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: chromiumLaunchOptions,
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], channel: undefined } }],
});
