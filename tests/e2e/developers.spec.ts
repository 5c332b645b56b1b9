import { expect, test } from "playwright/test";
import { PASSWORD, uniqueEmail } from "./support/users";

// /developers renders every operation of the OpenAPI document with our own viewer (each expandable, each with its
// own "Try it"), and its "try it" box sends
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
  // The reference lists every operation of the served document, and each one opens.
  const served = (await (await page.request.get("/api/v1/openapi.json")).json()) as { paths: Record<string, Record<string, unknown>> };
  const expected = Object.entries(served.paths).flatMap(([p, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${p}`));
  const reference = page.getByTestId("api-reference");
  await expect(reference.getByTestId("api-op")).toHaveCount(expected.length, { timeout: 20_000 });
  expect((await reference.getByTestId("api-op").evaluateAll((els) => els.map((e) => e.getAttribute("data-op")))).sort()).toEqual([...expected].sort());
  await reference.getByRole("button", { name: "Expand all" }).click();
  await expect(reference.getByTestId("api-op-panel")).toHaveCount(expected.length);
  await reference.getByRole("button", { name: "Collapse all" }).click();
  await expect(reference.getByTestId("api-op-panel")).toHaveCount(0);

  // One operation, opened from the keyboard: its parameters and answers, then "Try it" with the key.
  const list = reference.locator('[data-op="GET /api/v1/documents"]');
  const header = list.getByRole("button", { name: /GET\s*\/api\/v1\/documents\s*List judgments/ });
  await header.focus();
  await page.keyboard.press("Enter");
  await expect(header).toHaveAttribute("aria-expanded", "true");
  const panel = list.getByTestId("api-op-panel");
  await expect(panel.getByRole("columnheader", { name: "Name" })).toBeVisible();
  await expect(panel.getByRole("cell", { name: /^limit/ })).toBeVisible();
  await expect(panel.getByText("401", { exact: true })).toBeVisible();
  await panel.getByRole("button", { name: "Send request" }).click();
  await expect(panel.getByRole("alert")).toContainText("Paste an API key first.");
  await reference.getByLabel("Your API key (used for “Try it” below)").fill(key);
  await panel.getByRole("button", { name: "Send request" }).click();
  await expect(panel.getByTestId("api-op-status")).toHaveText("200");
  await expect(panel.getByTestId("api-op-answer")).toContainText('"per_page": 5');
  const listed = (await (await page.request.get("/api/v1/documents?limit=5", { headers: { "X-API-Key": key } })).json()) as { results: { id: string }[] };
  expect(listed.results.length).toBeGreaterThan(0);
  await expect(panel.getByTestId("api-op-answer")).toContainText(listed.results[0]!.id);

  // A POST operation with a body: the example body is sent as is and answered.
  const search = reference.locator('[data-op="POST /api/v1/documents/search"]');
  await search.getByRole("button", { name: /POST\s*\/api\/v1\/documents\/search/ }).click();
  await expect(search.getByTestId("api-op-panel").getByText("query", { exact: true })).toBeVisible();
  await search.getByRole("button", { name: "Send request" }).click();
  await expect(search.getByTestId("api-op-status")).toHaveText("200");
  await expect(search.getByTestId("api-op-answer")).toContainText('"search_metadata"');

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
