import { describe, expect, it } from "vitest";
import { readingMinutes, viewDevice } from "@/lib/backend/content/blog";
import { bibtex } from "@/lib/backend/content/publications";
import { slugify } from "@/lib/backend/content/slug";
import { ContactSchema, CreateBlogPostSchema, clampedPageQuery } from "@/lib/schema/requests/content";
import { z } from "zod";

describe("content helpers", () => {
  it("slugify folds diacritics, joins words with single hyphens, trims, and never answers empty", () => {
    expect(slugify("Łódź: wyroki sądów — 2024!")).toBe("lodz-wyroki-sadow-2024");
    expect(slugify("  Straße & Co.  ")).toBe("strasse-co");
    expect(slugify("!!!")).toBe("post");
    expect(slugify("Ωμέγα")).toBe("post");
    const long = slugify("word ".repeat(100));
    expect(long.length).toBeLessThanOrEqual(130);
    expect(long.endsWith("-")).toBe(false);
  });

  it("reading time is words / 200, at least one minute; markup alone is not words", () => {
    expect(readingMinutes("")).toBe(1);
    expect(readingMinutes("word ".repeat(1000))).toBe(5);
    expect(readingMinutes("## --- | | ** **")).toBe(1);
  });

  it("the view device key is stable within a day and changes with day or address", () => {
    const day1 = new Date("2026-11-25T08:00:00Z");
    const same = viewDevice("10.0.0.1", new Date("2026-11-25T23:59:00Z"));
    expect(viewDevice("10.0.0.1", day1)).toBe(same);
    expect(viewDevice("10.0.0.1", new Date("2026-11-26T00:00:00Z"))).not.toBe(same);
    expect(viewDevice("10.0.0.2", day1)).not.toBe(same);
    expect(same).toMatch(/^[0-9a-f]{64}$/);
  });

  it("bibtex picks the entry type by kind and drops braces from values", () => {
    const entry = bibtex({ id: "abcd1234", title: "On {appeals}", authors: ["Anna Nowak", "J. Smith"], venue: "Crim. L. Rev.", year: 2024, url: null, doi: "10.1234/x", kind: "paper" });
    expect(entry).toBe("@article{nowak2024abcd,\n  title = {On appeals},\n  author = {Anna Nowak and J. Smith},\n  journal = {Crim. L. Rev.},\n  year = {2024},\n  doi = {10.1234/x}\n}");
    expect(bibtex({ id: "ffff0000", title: "Data", authors: ["X"], venue: null, year: 2023, url: "https://x.org", doi: null, kind: "dataset" })).toMatch(/^@misc\{x2023ffff,/);
  });

  it("page and limit are clamped, not refused; non-integers are refused", () => {
    const q = z.strictObject(clampedPageQuery(() => 50, () => 10));
    expect(q.parse({})).toEqual({ page: 1, limit: 10 });
    expect(q.parse({ page: "0", limit: "0" })).toEqual({ page: 1, limit: 1 });
    expect(q.parse({ page: "-4", limit: "999" })).toEqual({ page: 1, limit: 50 });
    expect(q.safeParse({ limit: "1.5" }).success).toBe(false);
    expect(q.safeParse({ limit: "ten" }).success).toBe(false);
  });

  it("the contact schema accepts a filled honeypot (the backend drops it) and an empty subject", () => {
    const ok = ContactSchema.parse({ name: "Jo", email: "jo@example.org", subject: "", message: "0123456789", website: "x" });
    expect(ok).toMatchObject({ subject: undefined, website: "x" });
    expect(ContactSchema.safeParse({ name: "Jo", email: "jo@example.org", message: "012345678" }).success).toBe(false);
    expect(CreateBlogPostSchema.parse({ title: " T " })).toMatchObject({ title: "T", status: "draft", tags: [], body: "", excerpt: "" });
  });
});
