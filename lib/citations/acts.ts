/**
 * The acts a reference can name, PL and UK. A short table of the statutes criminal appeals cite most; an act not in
 * it still gets a stable id from its title (PL: the "o …" / "– …" part, which does not decline; UK: short title and
 * year) or, failing that, from its Dziennik Ustaw address. Pure data and lookups, no I/O.
 */
import { foldDiacritics } from "@/lib/text/fold";

export interface PlAct {
  /** The act's id in canonical provision ids: `PL/<id>/…`. */
  id: string;
  /** Canonical (nominative) name. */
  name: string;
  /** Abbreviations as written in judgments, dots optional (matched without dots and spaces). */
  abbreviations: string[];
  /** Folded name stems as the act is written in running text ("kodeksu karnego", "kodeks karny"). */
  stems: string[];
  /** Original Dziennik Ustaw address: year, number (before 2012), entry. */
  du: { year: number; nr: number | null; poz: number };
  /** Number of the act's last article (codes only): a larger number is a flattened superscript ("3531" = 353¹). */
  lastArticle?: number;
}

export const PL_ACTS: readonly PlAct[] = [
  { id: "kk", name: "Kodeks karny", abbreviations: ["kk"], stems: ["kodeks karn", "kodeksu karn", "kodeksie karn"], du: { year: 1997, nr: 88, poz: 553 }, lastArticle: 363 },
  { id: "kpk", name: "Kodeks postępowania karnego", abbreviations: ["kpk"], stems: ["kodeks postepowania karn", "kodeksu postepowania karn", "kodeksie postepowania karn"], du: { year: 1997, nr: 89, poz: 555 }, lastArticle: 682 },
  { id: "kkw", name: "Kodeks karny wykonawczy", abbreviations: ["kkw"], stems: ["kodeks karny wykonawcz", "kodeksu karnego wykonawcz", "kodeksie karnym wykonawcz"], du: { year: 1997, nr: 90, poz: 557 }, lastArticle: 262 },
  { id: "kks", name: "Kodeks karny skarbowy", abbreviations: ["kks"], stems: ["kodeks karny skarbow", "kodeksu karnego skarbow", "kodeksie karnym skarbow"], du: { year: 1999, nr: 83, poz: 930 }, lastArticle: 191 },
  { id: "kw", name: "Kodeks wykroczeń", abbreviations: ["kw"], stems: ["kodeks wykroczen", "kodeksu wykroczen", "kodeksie wykroczen"], du: { year: 1971, nr: 12, poz: 114 }, lastArticle: 166 },
  { id: "kpw", name: "Kodeks postępowania w sprawach o wykroczenia", abbreviations: ["kpw", "kpsw"], stems: ["kodeks postepowania w sprawach o wykroczenia", "kodeksu postepowania w sprawach o wykroczenia"], du: { year: 2001, nr: 106, poz: 1148 }, lastArticle: 124 },
  { id: "kc", name: "Kodeks cywilny", abbreviations: ["kc"], stems: ["kodeks cywiln", "kodeksu cywiln", "kodeksie cywiln"], du: { year: 1964, nr: 16, poz: 93 }, lastArticle: 1088 },
  { id: "kpc", name: "Kodeks postępowania cywilnego", abbreviations: ["kpc"], stems: ["kodeks postepowania cywiln", "kodeksu postepowania cywiln", "kodeksie postepowania cywiln"], du: { year: 1964, nr: 43, poz: 296 }, lastArticle: 1217 },
  { id: "kpa", name: "Kodeks postępowania administracyjnego", abbreviations: ["kpa"], stems: ["kodeks postepowania administracyjn", "kodeksu postepowania administracyjn", "kodeksie postepowania administracyjn"], du: { year: 1960, nr: 30, poz: 168 }, lastArticle: 269 },
  { id: "kp", name: "Kodeks pracy", abbreviations: ["kp"], stems: ["kodeks pracy", "kodeksu pracy", "kodeksie pracy"], du: { year: 1974, nr: 24, poz: 141 }, lastArticle: 305 },
  { id: "kro", name: "Kodeks rodzinny i opiekuńczy", abbreviations: ["kro"], stems: ["kodeks rodzinn", "kodeksu rodzinn", "kodeksie rodzinn"], du: { year: 1964, nr: 9, poz: 59 }, lastArticle: 184 },
  { id: "konst", name: "Konstytucja Rzeczypospolitej Polskiej", abbreviations: [], stems: ["konstytucj"], du: { year: 1997, nr: 78, poz: 483 } },
  { id: "upn", name: "Ustawa o przeciwdziałaniu narkomanii", abbreviations: ["upn", "uopn"], stems: ["o przeciwdzialaniu narkomanii"], du: { year: 2005, nr: 179, poz: 1485 } },
  { id: "uwt", name: "Ustawa o wychowaniu w trzeźwości i przeciwdziałaniu alkoholizmowi", abbreviations: [], stems: ["o wychowaniu w trzezwosci"], du: { year: 1982, nr: 35, poz: 230 } },
  { id: "prd", name: "Prawo o ruchu drogowym", abbreviations: ["prd", "pord"], stems: ["prawo o ruchu drogowym"], du: { year: 1997, nr: 98, poz: 602 } },
  { id: "uba", name: "Ustawa o broni i amunicji", abbreviations: [], stems: ["o broni i amunicji"], du: { year: 1999, nr: 53, poz: 549 } },
  { id: "uosk", name: "Ustawa o opłatach w sprawach karnych", abbreviations: [], stems: ["o oplatach w sprawach karnych"], du: { year: 1973, nr: 27, poz: 152 } },
  { id: "uppm", name: "Ustawa o przeciwdziałaniu przemocy w rodzinie", abbreviations: [], stems: ["o przeciwdzialaniu przemocy w rodzinie"], du: { year: 2005, nr: 180, poz: 1493 } },
];

