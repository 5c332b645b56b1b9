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

// The first page of results is in the server's HTML, and a guest's page load is charged once.
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
    // Each result link carries the query, so the judgment opens with it marked.
    for (const id of ids) expect(html).toContain(`href="/documents/${encodeURIComponent(id)}?q=appeal"`);
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

// The first page is rendered into the first HTML, outside any streamed <Suspense> block (which would arrive hidden and
// need a script to be shown): a browser without JavaScript sees the results, the cohort and the judgment text.
test("with JavaScript disabled, /search, /search/extractions and a judgment show their first page", async ({ browser, page }) => {
  await signUpViaApi(page, "ssr-nojs");
  const ids = await firstPageIds(page.request, "appeal");
  const state = await page.context().storageState();
  const context = await browser.newContext({ javaScriptEnabled: false, storageState: state });
  try {
    const nojs = await context.newPage();
    await nojs.goto("/search?q=appeal");
    await expect(nojs.getByTestId("result-count")).toBeVisible();
    await expect(nojs.locator(`section[aria-labelledby=results-h] a[href="/documents/${ids[0]}?q=appeal"]`)).toBeVisible();

    await nojs.goto("/search/extractions");
    await expect(nojs.getByTestId("result-link").first()).toBeVisible();
    await expect(nojs.getByTestId("cohort-total")).not.toBeEmpty();

    // The judgment page: its full text and table of contents come with the page, not from a request after hydration.
    const api = await nojs.request.get(`/api/documents/${ids[0]}/html`);
    expect(api.status()).toBe(200);
    const { html } = (await api.json()) as { html: string };
    const paragraphs = html.match(/<p>/g)?.length ?? 0;
    const headings = html.match(/<h[1-4]>/g)?.length ?? 0;
    expect(paragraphs).toBeGreaterThan(0);
    await nojs.goto(`/documents/${ids[0]}`);
    const fullText = nojs.locator("section[aria-labelledby=full-text-h] .prose-judgment");
    await expect(fullText).toBeVisible();
    await expect(fullText.locator("p")).toHaveCount(paragraphs);
    await expect(fullText.locator("h1, h2, h3, h4")).toHaveCount(headings);
    if (headings > 0) await expect(nojs.locator('nav[aria-labelledby=toc-h] a[href^="#sec-"]').first()).toBeVisible();
  } finally {
    await context.close();
  }
});
