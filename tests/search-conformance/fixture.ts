/**
 * A small hand-made corpus whose answers are known by construction, shared by every adapter's conformance run.
 * Rows have the shape of `judgments` rows (what sync reads), so they go through the same `buildIndexBatch`.
 */
import type { JudgmentRow } from "@/lib/search/document";

export const fixtureId = (n: number): string => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

/** ~600 words so the judgment has several chunks; the marker sentence sits in the third chunk. */
function longText(lead: string, marker: string): string {
  const filler = (i: number) =>
    `Paragraph ${i}. The court considered the grounds of appeal and the submissions of counsel for the appellant and for the Crown in detail.`;
  const parts: string[] = [lead];
  for (let i = 1; i <= 40; i++) {
    parts.push(filler(i));
    if (i === 22) parts.push(marker);
  }
  return parts.join(" ");
}

interface Spec {
  n: number;
  j: "PL" | "UK";
  title: string;
  summary?: string | null;
  date: string;
  case_number?: string;
  /** base_neutral_citation_number (UK neutral citation; the seed repeats a PL sygnatura there). */
  neutral?: string;
  court?: string;
  keywords?: string[];
  topics?: string[];
  full?: string;
  victims?: number | null;
  confess?: boolean | null;
  outcome?: string[];
  case_name?: string;
}

