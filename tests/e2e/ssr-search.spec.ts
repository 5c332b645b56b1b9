import { expect, test, type APIRequestContext } from "playwright/test";
import { ensureE2ECorpus } from "./support/corpus";
import { signUpViaApi } from "./support/users";

test.beforeAll(async ({ baseURL }) => {
  test.setTimeout(300_000); // seeding and indexing the corpus, once per worker
  await ensureE2ECorpus(baseURL!);
});

/** The ids of a keyword search's first page (10 hits), asked of the API by a signed-in user (not metered). */
async function firstPageIds(request: APIRequestContext, q: string): Promise<string[]> {
  const res = await request.get(`/api/search/documents?q=${encodeURIComponent(q)}&semantic_ratio=0&limit=10&offset=0`);
  expect(res.status(), await res.text()).toBe(200);
  const body = (await res.json()) as { hits: { id: string }[] };
  expect(body.hits.length).toBeGreaterThan(0);
  return body.hits.map((h) => h.id);
}

// Issue 20 item 1: the first page of results is in the server's HTML, and a guest's page load is charged once.
test("the first page of /search is in the server HTML; a guest's page load is metered exactly once", async ({ page, playwright, baseURL }) => {
  await signUpViaApi(page, "ssr");
  const ids = await firstPageIds(page.request, "appeal");

  // A guest's plain GET of the page (no JavaScript at all): the result links are in the HTML.
  const guestRequest = await playwright.request.newContext({ baseURL });
  try {
    const res = await guestRequest.get("/search?q=appeal");
    expect(res.status()).toBe(200);
    const html = await res.text();
    expect(html).toContain('data-testid="result-count"');
    for (const id of ids) expect(html).toContain(`href="/documents/${encodeURIComponent(id)}"`);
    // The page minted the guest session and charged it: the cookie came with the page, and the API's next answer
    // for this session says 3 left (5 - the page - this call).
    const cookie = (await guestRequest.storageState()).cookies.find((c) => c.name === "guest_session_id");
    expect(cookie?.httpOnly).toBe(true);
    const api = await guestRequest.get("/api/search/documents?q=sentence");
    expect(api.status()).toBe(200);
    expect(api.headers()["x-guest-searches-remaining"]).toBe("3");
  } finally {
    await guestRequest.dispose();
  }
});

test("a guest loading /search?q= sees the results without the client searching, and the allowance drops by one", async ({ browser }) => {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const searches: string[] = [];
    page.on("request", (r) => {
      if (new URL(r.url()).pathname === "/api/search/documents") searches.push(r.url());
    });
    await page.goto("/search?q=appeal");
    await expect(page.getByTestId("result-count")).toBeVisible();
    await expect(page.getByTestId("guest-counter")).toContainText("4 of 5");
    // Hydrated: the form works and the page did not ask the API for what the server rendered.
    await expect(page.getByRole("combobox", { name: "Search query" })).toHaveValue("appeal");
    await page.waitForLoadState("networkidle");
    expect(searches).toEqual([]);
    // The next search is the client's (the URL changes without a server render) and is charged as usual.
    await page.getByRole("combobox", { name: "Search query" }).fill("sentence");
    await page.getByRole("button", { name: "Search", exact: true }).last().click();
    await expect(page).toHaveURL(/q=sentence/);
    await expect(page.getByTestId("guest-counter")).toContainText("3 of 5");
    expect(searches).toHaveLength(1);
  } finally {
    await context.close();
  }
});

// Streamed Suspense content arrives in a hidden container that an inline script moves into place, so the check is on
// the HTML itself (what a crawler or a no-JavaScript reader receives), not on visibility without JavaScript.
test("the first page of /search/extractions is in the server HTML of a signed-in visitor", async ({ page }) => {
  await signUpViaApi(page, "ssr-extr");
  const res = await page.request.get("/search/extractions");
  expect(res.status()).toBe(200);
  const html = await res.text();
  expect(html).toContain('data-testid="result-link"');
  expect(html).toMatch(/href="\/documents\/[^"]+"/);
});
