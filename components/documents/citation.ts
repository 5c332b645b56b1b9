/**
 * The citation a reader copies: a UK judgment's neutral citation ("[2015] EWCA Crim 1390", after the case name when
 * there is one), a Polish judgment in the form Polish lawyers write ("II AKa 516/19, wyrok SA w Poznaniu z
 * 5.04.2019 r."), and the permalink path by citation (/cite/…).
 */
import type { Judgment } from "./judgment";

/** The usual abbreviations of Polish court names: "Sąd Apelacyjny w Poznaniu" → "SA w Poznaniu". */
const PL_COURTS: Array<[RegExp, string]> = [
  [/^Sąd Najwyższy\b/i, "SN"],
  [/^Sąd Apelacyjny\b/i, "SA"],
  [/^Sąd Okręgowy\b/i, "SO"],
  [/^Sąd Rejonowy\b/i, "SR"],
  [/^Naczelny Sąd Administracyjny\b/i, "NSA"],
  [/^Wojewódzki Sąd Administracyjny\b/i, "WSA"],
  [/^Trybunał Konstytucyjny\b/i, "TK"],
];

export function plCourtShort(court: string): string {
  for (const [re, short] of PL_COURTS) if (re.test(court)) return court.replace(re, short);
  return court;
}

/** "2019-04-05" → "5.04.2019" (the Polish citation's day without a leading zero, month with one). */
function plDate(iso: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  return m ? `${Number(m[3])}.${m[2]}.${m[1]}` : null;
}

export function neutralCitation(j: Judgment): string | null {
  const v = j.base.base_neutral_citation_number;
  return typeof v === "string" && v.trim() ? v.trim() : null;
}

export function citationText(j: Judgment): string {
  const ncn = neutralCitation(j);
  if (ncn) return j.title && !j.title.includes(ncn) ? `${j.title} ${ncn}` : ncn;
  if (j.country === "PL" && j.caseNumber) {
    const kind = j.decisionType ? j.decisionType.toLowerCase() : "orzeczenie";
    const court = j.courtName ? ` ${plCourtShort(j.courtName)}` : "";
    const date = j.dateIssued ? plDate(j.dateIssued) : null;
    return `${j.caseNumber}, ${kind}${court}${date ? ` z ${date} r.` : ""}`;
  }
  return [j.title || null, j.caseNumber, j.courtName, j.dateIssued?.slice(0, 10)].filter(Boolean).join(", ");
}

/** The permalink path: by neutral citation, else by case number, else the judgment's own page. */
export function permalinkPath(j: Judgment): string {
  const ref = neutralCitation(j) ?? j.caseNumber;
  if (!ref) return `/documents/${encodeURIComponent(j.id)}`;
  // Slashes stay path separators: /cite/II AKa 516/19 is read back by the catch-all route.
  return `/cite/${ref.split("/").map(encodeURIComponent).join("/")}`;
}
