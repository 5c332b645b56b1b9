import { expect, test, type Page } from "playwright/test";
import { ensureE2ECorpus } from "./support/corpus";
import { signUpViaApi } from "./support/users";

/**
 * No code reaches a reader: the main pages, signed in, show no snake_case token (`outcome_dismissed_or_refused`,
 * `what_ancilliary_orders`) in any visible text, the charts' axis labels included, and the chart labels fit their axis
 * at 1280 and 375 px. The one allowlist: code samples (`<code>`, `<pre>`) on /developers, which document the API's
 * own field names on purpose.
 */

const SNAKE = /\b[a-z]+(_[a-z0-9]+)+\b/g;

test.beforeAll(async ({ baseURL }) => {
  test.setTimeout(300_000); // seeding and indexing the corpus, once per worker
  await ensureE2ECorpus(baseURL!);
});

/** Every snake_case token in the page's visible text (text nodes of rendered elements, SVG text included). */
async function snakeTokens(page: Page, opts: { skipCode?: boolean } = {}): Promise<string[]> {
  const texts = await page.evaluate((skipCode) => {
    const out: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = n.textContent?.trim();
      const el = n.parentElement;
      if (!text || !el) continue;
      if (el.closest("script, style, noscript, template, title")) continue;
      if (skipCode && el.closest("code, pre")) continue;
      // Visually hidden text (sr-only) is still read out, so it counts; only what is not rendered at all is skipped.
      if (!el.checkVisibility({ visibilityProperty: true }) && !el.closest(".sr-only")) continue;
      out.push(`${text}`);
    }
    return out;
  }, opts.skipCode ?? false);
  const found = new Set<string>();
  for (const t of texts) for (const m of t.matchAll(SNAKE)) found.add(`${m[0]}  ←  "${t.slice(0, 80)}"`);
  return [...found];
}

async function firstDocumentId(page: Page): Promise<string> {
  const res = await page.request.post("/api/extractions/base-schema/filter", { data: { filters: {}, limit: 1 } });
  expect(res.status()).toBe(200);
  const body = (await res.json()) as { results: { id: string }[] };
  expect(body.results.length).toBeGreaterThan(0);
  return body.results[0].id;
}

/** The category chart ticks stay inside their chart: nothing is clipped at the left edge. */
async function ticksFit(page: Page): Promise<void> {
  const charts = page.locator("[data-chart] figure svg");
  await expect(charts.first()).toBeVisible({ timeout: 30_000 });
  const overflow = await page.evaluate(() => {
    const bad: string[] = [];
    for (const svg of document.querySelectorAll<SVGSVGElement>("[data-chart] figure svg")) {
      const box = svg.getBoundingClientRect();
      for (const text of svg.querySelectorAll<SVGTextElement>(".recharts-cartesian-axis-tick text, .recharts-yAxis text")) {
        const r = text.getBoundingClientRect();
        if (r.width === 0) continue;
        if (r.left < box.left - 1 || r.right > box.right + 1) bad.push(text.textContent ?? "");
      }
    }
    return bad;
  });
  expect(overflow).toEqual([]);
}

