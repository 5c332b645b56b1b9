import { expect, test, type Page } from "playwright/test";
import { PASSWORD, signUpViaApi, uniqueEmail } from "./support/users";

/**
 * A signed-in non-admin is refused /admin with the 403 page; an admin opens the overview and
 * /admin/users, finds that user and grants the admin role. Admins are made through the Auth admin API of the test
 * stack's gateway (as `npm run user:create -- --admin` does).
 */

function stack(): { supabaseUrl: string; serviceRoleKey: string } {
  const raw = process.env.TEST_STACK_ENV;
  if (!raw) throw new Error("TEST_STACK_ENV is not set: run the journeys through `npm test` (tests/run-all.ts)");
  const env = JSON.parse(raw) as { supabaseUrl?: string; serviceRoleKey?: string };
  if (!env.supabaseUrl || !env.serviceRoleKey) throw new Error("the test stack has no gateway");
  return { supabaseUrl: env.supabaseUrl, serviceRoleKey: env.serviceRoleKey };
}

async function createAdmin(): Promise<string> {
  const { supabaseUrl, serviceRoleKey } = stack();
  const email = uniqueEmail("admin");
  const res = await fetch(`${supabaseUrl}/auth/v1/admin/users`, {
    method: "POST",
    headers: { apikey: serviceRoleKey, authorization: `Bearer ${serviceRoleKey}`, "content-type": "application/json" },
    body: JSON.stringify({ email, password: PASSWORD, email_confirm: true, app_metadata: { role: "admin" } }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return email;
}

async function signIn(page: Page, email: string) {
  const res = await page.request.post("/api/auth/sign-in", { data: { email, password: PASSWORD } });
  expect(res.status(), await res.text()).toBe(200);
}

test("a user is refused /admin; an admin opens the panel and grants that user the admin role", async ({ page }) => {
  const userEmail = await signUpViaApi(page, "plain");
  const refused = await page.goto("/admin");
  // A real 403, not a 200 page that says so.
  expect(refused?.status()).toBe(403);
  await expect(page.getByTestId("admin-forbidden")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("403");
  await expect(page.getByRole("navigation", { name: "Administration" })).toHaveCount(0);

  await page.context().clearCookies();
  await signIn(page, await createAdmin());
  expect((await page.goto("/admin"))?.status()).toBe(200);
  await expect(page.getByRole("navigation", { name: "Administration" })).toBeVisible();
  await expect(page.getByTestId("admin-stats")).toContainText("Judgments");

  await page.getByRole("link", { name: "Users", exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/users$/);
  await page.getByLabel("E-mail contains").fill(userEmail);
  const row = page.locator(`tr[data-email="${userEmail}"]`);
  await expect(row).toBeVisible();
  await expect(row).toContainText("user");
  await row.getByRole("button", { name: "Grant admin" }).click();
  await expect(page.getByRole("status")).toContainText(`${userEmail} is now admin`);
  await expect(row.getByRole("button", { name: "Revoke admin" })).toBeVisible();
  await page.screenshot({ path: "test-results/screenshots/admin-users-1280.png" });

  // The grant is in the audit log on /admin/activity.
  await page.getByRole("link", { name: "Activity", exact: true }).click();
  await expect(page.getByTestId("admin-audit")).toContainText("user.grant_admin");
});
