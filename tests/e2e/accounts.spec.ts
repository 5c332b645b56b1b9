import { createClient } from "@supabase/supabase-js";
import pg from "pg";
import { expect, test } from "playwright/test";
import { realtimeOptions, serverAuthOptions } from "@/lib/supabase/options";
import { ensureE2ECorpus } from "./support/corpus";
import { PASSWORD, uniqueEmail } from "./support/users";

test.beforeAll(async ({ baseURL }) => {
  test.setTimeout(300_000); // seeding and indexing the corpus, once per worker
  await ensureE2ECorpus(baseURL!);
});

function stack(): { databaseUrl: string; supabaseUrl: string; serviceRoleKey: string } {
  return JSON.parse(process.env.TEST_STACK_ENV ?? "{}");
}

// A guest searches, signs up (the guest session ends: a new account starts clean), saves the search,
// finds it on /saved, turns its alert on, opens it (the page state comes back exactly); an admin runs the digest and
// reads the mail at /admin/mail.
test("a researcher saves a search, turns on its alert, and the digest arrives at /admin/mail", async ({ page, browser }) => {
  test.setTimeout(120_000);
  // 1. A guest search leaves a guest session cookie; signing up in the same browser ends it.
  await page.goto("/search?q=robbery");
  await expect(page.getByTestId("guest-counter")).toBeVisible();
  expect((await page.context().cookies()).some((c) => c.name === "guest_session_id")).toBe(true);
  const email = uniqueEmail("accounts");
  await page.goto("/sign-up");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByTestId("signed-in")).toContainText(email);
  expect((await page.context().cookies()).some((c) => c.name === "guest_session_id")).toBe(false);

  // 2. Save a search from /search: the name is prefilled from the query.
  const searchUrl = "/search?q=robbery&jurisdiction=UK";
  await page.goto(searchUrl);
  await expect(page.getByTestId("result-count")).toBeVisible();
  await page.waitForLoadState("networkidle");
  // The dialog's code is not in the page's first scripts (P-77): reaching the button fetches it.
  const lateScripts: string[] = [];
  page.on("request", (r) => {
    if (r.resourceType() === "script") lateScripts.push(r.url());
  });
  const saveButton = page.getByTestId("save-search");
  await saveButton.click();
  const dialog = page.getByRole("dialog", { name: "Save this search" });
  await expect(dialog).toBeVisible();
  expect(lateScripts.length).toBeGreaterThan(0);
  // Closing unmounts it, and focus goes back to the button that opened it.
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(saveButton).toBeFocused();
  await saveButton.click();
  await expect(dialog.getByLabel("Name")).toHaveValue("robbery");
  await dialog.getByLabel("Name").fill("UK robbery");
  await dialog.getByLabel("Folder (optional)").fill("Robbery");
  await dialog.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();

  // 3. /saved: the folder and the search; turn its alert on; open it and get the same page state.
  await page.goto("/saved");
  const item = page.getByTestId("saved-item").filter({ hasText: "UK robbery" });
  await expect(item).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Folders" })).toContainText("Robbery");
  const alert = item.getByRole("checkbox", { name: "Alert: UK robbery" });
  await alert.check();
  await expect(alert).toBeChecked();
  await item.getByRole("button", { name: "Run" }).click();
  await expect(item.getByTestId("run-result")).toContainText("current results");
  await item.getByRole("link", { name: "Open" }).click();
  await expect(page).toHaveURL(new RegExp(`${searchUrl.replace(/[?]/g, "\\?")}$`));
  await expect(page.getByRole("checkbox", { name: "United Kingdom" })).toBeChecked();

  // 4. Judgments "added since the last digest": the alert's watermark goes back before the corpus was loaded.
  const s = stack();
  const pool = new pg.Pool({ connectionString: s.databaseUrl, max: 1 });
  await pool.query(
    "update public.saved_searches set last_digest_at = '2000-01-01' from auth.users u where u.id = saved_searches.user_id and u.email = $1",
    [email],
  );
  await pool.end();

  // 5. An admin runs the digest (the admin route: the scheduled job on demand) and reads the mail at /admin/mail.
  const adminEmail = uniqueEmail("accounts-admin");
  const service = createClient(s.supabaseUrl, s.serviceRoleKey, { auth: serverAuthOptions, realtime: realtimeOptions });
  const made = await service.auth.admin.createUser({ email: adminEmail, password: PASSWORD, email_confirm: true, app_metadata: { role: "admin" } });
  expect(made.error).toBeNull();
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  expect((await admin.request.post("/api/auth/sign-in", { data: { email: adminEmail, password: PASSWORD } })).status()).toBe(200);
  const run = await admin.request.post("/api/admin/alerts/run", { data: { frequencies: ["daily", "weekly"] } });
  expect(run.status(), await run.text()).toBe(200);
  const report = (await run.json()) as { details: { email: string; status: string }[] };
  expect(report.details.find((d) => d.email === email)?.status).toBe("sent");

  await admin.goto("/admin/mail");
  const message = admin.getByTestId("mail-message").filter({ hasText: email }).first();
  await expect(message).toContainText("new judgments for your saved searches");
  await message.locator("summary").click();
  await expect(message.locator("pre")).toContainText("== UK robbery");
  await expect(message.locator("pre")).toContainText("/documents/");
  await expect(message.locator("pre")).toContainText("/unsubscribe?token=");
  await adminContext.close();
});
