import { readFileSync } from "node:fs";
import { expect, test } from "playwright/test";
import { signUpViaApi } from "./support/users";

// Create a schema, run it over a collection from /schemas, watch progress reach 100 % on the job's
// page (the stack's real worker on pg-boss), and download the CSV.
test("a researcher runs a schema over a collection and downloads the CSV", async ({ page }) => {
  test.setTimeout(180_000);
  await signUpViaApi(page, "extraction-jobs");
  const made = await page.request.post("/api/collections/from-filter", { data: { name: "Polish appeals", filters: { jurisdiction: ["PL"] } } });
  expect(made.status(), await made.text()).toBeLessThan(300);

  await page.goto("/schemas");
  await page.getByRole("button", { name: "New schema" }).click();
  await page.getByLabel("Name", { exact: true }).fill("Case numbers");
  const field = page.getByTestId("schema-field").nth(0);
  await field.getByLabel("Field name (snake_case)").fill("case_number");
  await field.getByLabel("Type").selectOption("string");
  await page.getByRole("button", { name: "Create schema" }).click();
  await expect(page.getByText("Saved as version 1.")).toBeVisible();

  await page.getByRole("button", { name: "Run extraction" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Collections").selectOption({ label: "Polish appeals" });
  await dialog.getByRole("button", { name: "Start" }).click();
  await page.waitForURL(/\/extractions\/jobs\/[0-9a-f-]{36}$/);

  await expect(page.getByTestId("job-mode")).toHaveText("rules (no model)");
  await expect(page.getByTestId("job-percent")).toHaveText("100 %", { timeout: 150_000 });
  await expect(page.getByText("Completed", { exact: true })).toBeVisible();

  // The export menu, by keyboard: open it, move to CSV (the first item), download.
  await page.getByRole("button", { name: "Export" }).focus();
  await page.keyboard.press("ArrowDown");
  await expect(page.getByRole("menuitem", { name: "Download CSV" })).toBeFocused();
  const [download] = await Promise.all([page.waitForEvent("download"), page.keyboard.press("Enter")]);
  const csv = readFileSync(await download.path(), "utf8").replace(/^\uFEFF/, "");
  const lines = csv.trimEnd().split("\r\n");
  expect(lines[0]).toBe("document_id,case_number,status,error,field:case_number");
  expect(lines.length).toBeGreaterThan(1);
  expect(lines.slice(1).every((l) => l.split(",")[2] === "completed")).toBe(true);

  await page.goto("/extractions/jobs");
  await expect(page.getByRole("link", { name: /Open job/ })).toHaveCount(1);
});
