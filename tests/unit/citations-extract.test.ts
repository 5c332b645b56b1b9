/**
 * lib/citations: case and legislation references in the shapes real judgments write them, their spans and canonical
 * ids; structured references merged; provision queries as users type them; near misses recognised as nothing.
 */
import { describe, expect, it } from "vitest";
import { leafProvisions, provisionAncestors } from "@/lib/citations/canonical";
import { extractCaseRefs } from "@/lib/citations/case-refs";
import { canonicalIds, extractReferences, guessJurisdiction } from "@/lib/citations/extract";
import { extractPlLegislation, extractUkLegislation } from "@/lib/citations/legislation-refs";
import { isCanonicalProvisionId, parseProvisionQuery } from "@/lib/citations/query";
import { juddgesStructuredRefs, legalDocMlStructuredRefs, saosStructuredRefs, ukLegislationHrefId } from "@/lib/citations/structured";

const plIds = (t: string) => extractPlLegislation(t).map((r) => r.canonicalId);
const ukIds = (t: string) => extractUkLegislation(t).map((r) => r.canonicalId);

describe("PL legislation", () => {
  it.each([
    ["art. 279 § 1 k.k.", ["PL/kk/279/§1"]],
    ["art. 279 §1 kk", ["PL/kk/279/§1"]],
    ["art. 278 § 1 i 279 § 1 k.k.", ["PL/kk/278/§1", "PL/kk/279/§1"]],
    ["art. 438 pkt 2 i 4 k.p.k.", ["PL/kpk/438/pkt2", "PL/kpk/438/pkt4"]],
    ["art. 178a§1 i 4 kk", ["PL/kk/178a/§1", "PL/kk/178a/§4"]],
    ["art. 178 a§ 4 kk", ["PL/kk/178a/§4"]],
    ["art. 34§ 1a pkt 1 i art. 35 § 1 kk", ["PL/kk/34/§1a/pkt1", "PL/kk/35/§1"]],
    ["art. 148 § 1 w zw. z art. 13 § 1 k.k.", ["PL/kk/148/§1", "PL/kk/13/§1"]],
    ["art. 98 i 99 k.p.c.", ["PL/kpc/98", "PL/kpc/99"]],
    ["art. 278-280 kk", ["PL/kk/278", "PL/kk/279", "PL/kk/280"]],
    ["art. 34 § 1 pkt 2 i § 2 kk", ["PL/kk/34/§1/pkt2", "PL/kk/34/§2"]],
    ["art. 627 kpk", ["PL/kpk/627"]],
    ["art. 77 § 2 k.k.w.", ["PL/kkw/77/§2"]],
    ["art. 51 § 1 k.w.", ["PL/kw/51/§1"]],
    ["art. 415 k.c.", ["PL/kc/415"]],
    ["art. 479(31) § 2 k.p.c.", ["PL/kpc/479^31/§2"]],
    ["art. 353^1 kc", ["PL/kc/353^1"]],
    ["wart. 3531k.c.", ["PL/kc/353^1"]],
    ["(art. 4793 1§ 1 k.p.c.)", ["PL/kpc/479^31/§1"]],
    ["art. 42 ust. 1 Konstytucji RP", ["PL/konst/42/ust1"]],
    ["art. 62 ust. 1 ustawy o przeciwdziałaniu narkomanii", ["PL/upn/62/ust1"]],
    ["art. 62 ust. 3 ustawy z dnia 29 lipca 2005 r. o przeciwdziałaniu narkomanii", ["PL/upn/62/ust3"]],
    ["art. 148 § 2 pkt 3 kodeksu karnego", ["PL/kk/148/§2/pkt3"]],
    ["art. 17 ust. 1 ustawy z 23 czerwca 1973 roku o opłatach w sprawach karnych (tekst jednolity Dz. U. z 1983 r., Nr 49, poz.223)", ["PL/uosk/17/ust1"]],
    ["art. 5 ustawy z dnia 24 lutego 1990 r. o przeciwdziałaniu praktykom monopolistycznym", ["PL/u-o-przeciwdzialaniu-praktykom-monopolistycznym/5"]],
    ["art. 9 ustawy (Dz. U. z 1997 r. Nr 88, poz. 553)", ["PL/kk/9"]],
    ["art. 12 ustawy (Dz. U. z 2001 r. Nr 7, poz. 77)", ["PL/du-2001-7-77/12"]],
  ])("%s", (text, ids) => {
    expect(plIds(text)).toEqual(ids);
  });

  it("gives each provision its exact span, the last one running through the act", () => {
    const t = "skazany z art. 278 § 1 i 279 § 1 k.k. na karę";
    const refs = extractPlLegislation(t);
    expect(refs.map((r) => [r.text, t.slice(r.start ?? 0, r.end ?? 0)])).toEqual([
      ["art. 278 § 1", "art. 278 § 1"],
      ["279 § 1 k.k.", "279 § 1 k.k."],
    ]);
    expect(refs.every((r) => r.kind === "legislation" && r.jurisdiction === "PL" && !r.resolved && r.origin === "text")).toBe(true);
    expect(refs[0].actName).toBe("Kodeks karny");
  });

  it("a chain without an act takes the act of the reference just before it", () => {
    expect(plIds("z art. 178a § 1 kk. Znamię z art. 178a § 4 zachodzi")).toEqual(["PL/kk/178a/§1", "PL/kk/178a/§4"]);
  });

  it("does not inherit across an act it cannot identify, nor from too far back", () => {
    expect(plIds("art. 5 ustawy antymonopolowej. Także art. 7 ust. 2")).toEqual([null, null]);
    expect(plIds(`art. 1 kk. ${"x ".repeat(1000)} art. 2 § 1`)).toEqual(["PL/kk/1", null]);
  });

  it("'w/w ustawy' names the statute named last, not the code", () => {
    const t = "art. 4 ust. 1 ustawy z dnia 24 lutego 1990 r. o przeciwdziałaniu praktykom monopolistycznym, art. 415 kc i art. 8 ust. 2 w/w ustawy";
    expect(plIds(t)).toEqual([
      "PL/u-o-przeciwdzialaniu-praktykom-monopolistycznym/4/ust1",
      "PL/kc/415",
      "PL/u-o-przeciwdzialaniu-praktykom-monopolistycznym/8/ust2",
    ]);
  });

  it("does not read 'kk w zw. z' as k.k.w., nor words, page numbers or case numbers as provisions", () => {
    expect(plIds("art. 178a § 4 kk w zw. z art. 37a kk")).toEqual(["PL/kk/178a/§4", "PL/kk/37a"]);
    expect(plIds("sygn. akt II AKa 279/14, k. 279, s. 12, artysta 5 razy")).toEqual([]);
  });
});