const SPECS: Spec[] = [
  {
    n: 1,
    j: "UK",
    title: "R v Smith: murder by stabbing with a kitchen knife",
    summary: "Appeal against conviction for murder; the victim was stabbed with a kitchen knife at home.",
    date: "2019-05-10",
    case_number: "2019/01234/B1",
    neutral: "[2019] EWCA Crim 710",
    victims: 1,
    confess: false,
    outcome: ["outcome_dismissed_or_refused"],
    full: longText(
      "The appellant was convicted of murder.",
      "The pathologist described a single deep wound caused by a serrated blade that pierced the left ventricle.",
    ),
    case_name: "R v Smith",
  },
  {
    n: 2,
    j: "UK",
    title: "R v Jones: manslaughter after a pub fight",
    summary: "Sentence appeal following a conviction for manslaughter after a single punch outside a pub.",
    date: "2015-03-02",
    victims: 1,
    confess: true,
    outcome: ["outcome_sentence_more_lenient"],
    full: "The appellant pleaded guilty to manslaughter. One punch caused the fall.",
  },
  {
    n: 3,
    j: "UK",
    title: "R v Patel: armed robbery of a jewellery shop",
    neutral: "[2021] EWHC 123 (QB)",
    summary: "Armed robbery committed with an imitation firearm; sentence of nine years upheld.",
    date: "2021-11-23",
    victims: 3,
    confess: false,
    outcome: ["outcome_dismissed_or_refused"],
    full: "Three staff members were threatened during the armed robbery.",
  },
  {
    n: 4,
    j: "UK",
    title: "R v Brown: domestic burglary sentence excessive",
    summary: "The sentence for domestic burglary was reduced on appeal.",
    date: "2012-07-14",
    victims: 2,
    confess: true,
    outcome: ["outcome_sentence_more_lenient"],
    full: "The appellant entered the dwelling at night while the occupants slept.",
  },
  {
    n: 5,
    j: "UK",
    title: "R v Green: mortgage fraud conspiracy",
    summary: "Conspiracy to defraud lenders through false mortgage applications.",
    date: "2008-01-30",
    victims: null,
    confess: null,
    outcome: ["outcome_conviction_quashed"],
    full: "The prosecution relied on documents seized from the broker's office.",
  },
  {
    n: 6,
    j: "UK",
    title: "R v White: supply of class A drugs",
    summary: "Possession with intent to supply heroin and cocaine.",
    date: "2017-09-05",
    victims: 0,
    outcome: ["outcome_dismissed_or_refused"],
    full: "Police found wraps of heroin in the vehicle.",
  },
  {
    n: 7,
    j: "UK",
    title: "R v Black: causing death by dangerous driving",
    summary: "The driver was travelling at excessive speed in a residential street.",
    date: "2020-02-18",
    victims: 1,
    outcome: ["outcome_sentence_more_severe"],
    full: "The collision occurred at dusk near a school.",
  },
  {
    n: 8,
    j: "UK",
    title: "R v Gray: arson with intent to endanger life",
    summary: "The appellant set fire to a neighbour's flat.",
    date: "2011-04-08",
    victims: 2,
    full: "Petrol was poured through the letterbox.",
  },
  {
    n: 9,
    j: "UK",
    title: "R v Cole: criminal damage to a warehouse",
    summary: "Damage to stock and premises.",
    date: "2014-10-01",
    victims: 0,
    full: "The prosecution first alleged arson, then arson was withdrawn; the arson count was left on the file.",
  },
  {
    n: 10,
    j: "UK",
    title: "R v Khan: armed robbery of a post office",
    summary: "Armed robbery of a sub-post office by two masked men.",
    date: "2016-06-21",
    victims: 2,
    court: "Court of Appeal Criminal Division",
    full: "The robbers escaped on a motorcycle.",
  },
  {
    n: 11,
    j: "UK",
    title: "R v O'Neil & <Co>: fraud by abuse of position",
    summary: "A company director abused his position of trust.",
    date: "2009-12-11",
    full: "Funds were transferred to accounts controlled by the appellant.",
  },
  {
    n: 12,
    j: "PL",
    title: "Wyrok Sądu Apelacyjnego w Krakowie: zabójstwo z użyciem noża",
    summary: "Apelacja obrońcy od wyroku skazującego za zabójstwo; oskarżony zadał cios nożem.",
    date: "2018-03-15",
    case_number: "II AKa 123/18",
    court: "Sąd Apelacyjny w Krakowie",
    keywords: ["zabójstwo", "nóż"],
    topics: ["prawo karne materialne"],
    victims: 1,
    confess: false,
    outcome: ["outcome_dismissed_or_refused"],
    full: "Sąd Apelacyjny zważył, co następuje. Apelacja nie zasługiwała na uwzględnienie.",
  },
  {
    n: 13,
    j: "PL",
    title: "Wyrok Sądu Apelacyjnego w Warszawie: rozbój z użyciem niebezpiecznego narzędzia",
    summary: "Rozbój z użyciem maczety; kara pozbawienia wolności utrzymana.",
    date: "2016-09-09",
    court: "Sąd Apelacyjny w Warszawie",
    keywords: ["rozbój"],
    topics: ["prawo karne materialne", "wymiar kary"],
    victims: 1,
    full: "Oskarżony groził pokrzywdzonemu maczetą.",
  },
  {
    n: 14,
    j: "PL",
    title: "Wyrok Sądu Apelacyjnego w Poznaniu: kradzież z włamaniem",
    summary: "Kradzież z włamaniem do sklepu; kara złagodzona.",
    date: "2010-05-05",
    court: "Sąd Apelacyjny w Poznaniu",
    keywords: ["kradzież z włamaniem"],
    topics: ["wymiar kary"],
    victims: 0,
    full: "Sprawca wybił szybę wystawową.",
  },
  {
    n: 15,
    j: "PL",
    title: "Wyrok Sądu Apelacyjnego w Gdańsku: oszustwo kredytowe",
    summary: "Oszustwo przy uzyskaniu kredytu na podstawie sfałszowanych zaświadczeń.",
    date: "2005-11-30",
    court: "Sąd Apelacyjny w Gdańsku",
    keywords: ["oszustwo"],
    topics: ["prawo karne gospodarcze"],
    victims: 1,
    outcome: ["outcome_conviction_quashed"],
    full: "Bank udzielił kredytu na podstawie fałszywych dokumentów.",
  },
  {
    n: 16,
    j: "PL",
    title: "Wyrok Sądu Apelacyjnego we Wrocławiu: wprowadzanie do obrotu środków odurzających",
    summary: "Handel amfetaminą w znacznej ilości.",
    date: "2022-01-12",
    court: "Sąd Apelacyjny we Wrocławiu",
    keywords: ["narkotyki"],
    topics: ["przestępstwa narkotykowe"],
    victims: 0,
    full: "Oskarżony sprzedawał amfetaminę.",
  },
  {
    n: 17,
    j: "PL",
    title: "Wyrok Sądu Apelacyjnego w Łodzi: pobicie ze skutkiem śmiertelnym",
    summary: "Udział w pobiciu, którego następstwem była śmierć pokrzywdzonego.",
    date: "2013-02-27",
    court: "Sąd Apelacyjny w Łodzi",
    keywords: ["pobicie"],
    topics: ["prawo karne materialne"],
    victims: 1,
    full: "Pokrzywdzony zmarł w szpitalu.",
  },
  {
    n: 18,
    j: "PL",
    title: "Wyrok Sądu Apelacyjnego w Katowicach: znęcanie się nad rodziną",
    summary: null,
    date: "2009-06-16",
    court: "Sąd Apelacyjny w Katowicach",
    keywords: ["znęcanie"],
    topics: ["przemoc domowa"],
    victims: 2,
    full: "Oskarżony znęcał się fizycznie i psychicznie nad żoną.",
  },
];

