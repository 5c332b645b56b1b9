/** The import's in-memory citation index (lib/citations/store.ts addTargets): keys added before a batch commits, undone when it rolls back. */
import { describe, expect, it } from "vitest";
import { addTargets, resolveCaseRef, type TargetIndex } from "@/lib/citations/store";
import type { Reference } from "@/lib/citations/types";

const j = (id: string, case_number: string, court = "Sąd Okręgowy w Toruniu", date = "2020-01-01") => ({ id, court, date, case_number, base_neutral_citation_number: null });
const snapshot = (index: TargetIndex) => JSON.stringify([...index].sort(([a], [b]) => a.localeCompare(b)));

describe("addTargets", () => {
  it("adds judgments under their keys, replacing a judgment's own earlier entry, and its undo restores the index exactly", () => {
    const index: TargetIndex = new Map([["pl:ii k 1/20", [{ id: "a", court: "Sąd Rejonowy w Toruniu", date: "2020-01-01" }, { id: "b", court: null, date: null }]]]);
    const before = snapshot(index);
    const undo1 = addTargets(index, [j("b", "II K 1/20", "Sąd Okręgowy w Krakowie"), j("c", "II K 1/20"), j("d", "III C 5/19")]);
    const undo2 = addTargets(index, [j("c", "II K 1/20", "Sąd Apelacyjny w Krakowie"), j("e", "III C 5/19")]);
    expect(index.get("pl:ii k 1/20")?.map((t) => [t.id, t.court])).toEqual([
      ["a", "Sąd Rejonowy w Toruniu"],
      ["b", "Sąd Okręgowy w Krakowie"],
      ["c", "Sąd Apelacyjny w Krakowie"],
    ]);
    expect(index.get("pl:iii c 5/19")?.map((t) => t.id)).toEqual(["d", "e"]);
    undo2();
    expect(index.get("pl:ii k 1/20")?.map((t) => [t.id, t.court])).toEqual([
      ["a", "Sąd Rejonowy w Toruniu"],
      ["b", "Sąd Okręgowy w Krakowie"],
      ["c", "Sąd Okręgowy w Toruniu"],
    ]);
    undo1();
    expect(snapshot(index)).toBe(before);
  });

  it("a reference stating a court resolves to the one candidate of that court among many sharing the number", () => {
    const index: TargetIndex = new Map();
    addTargets(index, Array.from({ length: 50 }, (_, i) => j(`r${i}`, "II K 1/20", `Sąd Rejonowy w ${["Toruniu", "Gdańsku"][i % 2]}`)));
    addTargets(index, [j("o", "II K 1/20", "Sąd Okręgowy w Toruniu")]);
    const ref: Reference = { kind: "case", jurisdiction: "PL", start: 0, end: 10, text: "II K 1/20", canonicalId: "pl:ii k 1/20", resolved: false, origin: "text", court: "Sądu Okręgowego w Toruniu", date: null, caseName: null, group: null };
    expect(resolveCaseRef(ref, index, "x")).toBe("o");
    expect(resolveCaseRef({ ...ref, court: "Sądu Rejonowego w Toruniu" }, index, "x")).toBeNull();
  });
});