describe("UK legislation", () => {
  it.each([
    ["section 18 of the Offences Against the Person Act 1861", ["UK/ukpga/1861/100/s18"]],
    ["contrary to s.9(1)(a) Theft Act 1968", ["UK/ukpga/1968/60/s9/1/a"]],
    ["Sentencing Act 2020, s.231", ["UK/ukpga/2020/17/s231"]],
    ["ss. 18 and 20 OAPA 1861", ["UK/ukpga/1861/100/s18", "UK/ukpga/1861/100/s20"]],
    ["section 1(1) of the Fraud Act 2006", ["UK/ukpga/2006/35/s1/1"]],
    ["section 4 of the Protection of Badgers Act 1992", ["UK/act/protection-of-badgers-act-1992/s4"]],
    ["under the Criminal Justice Act 2003", ["UK/ukpga/2003/44"]],
    ["section 34 of the Criminal Justice and Public Order Act 1994", ["UK/ukpga/1994/33/s34"]],
    ["s.5 of the Domestic Violence, Crime and Victims Act 2004", ["UK/ukpga/2004/28/s5"]],
    ["section 143 of the Powers of Criminal Courts (Sentencing) Act 2000", ["UK/ukpga/2000/6/s143"]],
    ["Magistrates' Courts Act 1980, s.22", ["UK/ukpga/1980/43/s22"]],
  ])("%s", (text, ids) => {
    expect(ukIds(text)).toEqual(ids);
  });

  it("reads an abbreviation the judgment defines, and 'the Act' as the act named last", () => {
    const t = "section 6 of the Human Rights Act 1998 (“HRA”). Later: section 6 of the HRA; and section 7(1) of the Act.";
    expect(ukIds(t)).toEqual(["UK/ukpga/1998/42/s6", "UK/ukpga/1998/42/s6", "UK/ukpga/1998/42/s7/1"]);
  });

  it("names Sentencing Council guidelines", () => {
    const refs = extractUkLegislation("the Sentencing Council's guideline on Causing grievous bodily harm with intent. Also the Manslaughter Definitive Guideline.");
    expect(refs.filter((r) => r.kind === "guideline").map((r) => r.canonicalId)).toEqual([
      "UK/guideline/causing-grievous-bodily-harm-with-intent",
      "UK/guideline/manslaughter",
    ]);
  });

  it("names a guideline written after the Council's name by its subject, as the same guideline written otherwise", () => {
    const refs = extractUkLegislation("The judge applied the Sentencing Council's Robbery Guideline and the Sentencing Council’s Drug Offences Guideline.");
    expect(refs.filter((r) => r.kind === "guideline").map((r) => r.canonicalId)).toEqual(["UK/guideline/robbery", "UK/guideline/drug-offences"]);
  });
});

