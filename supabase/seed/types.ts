/** Shapes shared by the demo-corpus generators. */
import type { Rng } from "../../lib/analysis/prng";

/** A planted "known answer": distinctive facts injected into one judgment so search relevance can be checked. */
export interface KnownPlant {
  key: string;
  /** Offence key (from the jurisdiction's offence list) the case is about. */
  offenceKey: string;
  /** Sentences added to the facts (the distinctive phrases live here), in the judgment's language. */
  facts: string;
  /** One more sentence for the reasoning part, repeating the distinctive detail. */
  reasoning: string;
  /** Extra extracted keywords. */
  keywords: string[];
  /** Slot values that replace the random ones so the rest of the text agrees with the planted facts. */
  slots?: Record<string, string>;
  /** Genders the planted text assumes (default: male offender and victim). */
  offenderFemale?: boolean;
  victimFemale?: boolean;
}

export interface CaseInput {
  index: number;
  rng: Rng;
  decisionDate: Date;
  /** Length the full text should reach (characters), from the corpus length distribution. */
  targetChars: number;
  known?: KnownPlant;
  /** The numbers the row is known by, unique in the corpus (generate.ts `rowNumbers`, ./citation-space.ts). */
  numbers: RowNumbers;
}

/** The numbers a judgment is cited by: fixed from its first draws before any text, one judgment each. */
export interface RowNumbers {
  /** The court_name of the row: whose register gave the numbers. */
  court: string;
  /** UK: the neutral citation number; PL: n of `II AKa n/yy`. */
  caseNo: number;
  /** The case_number column: UK `201901234 B1`, PL `II AKa 12/19`. */
  caseNumber: string;
  /** UK: `[2019] EWCA Crim 123`; PL rows have none (their case number is what they are cited by). */
  neutralCitation: string | null;
}

export interface Judge {
  name: string;
  role: string;
}

export interface GeneratedCase {
  caseNumber: string;
  courtName: string;
  courtLevel: string;
  caseType: string;
  decisionType: string;
  judges: Judge[];
  fullText: string;
  keywords: string[] | null;
  legalTopics: string[] | null;
  sourceUrl: string;
  language: "pl" | "en";
  /** What a perfect extractor would return, keyed by base field name (nulls for fields that do not apply). */
  extraction: Record<string, unknown>;
}
