import { expect, test } from "playwright/test";
import { PASSWORD, uniqueEmail } from "./support/users";

// /developers renders the OpenAPI document with a locally served renderer, and its "try it" box sends
// a request with the reader's own key (made in settings through the same route the settings tab uses).
test("a researcher reads the API reference and tries a request with their key", async ({ page }) => {
  const email = uniqueEmail("dev");
  expect((await page.request.post("/api/auth/sign-up", { data: { email, password: PASSWORD } })).status()).toBe(201);
  const made = await page.request.post("/api/settings/api-keys", { data: { name: "e2e" } });
  expect(made.status()).toBe(201);
  const { key } = (await made.json()) as { key: string };

  // Nothing from a CDN: every script and stylesheet the page loads comes from this app.
  const origin = new URL(made.url()).origin;
  const foreign: string[] = [];
  page.on("request", (r) => {
    if (new URL(r.url()).origin !== origin && !r.url().startsWith("data:")) foreign.push(r.url());
  });
  await page.goto("/developers");
  await expect(page.getByRole("heading", { name: "API for developers", level: 1 })).toBeVisible();
  await expect(page.getByTestId("api-reference").getByText("/api/v1/documents/search").first()).toBeVisible({ timeout: 20_000 });

  const box = page.getByTestId("try-it");
  await box.getByLabel("Endpoint").selectOption({ label: "GET /api/v1/documents" });
  await box.getByRole("button", { name: "Send" }).click();
  await expect(box.getByRole("alert")).toContainText("Paste an API key first.");
  await box.getByLabel("Your API key").fill(key);
  await box.getByRole("button", { name: "Send" }).click();
  await expect(box.getByTestId("try-it-status")).toHaveText("200");
  await expect(box.getByTestId("try-it-answer")).toContainText('"per_page": 5');

  // The schema list answers as the key's user: the built-in base schema first, then their own (none yet).
  await box.getByLabel("Endpoint").selectOption({ label: "GET /api/v1/schemas" });
  await box.getByRole("button", { name: "Send" }).click();
  await expect(box.getByTestId("try-it-status")).toHaveText("200");
  await expect(box.getByTestId("try-it-answer")).toContainText('"id": "base"');
  await expect(box.getByTestId("try-it-answer")).toContainText('"total": 1');
  expect(foreign).toEqual([]);
});