test("the detector finds a code in visible text, also in SVG and visually hidden text, and skips what is not rendered", async ({ page }) => {
  await page.setContent(`<main><p>Outcome: outcome_dismissed_or_refused</p><svg><text>what_ancilliary_orders</text></svg>
    <span class="sr-only" style="position:absolute;width:1px;height:1px;overflow:hidden">base_keywords</span>
    <p style="display:none">hidden_code</p><pre>code_sample</pre></main>`);
  const found = (await snakeTokens(page)).map((f) => f.split(" ")[0]);
  expect(found).toEqual(["outcome_dismissed_or_refused", "what_ancilliary_orders", "base_keywords", "code_sample"]);
  expect((await snakeTokens(page, { skipCode: true })).map((f) => f.split(" ")[0])).not.toContain("code_sample");
});

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 375, height: 812 },
]) {
  test(`the extraction page at ${viewport.width} px: charts and filters speak in labels, and chart labels fit`, async ({ page }) => {
    test.setTimeout(180_000);
    await page.setViewportSize(viewport);
    await signUpViaApi(page, `snake-${viewport.width}`);
    await page.goto("/search/extractions");
    await expect(page.locator("[data-chart]").first()).toBeVisible();
    await ticksFit(page);
    expect(await snakeTokens(page)).toEqual([]);

    // A quick filter's value list, and the drawer with every group open.
    await page.locator('[data-quick="convict_offences"]').click();
    await expect(page.getByRole("dialog").or(page.locator("[data-radix-popper-content-wrapper]")).first()).toBeVisible();
    expect(await snakeTokens(page)).toEqual([]);
    await page.keyboard.press("Escape");
    await page.getByTestId("open-filters").click();
    const drawer = page.getByRole("dialog", { name: "Filters" });
    await expect(drawer).toBeVisible();
    // Open every group (the accordion keeps the others open); the locator re-resolves after each click.
    const closed = drawer.locator("[data-group] button[aria-expanded=false]");
    for (let guard = 0; guard < 20 && (await closed.count()) > 0; guard++) await closed.first().click();
    await expect(drawer.locator('[data-field="appeal_outcome"] li').first()).toBeVisible();
    expect(await snakeTokens(page)).toEqual([]);
  });
}

test("the main pages show no snake_case code, signed in", async ({ page }) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await signUpViaApi(page, "snake-pages");
  const doc = await firstDocumentId(page);
  const pages = ["/", "/search?q=robbery", `/documents/${doc}`, "/judges", "/dashboard", "/collections", "/saved", "/extractions/jobs", "/schemas", "/settings"];
  const leaks: Record<string, string[]> = {};
  for (const path of pages) {
    const res = await page.goto(path);
    expect.soft(res?.status(), path).toBeLessThan(400);
    await page.waitForLoadState("networkidle");
    const found = await snakeTokens(page);
    if (found.length) leaks[path] = found;
  }
  // Code samples on /developers name the API's fields on purpose; everything else there is prose.
  await page.goto("/developers");
  await page.waitForLoadState("networkidle");
  const dev = await snakeTokens(page, { skipCode: true });
  if (dev.length) leaks["/developers"] = dev;
  expect(leaks).toEqual({});
});

test("a Poland-only cohort's offence list is counted in that cohort", async ({ page }) => {
  test.setTimeout(180_000);
  await signUpViaApi(page, "facets");
  await page.goto("/search/extractions");
  await page.locator('[data-quick="jurisdiction"]').click();
  const jurisdiction = page.getByRole("dialog", { name: "Jurisdiction" });
  await jurisdiction.getByRole("checkbox", { name: /Poland/ }).check();
  await jurisdiction.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/[?&]f=/);

  await page.locator('[data-quick="convict_offences"]').click();
  const offences = page.getByRole("dialog", { name: "Offences convicted of" });
  await expect(offences.locator("li[data-count]").first()).toBeVisible();
  const shown = await offences.locator("li[data-count]").evaluateAll((lis) => lis.map((li) => ({ value: li.getAttribute("data-value"), count: Number(li.getAttribute("data-count")) })));
  const api = await page.request.get(`/api/extractions/base-schema/facets?field=convict_offences&limit=20&filters=${encodeURIComponent(JSON.stringify({ jurisdiction: ["PL"] }))}`);
  expect(api.status()).toBe(200);
  const expected = ((await api.json()) as { values: { value: string; count: number }[] }).values;
  expect(expected.length).toBeGreaterThan(0);
  expect(shown).toEqual(expected);
  // The whole corpus's list differs (it holds UK offences), so the page did not show it.
  const whole = await page.request.get("/api/extractions/base-schema/facets?field=convict_offences&limit=20");
  expect(((await whole.json()) as { values: unknown[] }).values).not.toEqual(expected);
});
