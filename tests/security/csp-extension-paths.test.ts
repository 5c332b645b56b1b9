import { describe, expect, it } from "vitest";
import { Browser, signedInBrowser } from "../helpers/http";

/**
 * Every page answer carries the page Content-Security-Policy, whatever its path ends in. The middleware matcher used
 * to skip any path ending in .png, .svg, .ico, .woff2 (…), so /collections/x.png or /admin/x.svg (a 404 page or a
 * sign-in redirect rendered by the app) went out without a CSP. Only the build's static files are left out, and they
 * still load.
 */
const PATHS = ["/collections/x.png", "/admin/x.svg", "/search/x.ico", "/documents/x.woff2", "/x.jpg", "/favicon.ico", "/fonts/x.woff2"];

function expectPageCsp(res: Response, path: string): void {
  const csp = res.headers.get("content-security-policy") ?? "";
  expect(csp, path).toContain("frame-ancestors 'none'");
  expect(csp, path).toMatch(/script-src [^;]*'nonce-[^']+'/);
}

describe("CSP on paths that end in a file extension", () => {
  it("anonymous visitor: every such path is answered with the page CSP", async () => {
    const anon = new Browser();
    for (const path of PATHS) expectPageCsp(await anon.get(path), path);
  }, 120_000);

  it("signed-in visitor: every such path is answered with the page CSP", async () => {
    const { browser } = await signedInBrowser();
    for (const path of PATHS) expectPageCsp(await browser.get(path), path);
  }, 120_000);

  it("the build's scripts and stylesheets a page links still load", async () => {
    const anon = new Browser();
    const html = await (await anon.get("/")).text();
    const files = [...new Set([...html.matchAll(/(?:src|href)="(\/_next\/static\/[^"]+)"/g)].map((m) => m[1]))];
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const res = await anon.get(file);
      expect([file, res.status]).toEqual([file, 200]);
      expect(res.headers.get("content-type"), file).toMatch(/javascript|css|font|image/);
    }
  }, 120_000);
});
