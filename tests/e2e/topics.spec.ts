import { expect, test } from "playwright/test";
import pg from "pg";
import { TopicsFileStore } from "@/lib/search/lancedb/topics-store";
import { ensureE2ECorpus } from "./support/corpus";
import { screenshotBoth } from "./support/screens";
import { createAdminUser } from "./support/users";

test.beforeAll(async ({ baseURL }) => {
  test.setTimeout(300_000); // seeding and indexing the corpus, once per worker
  await ensureE2ECorpus(baseURL!);
});

test.afterAll(async () => {
  // Leave no run behind: the other journeys expect autocomplete's mined topics, not this run's.
  const env = JSON.parse(process.env.TEST_STACK_ENV ?? "{}") as { databaseUrl?: string; searchDataDir?: string };
  if (env.databaseUrl) {
    const pool = new pg.Pool({ connectionString: env.databaseUrl, max: 1 });
    await pool.query("delete from public.search_topics_runs where params->>'seed' = '4242'");
    await pool.end();
  }
  if (env.searchDataDir) await new TopicsFileStore(env.searchDataDir).replace(null);
});

// The run form refuses a bad value in the browser, a run draws topic cards with keyword and trend
// charts, a card leads to /search with its keywords, and a guest sees the run's topics as trending on the landing page.
// The runner is an admin: only an admin's run (or the default run) becomes the public trending topics (P-83); a
// researcher's run is theirs only.
test("an admin runs topic modelling, opens a topic in search, and guests see trending topics", async ({ page, browser }) => {
  test.setTimeout(60_000);
  const admin = await createAdminUser("topics");
  const signIn = await page.request.post("/api/auth/sign-in", { data: admin });
  expect(signIn.status()).toBe(200);
  await page.goto("/topics");
  await expect(page.getByRole("heading", { level: 1, name: "Topics" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Analysis" }).getByRole("link", { name: "Topics" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByText("Mode: deterministic (no language model)")).toBeVisible();

  // Validated with the API's own ranges before anything is sent.
  await page.getByLabel("Sample size").fill("10");
  await page.getByRole("button", { name: "Run analysis" }).click();
  await expect(page.getByLabel("Sample size")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("Check the highlighted fields.")).toBeVisible();

  await page.getByLabel("Sample size").fill("100");
  await page.getByLabel("Topics", { exact: true }).fill("4");
  await page.getByLabel("Seed").fill("4242");
  await page.getByRole("button", { name: "Run analysis" }).click();
  const cards = page.getByTestId("topic-card");
  await expect(cards).toHaveCount(4, { timeout: 30_000 });
  await expect(page.getByTestId("topic-result")).toContainText("4 topics from 100 of");
  await expect(cards.first().locator("svg.recharts-surface").first()).toBeVisible();
  await expect(cards.first().locator(".recharts-line")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Your runs" })).toBeVisible();
  await screenshotBoth(page, "topics");

  const link = cards.first().getByRole("link", { name: /Search these keywords/ });
  const href = await link.getAttribute("href");
  expect(href).toMatch(/^\/search\?q=/);
  await link.click();
  await expect(page).toHaveURL(/\/search\?q=/);

  // A guest: the landing page lists the run's topics as trending; one opens the search.
  const guest = await browser.newContext();
  const g = await guest.newPage();
  await g.goto("/");
  await expect(g.getByRole("heading", { name: "Explore trending topics" })).toBeVisible();
  const chips = g.getByTestId("trending-topics").getByRole("link");
  await expect(chips).toHaveCount(4, { timeout: 15_000 });
  await chips.first().click();
  await expect(g).toHaveURL(/\/search\?q=/);
  await guest.close();
});
