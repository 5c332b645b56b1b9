/**
 * The judgment page renders its full text and contents on the server, so the heading ids and the
 * table of contents come from string work that gives the same answer in Node and in the browser (no DOMParser).
 */
import { describe, expect, it } from "vitest";
import { withToc } from "@/components/documents/judgment";
import { fullTextToHtml } from "@/lib/backend/documents";

describe("withToc", () => {
  it("gives every heading of the sanitised full text an id and lists it, in order", () => {
    const html = fullTextToHtml("WYROK\n\nSąd Apelacyjny w Krakowie orzekł.\n\nI. FAKTY & OKOLICZNOŚCI\n\nOskarżony <A> \"B\".\n\nUZASADNIENIE\n\nKoniec.");
    const { html: out, toc } = withToc(html);
    expect(toc).toEqual([
      { id: "sec-1", text: "WYROK", level: 2 },
      { id: "sec-2", text: "I. FAKTY & OKOLICZNOŚCI", level: 2 },
      { id: "sec-3", text: "UZASADNIENIE", level: 2 },
    ]);
    expect(out).toContain('<h2 id="sec-1">WYROK</h2>');
    // The heading's own markup (escaped ampersand) is kept; only the id is added.
    expect(out).toContain('<h2 id="sec-2">I. FAKTY &amp; OKOLICZNOŚCI</h2>');
    expect(out).toContain("<p>Oskarżony &lt;A&gt; \"B\".</p>");
    // Running it again over its own output changes nothing (ids present are kept).
    expect(withToc(out)).toEqual({ html: out, toc });
  });

  it("skips empty headings but counts them, keeps ids present, decodes numeric references and cuts long titles", () => {
    const long = "X".repeat(200);
    const { html, toc } = withToc(`<h1>  </h1><h3 id="own">&#x141;&#243;d&#x17a;</h3><h4>${long}</h4><h5>not listed</h5>`);
    expect(toc).toEqual([
      { id: "own", text: "Łódź", level: 3 },
      { id: "sec-3", text: long.slice(0, 120), level: 4 },
    ]);
    expect(html).toBe(`<h1>  </h1><h3 id="own">&#x141;&#243;d&#x17a;</h3><h4 id="sec-3">${long}</h4><h5>not listed</h5>`);
  });

  it("leaves text without headings as it is", () => {
    expect(withToc("<p>a</p>")).toEqual({ html: "<p>a</p>", toc: [] });
    expect(withToc("")).toEqual({ html: "", toc: [] });
  });
});
