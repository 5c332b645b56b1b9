import { expect, test } from "playwright/test";
import { signUpViaApi } from "./support/users";

// Create a schema in the field editor (an enum field, a reorder), edit it into version 2, see
// the history, compare version 1 with the current one, roll back, and find version 3 equal to version 1.
test("a researcher builds a schema, edits it, compares versions and rolls back", async ({ page }) => {
  test.setTimeout(60_000);
  await signUpViaApi(page, "schemas");
  await page.goto("/schemas");
  await expect(page.getByRole("heading", { name: "Extraction schemas" })).toBeVisible();
  await expect(page.getByText("You have no schemas yet.")).toBeVisible();
  // The built-in base schema is listed (read-only) even before the user has one of their own.
  await expect(page.getByRole("navigation", { name: "Your schemas" }).getByText("Base schema (built in)")).toBeVisible();

  await page.getByRole("button", { name: "New schema" }).click();
  await page.getByLabel("Name", { exact: true }).fill("Sentencing");
  const fields = page.getByTestId("schema-field");
  await fields.nth(0).getByLabel("Field name (snake_case)").fill("sentence_years");
  await fields.nth(0).getByLabel("Type").selectOption("number");
  await page.getByRole("button", { name: "Add field" }).click();
  await fields.nth(1).getByLabel("Field name (snake_case)").fill("outcome");
  await fields.nth(1).getByLabel("Type").selectOption("enum");
  await fields.nth(1).getByLabel("Allowed values (comma-separated)").fill("dismissed, allowed");
  // The form refuses what the API would refuse, before sending anything.
  await fields.nth(1).getByLabel("Field name (snake_case)").fill("Outcome");
  await page.getByRole("button", { name: "Create schema" }).click();
  await expect(page.getByText("Fix these first:")).toBeVisible();
  // The problem names the row and the field by their labels, never the request path.
  await expect(page.getByText("Field 2 – Name: use lower-case letters, digits and single underscores", { exact: false })).toBeVisible();
  await fields.nth(1).getByLabel("Field name (snake_case)").fill("outcome");
  await page.getByRole("button", { name: "Move outcome up" }).click();
  await page.getByRole("button", { name: "Create schema" }).click();
  await expect(page.getByText("Saved as version 1.")).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Your schemas" }).getByText("Sentencing")).toBeVisible();

  // Version 2: a required boolean field added.
  await page.getByRole("button", { name: "Add field" }).click();
  await page.getByTestId("schema-field").nth(2).getByLabel("Field name (snake_case)").fill("in_custody");
  await page.getByTestId("schema-field").nth(2).getByLabel("Type").selectOption("boolean");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByTestId("schema-version")).toHaveCount(2);

  await page.getByTestId("schema-version").filter({ hasText: "version 1" }).getByRole("button", { name: "Compare with current" }).click();
  const diff = page.getByTestId("schema-diff");
  await expect(diff).toContainText("From version 1 to version 2");
  await expect(diff).toContainText("in_custody (boolean)");

  await page.getByTestId("schema-version").filter({ hasText: "version 1" }).getByRole("button", { name: "Roll back to this version" }).click();
  await expect(page.getByTestId("schema-version")).toHaveCount(3);
  await expect(page.getByTestId("schema-version").first()).toContainText("rollback to version 1");
  await expect(page.getByTestId("schema-field")).toHaveCount(2);
  await expect(page.getByTestId("schema-field").nth(0).getByLabel("Field name (snake_case)")).toHaveValue("outcome");

  const api = await page.request.get("/api/schemas");
  const list = (await api.json()) as { schemas: { id: string; name: string; version: number }[] };
  // The built-in base schema comes first in every list; the user's own follow.
  expect(list.schemas).toEqual([expect.objectContaining({ id: "base", name: "Base schema" }), expect.objectContaining({ name: "Sentencing", version: 3 })]);
});