export const FIXTURE_ROWS: JudgmentRow[] = SPECS.map((s) => ({
  id: fixtureId(s.n),
  title: s.title,
  case_number: s.case_number ?? (s.j === "UK" ? `20${String(s.n).padStart(2, "0")}/0${s.n}/A1` : `II AKa ${s.n}/20`),
  summary: s.summary === undefined ? null : s.summary,
  court_name: s.court ?? (s.j === "UK" ? "Court of Appeal (Criminal Division)" : "Sąd Apelacyjny"),
  judges: [{ name: s.j === "UK" ? "Lord Justice Holroyde" : "SSA Jan Kowalski", role: "presiding" }],
  keywords: s.keywords ?? [],
  legal_topics: s.topics ?? [],
  cited_legislation: [],
  full_text: s.full ?? "",
  jurisdiction: s.j,
  court_level: "appeal",
  case_type: "criminal",
  decision_type: "fixture",
  outcome: null,
  decision_date: s.date,
  publication_date: s.date,
  source_url: `https://example.org/judgments/${s.n}`,
  created_at: "2024-01-01T00:00:00Z",
  updated_at: "2024-01-01T00:00:00Z",
  base_num_victims: s.victims === undefined ? null : s.victims,
  base_did_offender_confess: s.confess === undefined ? null : s.confess,
  base_appeal_outcome: s.outcome ?? null,
  base_case_name: s.case_name ?? null,
  // Citation lookup: the UK judgments share year, court and division, so only the number tells
  // them apart.
  base_neutral_citation_number: s.neutral ?? (s.j === "UK" ? `[2019] EWCA Crim ${800 + s.n}` : `II AKa ${s.n}/20`),
  base_extraction_status: "completed",
}));

/** Ids by role in the tests. */
export const F = {
  smith: fixtureId(1),
  jones: fixtureId(2),
  patel: fixtureId(3),
  brown: fixtureId(4),
  green: fixtureId(5),
  white: fixtureId(6),
  black: fixtureId(7),
  gray: fixtureId(8),
  cole: fixtureId(9),
  khan: fixtureId(10),
  oneil: fixtureId(11),
  zabojstwo: fixtureId(12),
  rozboj: fixtureId(13),
  kradziez: fixtureId(14),
  oszustwo: fixtureId(15),
  narkotyki: fixtureId(16),
  pobicie: fixtureId(17),
  znecanie: fixtureId(18),
} as const;

export const PL_COUNT = SPECS.filter((s) => s.j === "PL").length;
export const FIXTURE_COUNT = SPECS.length;
