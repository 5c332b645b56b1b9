import { expect, test } from "playwright/test";
import { PLANTED_JUDGE } from "../../supabase/seed/planted-lines";
import { ensureE2ECorpus } from "./support/corpus";
import { signUpViaApi } from "./support/users";

test.beforeAll(async ({ baseURL }) => {
  test.setTimeout(300_000); // seeding and indexing the corpus, once per worker
  await ensureE2ECorpus(baseURL!);
});

// Journey (judge fingerprint, reasoning lines): find the planted judge, open her profile at its own address and read
// her distinctive style against the court level (with the baseline named and the phrases and judgments behind it),
// compare her with another judge at a shareable address, then open the reasoning-lines page.
test("a researcher finds a judge's reasoning style with its evidence, then opens reasoning lines", async ({ page, baseURL }) => {
  test.setTimeout(120_000);
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
  await page.getByRole("link", { name: PLANTED_JUDGE.name }).click();

  // The profile has its own address (the name URL-encoded) and is rendered from it.
  await expect(page).toHaveURL(new RegExp(`/judges/${encodeURIComponent(PLANTED_JUDGE.name)}$`), { timeout: 30_000 });
  const profile = page.getByTestId("judge-profile");
  await expect(profile.getByRole("heading", { name: `Profile: ${PLANTED_JUDGE.name}` })).toBeVisible({ timeout: 30_000 });
  // Scores are measured against her court level, which the page names; purpose stands out above it.
  await expect(profile.getByTestId("judge-baseline")).toContainText("Sąd Apelacyjny");
  await expect(profile.locator("tr[data-style=teleological]")).toHaveAttribute("data-lean", "above");
  await expect(profile.locator("tr[data-style=teleological] td[data-z]")).toContainText("more than the court");
  await expect(profile.locator("figure svg.recharts-surface").first()).toBeVisible();
  const evidence = profile.locator("[data-evidence-style=teleological]").first();
  await expect(evidence).toContainText("Teleological");
  await expect(evidence.getByRole("link").first()).toHaveAttribute("href", /^\/documents\//);

  // A reload of the address gives the same profile (bookmarkable), in Polish too.
  await page.context().addCookies([{ name: "locale", value: "pl", url: baseURL! }]);
  await page.reload();
  await expect(profile.getByRole("heading", { name: `Profil: ${PLANTED_JUDGE.name}` })).toBeVisible({ timeout: 30_000 });
  await expect(profile.locator("tr[data-style=teleological] td[data-z]")).toContainText("częściej niż sądy tego szczebla");
  await page.context().addCookies([{ name: "locale", value: "en", url: baseURL! }]);

  // Compare: pick her and another judge on /judges; the comparison has its own address with both names.
  await page.goto("/judges");
  // The results list carries the same accessible name as the field: the field is the textbox.
  const nameBox = page.getByRole("textbox", { name: "Judge's name" });
  await nameBox.fill("kropiwnicka");
  await page.keyboard.press("Enter");
  await page.getByRole("listitem").filter({ hasText: PLANTED_JUDGE.name }).getByRole("button", { name: "Add to comparison" }).click();
  await nameBox.fill("Lord Justice");
  await page.keyboard.press("Enter");
  const other = page.getByRole("listitem").filter({ hasText: "Lord Justice" }).first();
  const otherName = (await other.getByRole("link").first().textContent())!.trim();
  await other.getByRole("button", { name: "Add to comparison" }).click();
  await page.getByRole("link", { name: "Compare side by side" }).click();
  await expect(page).toHaveURL(/\/judges\/compare\?j=.+&j=.+/, { timeout: 30_000 });
  expect(new URL(page.url()).searchParams.getAll("j")).toEqual([PLANTED_JUDGE.name, otherName]);
  const cards = page.getByTestId("judge-comparison").getByTestId("judge-profile");
  await expect(cards).toHaveCount(2, { timeout: 30_000 });
  for (const card of [cards.nth(0), cards.nth(1)]) await expect(card.getByTestId("judge-baseline")).toBeVisible();
  // Each card links to the judge's own profile.
  await expect(cards.nth(1).getByRole("link", { name: `Profile: ${otherName}` })).toHaveAttribute("href", `/judges/${encodeURIComponent(otherName)}`);

  // A comparison address without two names explains itself; an unknown judge is a proper not-found page.
  await page.goto("/judges/compare");
  await expect(page.getByText("Pick 2 or 3 judges on the Judges page")).toBeVisible();
  const missing = await page.goto(`/judges/${encodeURIComponent("Nobody Nowhere-Known")}`);
  expect(missing?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  const missingPair = await page.goto(`/judges/compare?j=${encodeURIComponent(PLANTED_JUDGE.name)}&j=${encodeURIComponent("Nobody Nowhere-Known")}`);
  expect(missingPair?.status()).toBe(404);

  await page.goto("/judges");
  await page.getByRole("navigation", { name: "Analysis" }).getByRole("link", { name: "Reasoning lines" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Reasoning lines" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "How the lines follow each other" })).toBeVisible();
  // A signed-in non-admin sees no admin controls.
  await expect(page.getByRole("heading", { name: "Administration" })).toHaveCount(0);
});
