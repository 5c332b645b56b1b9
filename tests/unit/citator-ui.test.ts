import { describe, expect, it } from "vitest";
import { citingFiltersOf, citingParams } from "@/components/citations/filters";
import { provisionHref } from "@/components/citations/links";
import { groupReferences } from "@/components/citations/cites-panel";
import { linkReferences } from "@/components/documents/reference-links";
import { fullTextToHtml } from "@/lib/backend/documents";
import type { DocumentReference } from "@/lib/backend/citations";

const ref = (over: Partial<DocumentReference>): DocumentReference => ({
  kind: "case",
  jurisdiction: "PL",
  origin: "text",
  text: "",
  start: 0,
  end: 0,
  canonical_id: null,
  resolved: false,
  target_id: null,
  target: null,
  court: null,
  date: null,
  case_name: null,
  group: null,
  ...over,
});

describe("linkReferences", () => {
  it("wraps each reference's text in a link, in order, across wrapped whitespace and entities", () => {
    const html = "<p>Sąd zważył, że art. 279 § 1\nk.k. i wyrok II AKa 12/15 &amp; dalej II AKa 12/15.</p>";
    const out = linkReferences(html, [
      { text: "art. 279 § 1 k.k.", href: "/legislation/PL/kk/279/%C2%A71", kind: "legislation" },
      { text: "II AKa 12/15", href: "/documents/a", kind: "case" },
      { text: "II AKa 12/15", href: "/documents/b", kind: "case" },
    ]);
    expect(out).toBe(
      '<p>Sąd zważył, że <a href="/legislation/PL/kk/279/%C2%A71" class="ref-link" data-ref="legislation">art. 279 § 1\nk.k.</a> i wyrok ' +
        '<a href="/documents/a" class="ref-link" data-ref="case">II AKa 12/15</a> &amp; dalej <a href="/documents/b" class="ref-link" data-ref="case">II AKa 12/15</a>.</p>',
    );
  });

  it("matches text holding an escaped character, leaves links and tags alone and skips what it cannot find", () => {
    const html = '<p><a href="/x">R v A &amp; B [2013] EWCA Crim 710</a></p><p>R v A &amp; B [2013] EWCA Crim 710</p>';
    const out = linkReferences(html, [
      { text: "R v A & B [2013] EWCA Crim 710", href: "/documents/t", kind: "case" },
      { text: "absent 1/11", href: "/documents/z", kind: "case" },
    ]);
    expect(out).toBe('<p><a href="/x">R v A &amp; B [2013] EWCA Crim 710</a></p><p><a href="/documents/t" class="ref-link" data-ref="case">R v A &amp; B [2013] EWCA Crim 710</a></p>');
    expect(linkReferences("<p>x</p>", [])).toBe("<p>x</p>");
  });

  it("links the texts of a judgment whose HTML is rebuilt from its full text", () => {
    const text = "Sąd Apelacyjny zważył, co następuje.\n\nOskarżony wypełnił znamiona art. 279 § 1 k.k. (por. V KK 345/15).";
    const out = linkReferences(fullTextToHtml(text), [
      { text: "art. 279 § 1 k.k.", href: provisionHref("PL/kk/279/§1"), kind: "legislation" },
      { text: "V KK 345/15", href: "/documents/v", kind: "case" },
    ]);
    expect(out).toContain('<a href="/legislation/PL/kk/279/%C2%A71" class="ref-link" data-ref="legislation">art. 279 § 1 k.k.</a>');
    expect(out).toContain('<a href="/documents/v" class="ref-link" data-ref="case">V KK 345/15</a>');
  });
});

describe("groupReferences", () => {
  it("groups judgments and provisions, each once, unresolved cases without a link", () => {
    const g = groupReferences([
      ref({ text: "II AKa 1/15", target_id: "t1", resolved: true, target: { id: "t1", case_number: "II AKa 1/15", title: null, court_name: "SA Kraków", decision_date: "2015-03-05", jurisdiction: "PL" } }),
      ref({ text: "II AKa 1/15", target_id: "t1", resolved: true }),
      ref({ text: "III KK 9/09", canonical_id: "pl:iii kk 9/09" }),
      ref({ kind: "legislation", text: "art. 279 § 1 k.k.", canonical_id: "PL/kk/279/§1" }),
      ref({ kind: "legislation", text: "art. 279 § 1 kk", canonical_id: "PL/kk/279/§1" }),
    ]);
    expect(g.judgments).toEqual([
      { key: "t1", label: "II AKa 1/15", href: "/documents/t1", detail: "SA Kraków, 2015-03-05" },
      { key: "ext:pl:iii kk 9/09", label: "III KK 9/09", href: null, detail: null },
    ]);
    expect(g.provisions).toEqual([{ id: "PL/kk/279/§1", name: "art. 279 § 1 k.k." }]);
  });
});

describe("citing filters", () => {
  it("keeps valid values only and writes them back as query parameters", () => {
    const q = new URLSearchParams("jurisdiction=XX&court=%20SA%20&outcome=&date_from=2015-01-01&date_to=2015-13&sort=cited_by");
    const f = citingFiltersOf((k) => q.get(k));
    expect(f).toEqual({ court: "SA", date_from: "2015-01-01", sort: "cited_by" });
    expect(citingParams(f, { offset: 20 }).toString()).toBe("court=SA&date_from=2015-01-01&sort=cited_by&offset=20");
    expect(citingFiltersOf((k) => (k === "sort" ? "newest" : null))).toEqual({});
  });
});
