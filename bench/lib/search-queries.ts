/**
 * The queries of the search benchmarks (20 PL, 20 EN, including typos, phrases and filtered queries; then
 * four each of the query language's exclusions and fields, docs/search.md "Query language"),
 * shared by bench/search.ts and bench/search-engine-profile.ts. Each list ends with the planted known answers of its
 * jurisdiction (supabase/seed/known-answers.ts), whose top-3 rank is the relevance check.
 */
import { KNOWN_ANSWERS } from "../../supabase/seed/known-answers";

export interface BenchQuery {
  q: string;
  lang: "pl" | "en";
  kind: "plain" | "typo" | "phrase" | "filtered" | "known" | "exclusion" | "field";
  /** A filter expression in the search engine's syntax. */
  filter?: string;
}

const PL: BenchQuery[] = [
  { q: "zabójstwo", lang: "pl", kind: "plain" },
  { q: "rozbój z użyciem noża", lang: "pl", kind: "plain" },
  { q: "kradzież z włamaniem", lang: "pl", kind: "plain" },
  { q: "apelacja obrońcy oskarżonego", lang: "pl", kind: "plain" },
  { q: "kara pozbawienia wolności", lang: "pl", kind: "plain" },
  { q: "zabojstwo", lang: "pl", kind: "typo" },
  { q: "rozbuj", lang: "pl", kind: "typo" },
  { q: "oszustwo kredytowe", lang: "pl", kind: "plain" },
  { q: "\"nadzwyczajne złagodzenie kary\"", lang: "pl", kind: "phrase" },
  { q: "\"środki odurzające\"", lang: "pl", kind: "phrase" },
  { q: "pobicie", lang: "pl", kind: "filtered", filter: "jurisdiction = PL AND decision_date_ts >= 1262304000" },
  { q: "sąd apelacyjny", lang: "pl", kind: "filtered", filter: "base_appeal_outcome IN [outcome_dismissed_or_refused]" },
  { q: "znęcanie się", lang: "pl", kind: "plain" },
  { q: "usiłowanie zabójstwa", lang: "pl", kind: "plain" },
  // The query language (docs/search.md): exclusions and fields.
  { q: "rozbój -nóż", lang: "pl", kind: "exclusion" },
  { q: "zabójstwo -\"obrona konieczna\"", lang: "pl", kind: "exclusion" },
  { q: "kradzież court:Krakowie", lang: "pl", kind: "field" },
  { q: "pobicie year:2015..2019 jurisdiction:pl", lang: "pl", kind: "field" },
  ...KNOWN_ANSWERS.filter((k) => k.jurisdiction === "PL").map((k) => ({ q: k.query, lang: "pl" as const, kind: "known" as const })),
];
const EN: BenchQuery[] = [
  { q: "murder", lang: "en", kind: "plain" },
  { q: "manslaughter sentence", lang: "en", kind: "plain" },
  { q: "robbery with a knife", lang: "en", kind: "plain" },
  { q: "sentence manifestly excessive", lang: "en", kind: "plain" },
  { q: "conviction unsafe", lang: "en", kind: "plain" },
  { q: "manslaugter", lang: "en", kind: "typo" },
  { q: "robery", lang: "en", kind: "typo" },
  { q: "\"dangerous driving\"", lang: "en", kind: "phrase" },
  { q: "\"grievous bodily harm\"", lang: "en", kind: "phrase" },
  { q: "burglary", lang: "en", kind: "filtered", filter: "jurisdiction = UK" },
  { q: "fraud", lang: "en", kind: "filtered", filter: "jurisdiction = UK AND base_num_victims >= 2" },
  { q: "guilty plea", lang: "en", kind: "plain" },
  { q: "attorney general reference", lang: "en", kind: "plain" },
  { q: "supply of class A drugs", lang: "en", kind: "plain" },
  { q: "robbery -firearm", lang: "en", kind: "exclusion" },
  { q: "murder -\"life imprisonment\"", lang: "en", kind: "exclusion" },
  { q: "\"armed robbery\" jurisdiction:uk", lang: "en", kind: "field" },
  { q: "manslaughter year:2010..2015", lang: "en", kind: "field" },
  ...KNOWN_ANSWERS.filter((k) => k.jurisdiction === "UK").map((k) => ({ q: k.query, lang: "en" as const, kind: "known" as const })),
];

export const SEARCH_BENCH_QUERIES: readonly BenchQuery[] = (() => {
  const out = [...PL.slice(0, 20), ...EN.slice(0, 20)];
  // Every known answer must be among the 40 (the lists end with them); keep them even if a list grows past 20.
  for (const k of KNOWN_ANSWERS) {
    if (!out.some((q) => q.q === k.query)) out.push({ q: k.query, lang: k.jurisdiction === "PL" ? "pl" : "en", kind: "known" });
  }
  return out;
})();
