/** The shapes of extracted references (lib/citations). */

export type ReferenceKind = "case" | "legislation" | "guideline";
export type Jurisdiction = "PL" | "UK";

export interface Reference {
  kind: ReferenceKind;
  jurisdiction: Jurisdiction;
  /** Span of the reference in the text (UTF-16 offsets, end exclusive); null for a structured reference not found in the text. */
  start: number | null;
  end: number | null;
  /** The text of the span (or the structured reference's own text). */
  text: string;
  /**
   * Canonical id. Legislation: `PL/kk/279/§1`, `UK/ukpga/1861/100/s18`; cases: the citation key of lib/search/citations
   * (`pl:ii aka 177/14`, `uk:2013 ewca crim 710`) or of a law report (`ukrep:2019 1 wlr 123`); guidelines:
   * `UK/guideline/<slug>`. Null when a provision's act could not be identified ("art. 5 ustawy antymonopolowej").
   */
  canonicalId: string | null;
  /** Whether the reference resolved to a judgment of the corpus (set by resolution; false from the extractor). */
  resolved: boolean;
  /** Where it came from: the judgment's text, or the source's own markup (SAOS, LegalDocML, JuDDGES). */
  origin: "text" | "structured";
  /** Cases: the court as written ("Sądu Najwyższego", "EWCA Crim"), its date (YYYY-MM-DD) and the case name. */
  court?: string | null;
  date?: string | null;
  caseName?: string | null;
  /** Cases: references printed together as parallel citations share a group number. */
  group?: number | null;
  /** Legislation: the act's canonical name when known. */
  actName?: string | null;
}

/** A reference the source itself marks (an importer's structured data), to be merged with the text's references. */
export interface StructuredReference {
  kind: ReferenceKind;
  jurisdiction: Jurisdiction;
  canonicalId: string;
  text: string;
}