describe("case references", () => {
  it("PL case numbers with the court and date stated before them", () => {
    const t = "zob. wyrok Sądu Najwyższego z dnia 20 stycznia 2016 r., V KK 345/15, a także postanowienie SN z 3.02.2019 r., sygn. akt III KK 45/20 oraz I ACa 772/13.";
    const refs = extractCaseRefs(t);
    expect(refs.map((r) => [r.canonicalId, r.court, r.date])).toEqual([
      ["pl:v kk 345/15", "Sądu Najwyższego", "2016-01-20"],
      ["pl:iii kk 45/20", "SN", "2019-02-03"],
      ["pl:i aca 772/13", null, null],
    ]);
    expect(t.slice(refs[0].start ?? 0, refs[0].end ?? 0)).toBe("V KK 345/15");
  });

  it("Constitutional Tribunal numbers only where the Tribunal or 'sygn.' is named", () => {
    expect(extractCaseRefs("wyrok Trybunału Konstytucyjnego z dnia 11 maja 2005 r., SK 12/05").map((r) => r.canonicalId)).toEqual(["pl:tk sk 12/05"]);
    expect(extractCaseRefs("w pozycji K 1/05 tabeli").map((r) => r.canonicalId)).toEqual([]);
  });

  it("leaves out the judgment's own number and lower-case look-alikes", () => {
    expect(extractCaseRefs("Sygn. akt II K 84/16 … wyrok w sprawie II K 1130/13", { ownCitations: ["II K 84/16"] }).map((r) => r.canonicalId)).toEqual(["pl:ii k 1130/13"]);
    expect(extractCaseRefs("kolejno i k 5/10 oraz v kk 3/19")).toEqual([]);
  });

  it("UK neutral and law-report citations, parallel citations grouped under the case name", () => {
    const t = "In R v Pola [2009] EWCA Crim 655 the court followed Attorney General's Reference (No 1 of 2011) [2011] EWCA Crim 2028; [2012] 1 Cr App R (S) 9 and [2019] UKSC 12, and see [2020] EWHC 1234 (Admin) and [2019] 1 WLR 123.";
    const refs = extractCaseRefs(t);
    expect(refs.map((r) => r.canonicalId)).toEqual([
      "uk:2009 ewca crim 655",
      "uk:2011 ewca crim 2028",
      "ukrep:2012 1 cr app r (s) 9",
      "uk:2019 uksc 12",
      "uk:2020 ewhc 1234 admin",
      "ukrep:2019 1 wlr 123",
    ]);
    expect(refs[0].caseName).toBe("R v Pola");
    expect(refs[1].group).toBe(refs[2].group);
    expect(refs[3].group).not.toBe(refs[2].group);
    expect(refs[0].court).toBe("EWCA Crim");
  });

  it("the own neutral citation is not a reference", () => {
    expect(extractCaseRefs("[2025] EWCA Civ 673 … citing [2017] UKSC 5", { ownCitations: ["[2025] EWCA Civ 673"] }).map((r) => r.canonicalId)).toEqual(["uk:2017 uksc 5"]);
  });
});

describe("canonical ids", () => {
  it("ancestors and leaves", () => {
    expect(provisionAncestors("PL/kk/34/§1a/pkt1")).toEqual(["PL/kk/34/§1a", "PL/kk/34", "PL/kk"]);
    expect(provisionAncestors("UK/ukpga/1968/60/s9/1")).toEqual(["UK/ukpga/1968/60/s9", "UK/ukpga/1968/60"]);
    expect([...leafProvisions(["PL/kk/34", "PL/kk/34/§1a", "PL/kk/35", "PL/kk"])].sort()).toEqual(["PL/kk/34/§1a", "PL/kk/35"]);
  });
});

