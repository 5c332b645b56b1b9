import { expect, test } from "playwright/test";
import { PASSWORD, uniqueEmail } from "./support/users";

// Sign up, sign in, see the signed-in header, sign out.
test("a visitor signs up, signs out, signs in and sees the signed-in header", async ({ page }) => {
  const email = uniqueEmail("auth");

  await page.goto("/sign-up");
  await expect(page).toHaveTitle(/Create an account/);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByTestId("signed-in")).toContainText(email);

  await page.getByTestId("sign-out").click();
  await expect(page.getByTestId("signed-out")).toBeVisible();
  expect((await page.request.get("/api/auth/me").then((r) => r.json())).user).toBeNull();

  await page.goto("/sign-in");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Sign in" }).last().click();
  await expect(page.getByRole("alert").first()).toContainText("not right");

  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).last().click();
  await expect(page.getByTestId("signed-in")).toContainText(email);
  expect((await page.request.get("/api/auth/me").then((r) => r.json())).user.email).toBe(email);
  await page.screenshot({ path: "test-results/screenshots/signed-in-1280.png" });

  await page.getByTestId("sign-out").click();
  await expect(page.getByTestId("signed-out")).toBeVisible();
});

test("a protected page sends a signed-out visitor to sign-in and back after signing in", async ({ page }) => {
  const email = uniqueEmail("next");
  await page.request.post("/api/auth/sign-up", { data: { email, password: PASSWORD } });
  await page.request.post("/api/auth/sign-out", { headers: { "content-type": "application/json" } });
  await page.goto("/collections");
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fcollections/);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).last().click();
  await expect(page).toHaveURL(/\/collections$/);
  await expect(page.getByRole("heading", { name: "Collections", level: 1 })).toBeVisible();
});
