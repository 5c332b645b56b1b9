/** lib/search/meilisearch/merge-marks.ts: an OR query's judgment found by several searches shows every one's marks. */
import { describe, expect, it } from "vitest";
import { mergeMarks } from "@/lib/search/meilisearch/merge-marks";

describe("mergeMarks", () => {
  it("marks, in the kept hit, the words other searches marked: exact, folded and prefix forms", () => {
    const kept = { id: "a", _formatted: { title: "<mark>Kradzież</mark> z włamaniem i rozbojem", summary: ["rozbój nożem", "Robert"] } };
    const other = { id: "a", _formatted: { title: "Kradzież z <mark>włamaniem</mark> i <mark>rozboj</mark>em", summary: ["<mark>rozbój</mark> nożem"] } };
    const out = mergeMarks(kept, [other])._formatted as Record<string, unknown>;
    expect(out.title).toBe("<mark>Kradzież</mark> z <mark>włamaniem</mark> i <mark>rozboj</mark>em");
    // "rozbój" folded is "rozboj": marked whole where it is a word; "Robert" is not a form of it.
    expect(out.summary).toEqual(["<mark>rozbój</mark> nożem", "Robert"]);
    expect(kept._formatted.title).toBe("<mark>Kradzież</mark> z włamaniem i rozbojem");
  });

  it("never adds a mark on a stop-word or a one-letter word, and leaves a hit without others as it is", () => {
    const kept = { id: "a", _formatted: { title: "Artura Z. with a knife" } };
    const other = { id: "a", _formatted: { title: "Artura <mark>Z</mark>. <mark>with</mark> a <mark>knife</mark>" } };
    expect((mergeMarks(kept, [other])._formatted as Record<string, unknown>).title).toBe("Artura Z. with a <mark>knife</mark>");
    expect(mergeMarks(kept, [])).toBe(kept);
  });
});