const PL_BY_ABBR = new Map<string, PlAct>();
for (const a of PL_ACTS) for (const ab of a.abbreviations) PL_BY_ABBR.set(ab, a);

/** The act an abbreviation names ("k.p.k.", "kpk", "K.K."), else null. */
export function plActByAbbreviation(abbr: string): PlAct | null {
  return PL_BY_ABBR.get(abbr.toLowerCase().replace(/[\s.]/g, "")) ?? null;
}

/** The act a (possibly declined) name names: "kodeksu karnego", "ustawy o przeciwdziałaniu narkomanii". */
export function plActByName(name: string): PlAct | null {
  const f = foldDiacritics(name).replace(/\s+/g, " ");
  let best: PlAct | null = null;
  let bestLen = 0;
  for (const a of PL_ACTS) {
    for (const s of a.stems) {
      if (f.includes(s) && s.length > bestLen) {
        best = a;
        bestLen = s.length;
      }
    }
  }
  return best;
}

/** The act published at a Dziennik Ustaw address (its original publication), else null. */
export function plActByAddress(year: number, nr: number | null, poz: number): PlAct | null {
  return PL_ACTS.find((a) => a.du.year === year && a.du.poz === poz && (nr === null || a.du.nr === null || a.du.nr === nr)) ?? null;
}

export function plActById(id: string): PlAct | null {
  return PL_ACTS.find((a) => a.id === id) ?? null;
}

