/**
 * httpUrlSchema (lib/schema/text.ts), the one check for links the service stores, and isHttpUrl, its render-time twin
 * (the document page links a judgment's source only when it passes). javascript: and data: URLs parse as URLs, so
 * z.url() alone accepted them.
 */
import { describe, expect, it } from "vitest";
import { httpUrlSchema, isHttpUrl } from "@/lib/schema/text";
import { ingestRowSchema } from "@/lib/import/ingest-row";
import { CreatePublicationSchema } from "@/lib/schema/requests/content";

const GOOD = ["https://www.bailii.org/ew/cases/EWCA/Crim/2023/1.html", "http://orzeczenia.ms.gov.pl/details/x", "HTTPS://example.org/a?b=c#d"];
const BAD = ["javascript:alert(1)", "JavaScript:alert(1)", " javascript:alert(1)", "data:text/html,<script>alert(1)</script>", "vbscript:x", "file:///etc/passwd", "ftp://example.org/x", "//example.org/x", "/documents/x", "https://exa\u0000mple.org"];

describe("httpUrlSchema and isHttpUrl: http(s) only", () => {
  it("accepts absolute http and https URLs", () => {
    for (const url of GOOD) {
      expect(httpUrlSchema.safeParse(url).success, url).toBe(true);
      expect(isHttpUrl(url), url).toBe(true);
    }
  });

  it("refuses every other scheme, relative links and non-strings", () => {
    for (const url of BAD) {
      expect(httpUrlSchema.safeParse(url).success, url).toBe(false);
      if (!url.includes("\u0000")) expect(isHttpUrl(url), url).toBe(false);
    }
    for (const v of [null, undefined, 1, {}]) expect(isHttpUrl(v)).toBe(false);
  });

  it("ingestion rows and publications use it for their links", () => {
    const base = { source_id: "s", jurisdiction: "UK", full_text: "text" };
    expect(ingestRowSchema.safeParse({ ...base, source_url: GOOD[0] }).success).toBe(true);
    expect(ingestRowSchema.safeParse({ ...base, source_url: "javascript:alert(1)" }).success).toBe(false);
    expect(ingestRowSchema.safeParse({ ...base, source_url: "data:text/html,x" }).success).toBe(false);
    const pub = { title: "T", authors: ["A"], venue: null, year: 2024, abstract: null, doi: null, kind: "paper", status: "draft" };
    expect(CreatePublicationSchema.safeParse({ ...pub, url: "javascript:alert(1)" }).success).toBe(false);
    expect(CreatePublicationSchema.safeParse({ ...pub, url: GOOD[0] }).success).toBe(true);
  });
});
