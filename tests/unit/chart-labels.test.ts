import { describe, expect, it } from "vitest";
import { tickLines } from "@/components/ui/chart-tick";

describe("chart axis labels fit the axis", () => {
  it("keeps a short label whole", () => {
    expect(tickLines("robbery", 22, 2)).toEqual(["robbery"]);
  });

  it("wraps between words and marks what it cut", () => {
    const lines = tickLines("having a bladed article in a public place", 22, 2);
    expect(lines).toEqual(["having a bladed", "article in a public…"]);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(22);
  });

  it("wraps a Polish offence on two lines without cutting it", () => {
    expect(tickLines("kradzież z włamaniem (art. 279 § 1 k.k.)", 22, 2)).toEqual(["kradzież z włamaniem", "(art. 279 § 1 k.k.)"]);
  });

  it("cuts a word longer than a line", () => {
    const lines = tickLines("supercalifragilisticexpialidocious", 22, 2);
    expect(lines).toEqual(["supercalifragilistice…"]);
  });
});
