import { expect, test } from "playwright/test";
import { signUpViaApi } from "./support/users";

// Without a model: the schema editor says which fields need one and takes a rule; the run dialog names the fields
// rules cannot fill and offers "Run anyway"; the job page shows them as "needs a model", the per-field counts, and a
// job with nothing filled as "Completed, nothing filled" with the reason.
test("a custom field without a rule is named before the run and shown as needing a model after it", async ({ page }) => {
  test.setTimeout(180_000);
  await signUpViaApi(page, "extraction-honesty");
  const made = await page.request.post("/api/collections/from-filter", { data: { name: "Polish appeals", filters: { jurisdiction: ["PL"] } } });
  expect(made.status(), await made.text()).toBeLessThan(300);

  await page.goto("/schemas");
  await page.getByRole("button", { name: "New schema" }).click();
  await page.getByLabel("Name", { exact: true }).fill("Motives");
  const first = page.getByTestId("schema-field").nth(0);
  await first.getByLabel("Field name (snake_case)").fill("motive");
  await expect(first.getByText("Needs a model", { exact: true })).toBeVisible();
  // A rule makes a field fillable without a model; a second field keeps none.
  await page.getByRole("button", { name: "Add field" }).click();
  const second = page.getByTestId("schema-field").nth(1);
  await second.getByLabel("Field name (snake_case)").fill("weapon");
  await second.getByLabel("Rule for extraction without a model").selectOption("keywords");
  await second.getByLabel("Keywords or phrases (comma-separated)").fill("zzqx-never-in-a-judgment");
  await expect(second.getByText("Rules can fill it", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Create schema" }).click();
  await expect(page.getByText("Saved as version 1.")).toBeVisible();

  await page.getByRole("button", { name: "Run extraction" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Collections").selectOption({ label: "Polish appeals" });
  await dialog.getByRole("button", { name: "Start" }).click();
  await expect(dialog.getByText("Some fields need a language model")).toBeVisible();
  await expect(dialog.getByTestId("run-needs-model")).toContainText("Motive");
  await expect(dialog.getByTestId("run-needs-model")).not.toContainText("Weapon");
  await dialog.getByRole("button", { name: "Run anyway" }).click();
  await page.waitForURL(/\/extractions\/jobs\/[0-9a-f-]{36}$/);

  await expect(page.getByTestId("job-percent")).toHaveText("100 %", { timeout: 150_000 });
  await expect(page.getByText("Completed, nothing filled", { exact: true })).toBeVisible();
  // The reason is built from the results' per-field declaration, a second request (its route may still be compiling
  // under `next dev`), so it gets the longer wait.
  await expect(page.getByTestId("job-empty-reason")).toHaveText("The rules found no value for: Weapon. Only a language model can fill: Motive.", { timeout: 60_000 });
  const counts = page.getByTestId("field-counts");
  const motive = counts.locator('tr[data-field="motive"]');
  await expect(motive.locator("td").nth(0)).toHaveText("0");
  await expect(motive.locator("td").nth(1)).toHaveText("0");
  expect(Number((await motive.locator("td").nth(2).textContent())?.replace(/\D/g, ""))).toBeGreaterThan(0);
  await expect(page.getByRole("cell", { name: "needs a model" }).first()).toBeVisible();
});
