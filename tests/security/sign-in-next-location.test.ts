import { describe, expect, it } from "vitest";
import { signedInBrowser } from "../helpers/http";

/**
 * A signed-in visitor of /sign-in or /sign-up is redirected to `?next=`. A `next` with a character past Latin-1
 * (/ż, an ideographic space) put the raw character into Location and the page answered 500; it is now percent-encoded
 * (UTF-8), and anything that cannot be a same-site path still goes to /search.
 */
const CASES: [next: string, location: string][] = [
  ["/%C5%BC", "/%C5%BC"],
  ["/%E3%80%80/x", "/%E3%80%80/x"],
  ["/search%3Fq%3Drozb%C3%B3j", "/search?q=rozb%C3%B3j"],
  ["%2F%2Fevil.example", "/search"],
];

describe("sign-in and sign-up redirect a signed-in visitor to a valid Location", () => {
  for (const page of ["/sign-in", "/sign-up"]) {
    it(`${page}?next=… answers a redirect, never 500`, async () => {
      const { browser } = await signedInBrowser();
      for (const [next, location] of CASES) {
        const res = await browser.get(`${page}?next=${next}`);
        expect([next, res.status]).toEqual([next, 307]);
        const target = new URL(res.headers.get("location") ?? "", browser.baseUrl);
        expect(`${target.pathname}${target.search}`, next).toBe(location);
      }
    }, 120_000);
  }
});