describe("provision queries", () => {
  it.each([
    ["art. 279 § 1 k.k.", "PL/kk/279/§1"],
    ["279 § 1 kk", "PL/kk/279/§1"],
    ["art 279 par. 1 kk", "PL/kk/279/§1"],
    ["art. 438 pkt 2 kpk", "PL/kpk/438/pkt2"],
    ["s.18 OAPA 1861", "UK/ukpga/1861/100/s18"],
    ["section 18 of the Offences Against the Person Act 1861", "UK/ukpga/1861/100/s18"],
    ["PL/kk/279/§1", "PL/kk/279/§1"],
    ["Theft Act 1968", "UK/ukpga/1968/60"],
  ])("%s → %s", (q, id) => {
    expect(parseProvisionQuery(q)).toBe(id);
  });

  it.each(["279", "II AKa 279/14", "kradzież z włamaniem", "art. 279", "art. 278 i 279 kk", "", "PL/kk/279/§1; drop"])("%s → null", (q) => {
    expect(parseProvisionQuery(q)).toBeNull();
  });

  it("recognises canonical ids", () => {
    expect(isCanonicalProvisionId("UK/ukpga/1861/100/s18")).toBe(true);
    expect(isCanonicalProvisionId("PL/kk/../x")).toBe(false);
  });
});

describe("structured references and merging", () => {
  it("SAOS referencedRegulations and referencedCourtCases", () => {
    const refs = saosStructuredRefs({
      referencedRegulations: [
        { journalTitle: "Ustawa z dnia 6 czerwca 1997 r. - Kodeks karny", journalNo: 88, journalYear: 1997, journalEntry: 553, text: "Ustawa z dnia 6 czerwca 1997 r. - Kodeks karny (Dz. U. z 1997 r. Nr 88, poz. 553 - art. 34; art. 34 § 1 a pkt. 1; art. 178 a § 4)" },
        { journalTitle: "Ustawa z dnia 26 czerwca 1974 r. - Kodeks pracy", journalNo: 24, journalYear: 1974, journalEntry: 141, text: "Ustawa … (Dz. U. z 1974 r. Nr 24, poz. 141 - )" },
      ],
      referencedCourtCases: [{ caseNumber: "II K 1130/13" }],
    });
    expect(refs.map((r) => r.canonicalId)).toEqual(["PL/kk/34", "PL/kk/34/§1a/pkt1", "PL/kk/178a/§4", "PL/kp", "pl:ii k 1130/13"]);
  });

  it("JuDDGES legal bases by ISAP id, superscripts in brackets", () => {
    const refs = juddgesStructuredRefs({
      text_legal_bases: [{ address: "Dz. U. z 1964 r. Nr 16, poz. 93", art: "art. 353(1);art. 674", isap_id: "WDU19640160093", text: "", title: "Kodeks cywilny" }],
    });
    expect(refs.map((r) => r.canonicalId)).toEqual(["PL/kc/353^1", "PL/kc/674"]);
  });

  it("LegalDocML refs: cases by canonical citation, legislation by legislation.gov.uk id", () => {
    const xml = `<p><ref href="#" uk:canonical="[2018] AC 61" uk:type="case">[2018] AC 61</ref> and <ref href="http://www.legislation.gov.uk/id/ukpga/1998/42/section/6" uk:type="legislation">section 6</ref></p>`;
    expect(legalDocMlStructuredRefs(xml).map((r) => r.canonicalId)).toEqual(["ukrep:2018 ac 61", "UK/ukpga/1998/42/s6"]);
    expect(ukLegislationHrefId("http://www.legislation.gov.uk/id/ukpga/2000/36/section/6/1")).toBe("UK/ukpga/2000/36/s6/1");
  });

  it("appends structured references the text does not show and learns an act's id from them", () => {
    const refs = extractReferences("that is the Freedom of Information Act 2000 and section 1 of it, see [2017] UKSC 5.", {
      jurisdiction: "UK",
      structured: [
        { kind: "legislation", jurisdiction: "UK", canonicalId: "UK/ukpga/2000/36", text: "Freedom of Information Act 2000" },
        { kind: "case", jurisdiction: "UK", canonicalId: "uk:2017 uksc 5", text: "[2017] UKSC 5" },
        { kind: "case", jurisdiction: "UK", canonicalId: "ukrep:2018 ac 61", text: "[2018] AC 61" },
      ],
    });
    expect([...canonicalIds(refs, "legislation")].sort()).toEqual(["UK/ukpga/2000/36", "UK/ukpga/2000/36/s1"]);
    expect(refs.filter((r) => r.origin === "structured").map((r) => [r.canonicalId, r.start])).toEqual([["ukrep:2018 ac 61", null]]);
  });

  it("guesses the jurisdiction from the text", () => {
    expect(guessJurisdiction("Sąd zważył, że art. 279 § 1 k.k. stanowi")).toBe("PL");
    expect(guessJurisdiction("The appellant was convicted of an offence under section 18 of the Act")).toBe("UK");
  });
});
