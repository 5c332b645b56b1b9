import { describe, expect, it } from "vitest";
import { pathDecodes } from "@/server/app/path-check";

/** The app server's check before Next (server/app/path-check.ts): which request targets go on, which are refused (400). */
describe("pathDecodes", () => {
  it.each([
    "/",
    "/api/collections/00000000-0000-4000-8000-000000000000",
    "/api/blog/posts/%C5%BC%C3%B3%C5%82w",
    "/api/x%2Fy%20z",
    "/api/search/documents?q=%ZZ", // the query is not judged here
    "/api/search/documents#%ZZ",
    "http://example.org/api/health/status",
    "*",
  ])("%s goes on to Next", (target) => {
    expect(pathDecodes(target)).toBe(true);
  });

  it.each([
    "/api/collections/%E0%A4%A", // truncated
    "/api/blog/posts/%ZZ", // not hex
    "/documents/%", // a lone %
    "/api/collections/%ED%A0%80", // a lone surrogate, not UTF-8
    "/api/x/%C0%AF", // an overlong encoding
    "/api/x/%FF",
    "/api/blog/posts/%00", // decodes, to a NUL
    "/api/collections/a%00b",
    "http://example.org/api/blog/posts/%ZZ?q=1", // absolute form
  ])("%s is refused", (target) => {
    expect(pathDecodes(target)).toBe(false);
  });
});
