/**
 * `?next=` as a Location header value: a signed-in visitor of /sign-in?next=/%C5%BC was redirected with the raw "ż"
 * in Location, which Node refuses (500). safeNext percent-encodes what is past printable ASCII and keeps the rest.
 */
import { describe, expect, it } from "vitest";
import { safeNext } from "@/lib/client/safe-next";

/** What Node's http layer accepts in a header value (it throws ERR_INVALID_CHAR otherwise). */
const headerSafe = (v: string) => /^[\u0021-\u007e]*$/.test(v);

describe("safeNext: non-ASCII destinations become a valid Location", () => {
  it("percent-encodes non-Latin-1 and other non-ASCII characters as UTF-8", () => {
    expect(safeNext("/ż")).toBe("/%C5%BC");
    expect(safeNext("/\u3000/x")).toBe("/%E3%80%80/x");
    expect(safeNext("/search?q=rozbój z bronią")).toBe("/search?q=rozb%C3%B3j%20z%20broni%C4%85");
    for (const next of ["/ż", "/\u3000/x", "/é?a=ü#ß", "/documents/a b"]) expect(headerSafe(safeNext(next)), next).toBe(true);
  });

  it("keeps escapes already present and plain paths unchanged", () => {
    expect(safeNext("/%C5%BC")).toBe("/%C5%BC");
    expect(safeNext("/collections?x=1&y=%20")).toBe("/collections?x=1&y=%20");
  });

  it("falls back for text that cannot be encoded or is not a same-site path", () => {
    expect(safeNext("/\ud800")).toBe("/search");
    expect(safeNext("/a\u007fb")).toBe("/search");
    expect(safeNext("/\u00a0/evil")).toBe("/%C2%A0/evil");
    expect(safeNext("//evil.example")).toBe("/search");
  });
});
