/**
 * The demo corpus's known values for the rules extractor's fields. The generator writes each judgment from a plan and
 * keeps what a perfect extractor would return (GeneratedCase.extraction); generateCore() returns that plan
 * (the same draws generateJudgment makes), so the truth is the generator's own.
 */
import { generateCore, generateJudgment, DEFAULT_CORPUS_SEED } from "@/supabase/seed/generate";
import { plArticles, type RulesResult } from "@/lib/extraction/rules";

export interface TruthCase {
  fullText: string;
  jurisdiction: "PL" | "UK";
  /** The generator's own extraction for this judgment (its plan), for scorers of fields beyond rules-v1's. */
  plan: Record<string, unknown>;
  /** Per rules field: a scalar, a list, or undefined when the corpus does not know it (not scored). */
  truth: Partial<Record<keyof RulesResult, string | string[] | null>>;
}

export const strip = (s: string) => s.replace(/^(?:adw\.|r\.\s?pr\.|prok\.)\s*/u, "").replace(/\s+/g, " ").trim();
const str = (v: unknown): string | null => (typeof v === "string" && v.trim() ? v.trim() : null);
const list = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);

export function truthCase(index: number, seed = DEFAULT_CORPUS_SEED): TruthCase {
  const row = generateJudgment(seed, index);
  // The generator's own plan (its draws up to the planted answers); the row's text adds only texture to it.
  const { c, jurisdiction } = generateCore(seed, index);
  const x = c.extraction;
  const pl = jurisdiction === "PL";
  return {
    fullText: row.full_text,
    jurisdiction,
    plan: x as Record<string, unknown>,
    truth: {
      case_number: row.case_number,
      neutral_citation: pl ? undefined : str(x.neutral_citation_number),
      court: row.court_name,
      judges: row.judges.map((j) => j.name),
      decision_date: row.decision_date,
      appellant: str(x.appellant),
      defence_representative: str(x.offender_representative_name) ? strip(String(x.offender_representative_name)) : null,
      prosecution_representative: str(x.crown_attorney_general_representative_name) ? strip(String(x.crown_attorney_general_representative_name)) : null,
      // PL offences are stored as "kradzież (art. 278 § 1 k.k.)": the citation is what rules can find. UK stores names only.
      offences: pl ? list(x.convict_offences).flatMap(plArticles) : undefined,
      sentences: pl ? undefined : list(x.sentences_received),
      outcome: list(x.appeal_outcome)[0] ?? null,
    },
  };
}

/** What the extractor found, in the truth's terms (names without titles, judges by name). */
export function comparable(r: RulesResult): Partial<Record<keyof RulesResult, string | string[] | null>> {
  return {
    case_number: r.case_number,
    neutral_citation: r.neutral_citation,
    court: r.court,
    judges: r.judges.map((j) => j.name),
    decision_date: r.decision_date,
    appellant: r.appellant,
    defence_representative: r.defence_representative ? strip(r.defence_representative) : null,
    prosecution_representative: r.prosecution_representative ? strip(r.prosecution_representative) : null,
    offences: r.offences,
    sentences: r.sentences,
    outcome: r.outcome,
  };
}

export interface FieldScore {
  field: string;
  jurisdiction: string;
  /** Values found that match the truth / values found / values in the truth (list fields count items). */
  tp: number;
  found: number;
  expected: number;
  precision: number | null;
  recall: number | null;
}

const norm = (s: string) => s.toLowerCase().replace(/[’']/g, "'").replace(/\s+/g, " ").replace(/[.,;]+$/, "").trim();

/** Micro-averaged precision and recall per field and jurisdiction. */
export function score(cases: { jurisdiction: string; truth: TruthCase["truth"]; got: ReturnType<typeof comparable> }[]): FieldScore[] {
  const acc = new Map<string, { tp: number; found: number; expected: number }>();
  for (const c of cases) {
    for (const [field, t] of Object.entries(c.truth)) {
      if (t === undefined) continue;
      const g = c.got[field as keyof RulesResult];
      const key = `${field}\u0000${c.jurisdiction}`;
      const a = acc.get(key) ?? { tp: 0, found: 0, expected: 0 };
      const truthList = (Array.isArray(t) ? t : t === null ? [] : [t]).map(norm);
      const gotList = (Array.isArray(g) ? g : g === null || g === undefined ? [] : [g]).map(norm);
      const remaining = [...truthList];
      for (const v of gotList) {
        const i = remaining.indexOf(v);
        if (i >= 0) {
          a.tp++;
          remaining.splice(i, 1);
        }
      }
      a.found += gotList.length;
      a.expected += truthList.length;
      acc.set(key, a);
    }
  }
  return [...acc.entries()].map(([key, a]) => {
    const [field, jurisdiction] = key.split("\u0000");
    return {
      field,
      jurisdiction,
      ...a,
      precision: a.found ? Math.round((a.tp / a.found) * 1000) / 1000 : null,
      recall: a.expected ? Math.round((a.tp / a.expected) * 1000) / 1000 : null,
    };
  });
}
