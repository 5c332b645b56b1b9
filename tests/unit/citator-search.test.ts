/**
 * The citator's search side: provision names, what a judgment `cites` (provisions with their ancestors, cited
 * judgments, never a provision named only in an acquittal), and the planted statute answer of the test slice.
 */
import { describe, expect, it } from "vitest";
import { provisionName } from "@/lib/citations/name";
import { acquittalMention, citesOf, judgmentReferences, type ResolvedReference } from "@/lib/citations/store";
import { generateJudgment } from "@/supabase/seed/generate";
import { ART_279_ACQUITTAL_INDEXES, ART_279_INDEXES, PLANTED_STATUTE_SEED } from "@/supabase/seed/planted-statutes";

describe("provision names", () => {
  it.each([
    ["PL/kk/279/§1", "art. 279 § 1 k.k."],
    ["PL/kk/279", "art. 279 k.k."],
    ["PL/kpk/438/pkt2", "art. 438 pkt 2 k.p.k."],
    ["PL/kc/353^1", "art. 353¹ k.c."],
    ["PL/kk", "Kodeks karny"],
    ["UK/ukpga/1861/100/s18", "s. 18 Offences Against the Person Act 1861"],
    ["UK/ukpga/1968/60/s9/1/a", "s. 9(1)(a) Theft Act 1968"],
    ["UK/act/fraud-act-2006/s2", "s. 2 Fraud Act 2006"],
    ["UK/guideline/robbery", "Sentencing Council guideline: Robbery"],
  ])("%s reads %s", (id, name) => {
    expect(provisionName(id)).toBe(name);
  });
});

const ref = (over: Partial<ResolvedReference>): ResolvedReference => ({
  kind: "legislation",
  jurisdiction: "PL",
  origin: "text",
  start: 0,
  end: 1,
  text: "x",
  canonicalId: null,
  resolved: false,
  targetId: null,
  ...over,
});

describe("cites", () => {
  it("holds each applied provision with its ancestors and each resolved cited judgment, sorted", () => {
    const cites = citesOf([
      ref({ canonicalId: "PL/kk/279/§1" }),
      ref({ canonicalId: "PL/kpk/438/pkt2" }),
      ref({ kind: "case", canonicalId: "pl:ii aka 1/19", targetId: "0000000a-0000-4000-8000-000000000001", resolved: true }),
      ref({ kind: "case", canonicalId: "pl:ii aka 2/19" }), // unresolved: not in the corpus, not a filter value
      ref({ canonicalId: "PL/kk/280/§1", applied: false }), // named only in an acquittal
    ]);
    expect(cites).toEqual(["0000000a-0000-4000-8000-000000000001", "PL/kk", "PL/kk/279", "PL/kk/279/§1", "PL/kpk", "PL/kpk/438", "PL/kpk/438/pkt2"]);
  });

  it("reads an acquittal before a provision, and not a conviction after one", () => {
    const pl = "Jednocześnie Sąd Okręgowy uniewinnił oskarżonego od popełnienia czynu z art. 279 § 1 k.k.";
    expect(acquittalMention(pl, pl.indexOf("art."))).toBe(true);
    const both = "Sąd uniewinnił oskarżonego od zarzutu z art. 280 § 1 k.k., a skazał go za czyn z art. 279 § 1 k.k.";
    expect(acquittalMention(both, both.lastIndexOf("art."))).toBe(false);
    const uk = "The appellant was acquitted of the offence under section 18 of the Offences Against the Person Act 1861";
    expect(acquittalMention(uk, uk.indexOf("section"))).toBe(true);
    const applied = "The judge convicted the appellant under section 18 of the Offences Against the Person Act 1861.";
    expect(acquittalMention(applied, applied.indexOf("section"))).toBe(false);
  });

  it("the test slice's judgments applying art. 279 § 1 k.k. are exactly the planted ones (acquittals left out)", () => {
    const applying: number[] = [];
    const mentioning: number[] = [];
    for (let i = 0; i < 600; i++) {
      const row = generateJudgment(PLANTED_STATUTE_SEED, i);
      const refs = judgmentReferences(
        { id: row.id, full_text: row.full_text, jurisdiction: row.jurisdiction as "PL" | "UK", case_number: row.case_number ?? null, base_neutral_citation_number: null },
        new Map(),
      );
      if (refs.some((r) => r.canonicalId === "PL/kk/279/§1")) mentioning.push(i);
      if (citesOf(refs).includes("PL/kk/279/§1")) applying.push(i);
    }
    expect(applying).toEqual([...ART_279_INDEXES]);
    expect(mentioning).toEqual([...ART_279_INDEXES, ...ART_279_ACQUITTAL_INDEXES].sort((a, b) => a - b));
  });
});