/** A stable id for an act outside the table, from the invariant part of its title ("o opłatach w sprawach karnych"). */
export function plTitleId(title: string): string | null {
  const f = foldDiacritics(title)
    .replace(/[^a-z0-9 ]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  // "Ustawa z dnia 24 lutego 1990 r. o przeciwdziałaniu …" / "ustawy - Prawo upadłościowe …": from " o " or the dash.
  const m = /(?:^|\s)(o\s.+)$/.exec(f.replace(/^.*?\b(?:r|roku)\b\s*/, "")) ?? null;
  const tail = m ? m[1] : f.replace(/^(ustaw\w*|rozporzadzeni\w*)(\s+z\s+dnia\s+\d+\s+\w+\s+\d{4}\s+(r|roku))?\s*/, "");
  const words = tail.split(" ").filter(Boolean);
  if (words.length < 2) return null;
  return `u-${words.join("-")}`;
}

/** The id of an act only known by its Dziennik Ustaw address. */
export function plAddressId(year: number, nr: number | null, poz: number): string {
  return nr === null ? `du-${year}-${poz}` : `du-${year}-${nr}-${poz}`;
}

export interface UkAct {
  /** Short title without the year. */
  title: string;
  year: number;
  /** Chapter number in its year (legislation.gov.uk `ukpga/<year>/<chapter>`). */
  chapter: number;
  /** Abbreviations used in judgments ("OAPA"). */
  abbreviations: string[];
}

export const UK_ACTS: readonly UkAct[] = [
  { title: "Offences Against the Person Act", year: 1861, chapter: 100, abbreviations: ["OAPA"] },
  { title: "Accessories and Abettors Act", year: 1861, chapter: 94, abbreviations: [] },
  { title: "Theft Act", year: 1968, chapter: 60, abbreviations: ["TA"] },
  { title: "Theft Act", year: 1978, chapter: 31, abbreviations: [] },
  { title: "Criminal Damage Act", year: 1971, chapter: 48, abbreviations: ["CDA"] },
  { title: "Misuse of Drugs Act", year: 1971, chapter: 38, abbreviations: ["MDA"] },
  { title: "Criminal Law Act", year: 1977, chapter: 45, abbreviations: [] },
  { title: "Criminal Attempts Act", year: 1981, chapter: 47, abbreviations: [] },
  { title: "Senior Courts Act", year: 1981, chapter: 54, abbreviations: [] },
  { title: "Police and Criminal Evidence Act", year: 1984, chapter: 60, abbreviations: ["PACE"] },
  { title: "Prosecution of Offences Act", year: 1985, chapter: 23, abbreviations: [] },
  { title: "Public Order Act", year: 1986, chapter: 64, abbreviations: [] },
  { title: "Criminal Justice Act", year: 1988, chapter: 33, abbreviations: ["CJA 1988"] },
  { title: "Road Traffic Act", year: 1988, chapter: 52, abbreviations: ["RTA"] },
  { title: "Criminal Appeal Act", year: 1968, chapter: 19, abbreviations: ["CAA"] },
  { title: "Firearms Act", year: 1968, chapter: 27, abbreviations: [] },
  { title: "Protection from Harassment Act", year: 1997, chapter: 40, abbreviations: ["PHA"] },
  { title: "Crime and Disorder Act", year: 1998, chapter: 37, abbreviations: [] },
  { title: "Human Rights Act", year: 1998, chapter: 42, abbreviations: ["HRA"] },
  { title: "Youth Justice and Criminal Evidence Act", year: 1999, chapter: 23, abbreviations: ["YJCEA"] },
  { title: "Terrorism Act", year: 2000, chapter: 11, abbreviations: [] },
  { title: "Proceeds of Crime Act", year: 2002, chapter: 29, abbreviations: ["POCA"] },
  { title: "Criminal Justice Act", year: 2003, chapter: 44, abbreviations: ["CJA", "CJA 2003"] },
  { title: "Sexual Offences Act", year: 2003, chapter: 42, abbreviations: ["SOA"] },
  { title: "Fraud Act", year: 2006, chapter: 35, abbreviations: [] },
  { title: "Serious Crime Act", year: 2007, chapter: 27, abbreviations: [] },
  { title: "Coroners and Justice Act", year: 2009, chapter: 25, abbreviations: [] },
  { title: "Legal Aid, Sentencing and Punishment of Offenders Act", year: 2012, chapter: 10, abbreviations: ["LASPO"] },
  { title: "Modern Slavery Act", year: 2015, chapter: 30, abbreviations: [] },
  { title: "Sentencing Act", year: 2020, chapter: 17, abbreviations: ["SA 2020"] },
  { title: "Bail Act", year: 1976, chapter: 63, abbreviations: [] },
  { title: "Prevention of Crime Act", year: 1953, chapter: 14, abbreviations: [] },
  { title: "Homicide Act", year: 1957, chapter: 11, abbreviations: [] },
  { title: "Criminal Justice and Public Order Act", year: 1994, chapter: 33, abbreviations: ["CJPOA"] },
  { title: "Powers of Criminal Courts (Sentencing) Act", year: 2000, chapter: 6, abbreviations: ["PCC(S)A"] },
  { title: "Criminal Procedure and Investigations Act", year: 1996, chapter: 25, abbreviations: ["CPIA"] },
  { title: "Road Traffic Offenders Act", year: 1988, chapter: 53, abbreviations: [] },
  { title: "Domestic Violence, Crime and Victims Act", year: 2004, chapter: 28, abbreviations: [] },
  { title: "Children and Young Persons Act", year: 1933, chapter: 12, abbreviations: [] },
  { title: "Protection of Children Act", year: 1978, chapter: 37, abbreviations: [] },
  { title: "Magistrates' Courts Act", year: 1980, chapter: 43, abbreviations: [] },
  { title: "Mental Health Act", year: 1983, chapter: 20, abbreviations: [] },
  { title: "Criminal Law Act", year: 1967, chapter: 58, abbreviations: [] },
  { title: "Sexual Offences Act", year: 1956, chapter: 69, abbreviations: [] },
  { title: "Explosive Substances Act", year: 1883, chapter: 3, abbreviations: [] },
  { title: "Customs and Excise Management Act", year: 1979, chapter: 2, abbreviations: ["CEMA"] },
  { title: "Computer Misuse Act", year: 1990, chapter: 18, abbreviations: [] },
  { title: "Bribery Act", year: 2010, chapter: 23, abbreviations: [] },
  { title: "Serious Crime Act", year: 2015, chapter: 9, abbreviations: [] },
  { title: "Psychoactive Substances Act", year: 2016, chapter: 2, abbreviations: [] },
  { title: "Domestic Abuse Act", year: 2021, chapter: 17, abbreviations: [] },
  { title: "Counter-Terrorism and Sentencing Act", year: 2021, chapter: 11, abbreviations: [] },
  { title: "Police, Crime, Sentencing and Courts Act", year: 2022, chapter: 32, abbreviations: [] },
];

const foldTitle = (s: string) => s.toLowerCase().replace(/^the\s+/, "").replace(/[^a-z0-9]+/g, " ").trim();
const UK_BY_TITLE = new Map<string, UkAct>();
for (const a of UK_ACTS) UK_BY_TITLE.set(`${foldTitle(a.title)} ${a.year}`, a);

/** The act of a short title and year ("the Theft Act", 1968), else null. */
export function ukActByTitle(title: string, year: number): UkAct | null {
  return UK_BY_TITLE.get(`${foldTitle(title)} ${year}`) ?? null;
}

/** The act an abbreviation names, with its year when written ("OAPA", "OAPA 1861", "CJA 2003"), else null. */
export function ukActByAbbreviation(abbr: string, year?: number): UkAct | null {
  const a = abbr.toUpperCase();
  const hits = UK_ACTS.filter((x) => x.abbreviations.some((ab) => ab === a || ab === `${a} ${year}`) && (year === undefined || x.year === year));
  return hits.length === 1 ? hits[0] : null;
}

export function ukActByChapter(year: number, chapter: number): UkAct | null {
  return UK_ACTS.find((a) => a.year === year && a.chapter === chapter) ?? null;
}

/** The act part of a UK canonical id: `ukpga/<year>/<chapter>` when known, else `act/<short-title-slug>-<year>`. */
export function ukActId(title: string, year: number): string {
  const a = ukActByTitle(title, year);
  return a ? `ukpga/${a.year}/${a.chapter}` : `act/${foldTitle(title).replace(/ /g, "-")}-${year}`;
}
