import { expect, test } from "playwright/test";
import { ensureE2ECorpus } from "./support/corpus";
import { signUpViaApi } from "./support/users";

test.beforeAll(async ({ baseURL }) => {
  test.setTimeout(300_000); // seeding and indexing the corpus, once per worker
  await ensureE2ECorpus(baseURL!);
});

// Journey (no model configured: extractive answers): a signed-in researcher asks the chat a question, watches
// the answer stream in with its mode label, sees the sources, and opens one on the judgment page.
test("a researcher asks the chat, the answer streams with sources, and a source opens the judgment", async ({ page }) => {
  test.setTimeout(180_000);
  await signUpViaApi(page, "chat");
  await page.goto("/chat");
  await expect(page.getByRole("heading", { name: "Chat", exact: true })).toBeVisible();
  await expect(page.getByText("No conversations yet.")).toBeVisible();

  // Count the stream's token events as they arrive in the page (the fetch reader sees them one by one).
  const question = "When is a sentence for robbery reduced on appeal?";
  await page.getByLabel("Your question").fill(question);
  const response = page.waitForResponse((r) => r.url().endsWith("/api/chat") && r.request().method() === "POST");
  await page.getByTestId("chat-send").click();
  const res = await response;
  expect(res.headers()["content-type"]).toMatch(/^text\/event-stream/);

  const answer = page.getByTestId("chat-answer");
  await expect(answer).toContainText("Extractive answer", { timeout: 60_000 });
  await expect(page.getByTestId("chat-mode")).toHaveText("Extractive answer (no language model configured)", { timeout: 60_000 });
  const body = await res.text();
  const tokens = body.split("\n\n").filter((b) => b.startsWith('data: {"type":"token"'));
  expect(tokens.length).toBeGreaterThan(5);
  // Every token's text is in the answer shown, in order.
  const shown = (await answer.textContent()) ?? "";
  const streamed = tokens.map((b) => (JSON.parse(b.slice(6)) as { content: string }).content).join("");
  expect(shown.replace(/\s+/g, " ").trim()).toBe(streamed.replace(/\s+/g, " ").trim());

  // Sources appear; the thread is listed; a source opens its judgment.
  const links = page.getByTestId("chat-sources").getByTestId("chat-source-link");
  await expect(links.first()).toBeVisible();
  await expect(page.getByTestId("chat-threads")).toContainText(question);
  const href = (await links.first().getAttribute("href")) ?? "";
  expect(href).toMatch(/^\/documents\/[0-9a-f-]{36}(#:~:text=.+)?$/);
  await links.first().click();
  await expect(page).toHaveURL(/\/documents\/[0-9a-f-]{36}/, { timeout: 60_000 });
  await expect(page.locator("h1").first()).toBeVisible({ timeout: 60_000 });
});
