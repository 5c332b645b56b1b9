import { expect, test } from "playwright/test";
import { createAdminUser, signUpViaApi } from "./support/users";

// An admin writes and publishes a post, a guest reads it on /blog, a signed-in user is
// refused the admin page, and a guest sends the contact form.
test("an admin publishes a post, a guest reads it, a user is refused, a guest writes in", async ({ page, browser }) => {
  const title = `Sentencing appeals in 2024 ${Date.now().toString(36)}`;
  const admin = await createAdminUser("content-admin");
  const signIn = await page.request.post("/api/auth/sign-in", { data: admin });
  expect(signIn.status()).toBe(200);

  await page.goto("/admin/blog");
  await expect(page.getByRole("heading", { name: "Blog posts", level: 1 })).toBeVisible();
  await page.getByRole("button", { name: "New post" }).click();
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Excerpt").fill("What changed in the appellate courts this year.");
  await page
    .getByLabel("Body (Markdown)")
    .fill("## Findings\n\n- fewer appeals *allowed*\n- [the corpus](/about)\n\n<b id=\"raw\">raw html</b>\n\n| court | n |\n|---|---|\n| Kraków | 12 |");
  // The live preview renders Markdown (a heading, a GFM table) and drops raw HTML.
  const preview = page.getByTestId("post-preview");
  await expect(preview.getByRole("heading", { name: "Findings" })).toBeVisible();
  await expect(preview.getByRole("cell", { name: "Kraków" })).toBeVisible();
  await expect(preview.locator("#raw")).toHaveCount(0);
  await page.getByRole("button", { name: "Publish", exact: true }).last().click();
  await expect(page.getByText("Saved.")).toBeVisible();
  await expect(page.getByTestId("admin-posts").getByRole("row", { name: new RegExp(title) })).toContainText("Published");
  // The table filters and sorts (components/ui/data-table.tsx): the filter leaves the header and this post; a header
  // sorts from the keyboard and says so with aria-sort.
  const posts = page.getByTestId("admin-posts");
  await page.getByLabel("Filter these rows").fill(title);
  await expect(posts.getByRole("row")).toHaveCount(2);
  await page.getByLabel("Filter these rows").fill("");
  const byTitle = posts.getByRole("columnheader", { name: "Title" });
  await expect(byTitle).toHaveAttribute("aria-sort", "none");
  await byTitle.getByRole("button").focus();
  await page.keyboard.press("Enter");
  await expect(byTitle).toHaveAttribute("aria-sort", "ascending");

  // A guest (a fresh browser context: no session) finds the post on /blog and reads it.
  const guest = await browser.newContext();
  const g = await guest.newPage();
  await g.goto("/blog");
  await g.getByRole("link", { name: title }).click();
  await expect(g.getByRole("heading", { name: title, level: 1 })).toBeVisible();
  await expect(g.getByRole("heading", { name: "Findings", level: 2 })).toBeVisible();
  await expect(g.getByTestId("reading-time")).toContainText("min read");
  await expect(g.locator("#raw")).toHaveCount(0);

  // A signed-in user who is not an admin is refused the admin page (and its API).
  const other = await browser.newContext();
  const u = await other.newPage();
  await signUpViaApi(u, "content-user");
  // The admin area's layout answers a signed-in non-admin with HTTP 403 and the 403 page (forbidden(), app/forbidden.tsx).
  expect((await u.goto("/admin/blog"))?.status()).toBe(403);
  await expect(u.getByTestId("admin-forbidden")).toBeVisible();
  expect((await u.request.get("/api/blog/admin/posts")).status()).toBe(403);
  await other.close();

  // The guest sends the contact form: the browser validates with the API's schema first.
  await g.goto("/contact");
  await g.getByLabel("Your name").fill("Anna Nowak");
  await g.getByLabel("E-mail").fill("anna@example.org");
  const subject = `Gdańsk ${Date.now().toString(36)}`;
  await g.getByLabel("Subject (optional)").fill(subject);
  await g.getByLabel("Message").fill("Too short");
  await g.getByRole("button", { name: "Send message" }).click();
  await expect(g.locator("#contact-message-error")).toBeVisible();
  await g.getByLabel("Message").fill("Could you add judgments of the Court of Appeal in Gdańsk from 2024?");
  await g.getByRole("button", { name: "Send message" }).click();
  await expect(g.getByText("your message has reached us")).toBeVisible();
  await guest.close();

  // The admin finds it among the new contact messages (the panel's table) and marks it read.
  await page.goto("/admin/messages");
  const row = page.getByTestId("admin-messages").getByRole("row", { name: new RegExp(subject) });
  await expect(row).toContainText("Anna Nowak");
  await row.getByRole("button", { name: `Mark read: ${subject}` }).click();
  await expect(page.getByTestId("admin-messages").getByRole("row", { name: new RegExp(subject) })).toHaveCount(0);
});
