/**
 * The rule-based extractor, "rules-v1": the no-model default. It finds only what the layout of
 * Polish and England & Wales appeal judgments states reliably — case number (sygnatura), neutral citation, court,
 * judges and their roles, decision and hearing dates, who appealed, the representatives, offences cited as
 * `art. N § M k.k.` or statute sections, custodial sentences, and the outcome of the operative part — and leaves
 * everything else null. Pure functions over the text: no I/O, deterministic, no model.
 */
import { parseDate, PL_DATE, squash, titleCase, unique } from "./text";

export const RULES_MODEL = "rules-v1";

/** Values the base schema uses for who appealed and how the appeal ended (lib/schema/fields.ts). */
export type Appellant = "offender" | "attorney_general" | "other";
export type Outcome =
  | "outcome_dismissed_or_refused"
  | "outcome_conviction_quashed"
  | "outcome_sentence_more_severe"
  | "outcome_sentence_more_lenient"
  | "outcome_other";

export interface RulesJudge {
  name: string;
  role: string | null;
}

export interface RulesResult {
  language: "pl" | "en";
  case_number: string | null;
  neutral_citation: string | null;
  court: string | null;
  judges: RulesJudge[];
  decision_date: string | null;
  hearing_date: string | null;
  appellant: Appellant | null;
  defence_representative: string | null;
  prosecution_representative: string | null;
  offences: string[];
  sentences: string[];
  outcome: Outcome | null;
}

/** The fields this extractor can fill; a schema field with another name stays null in rules mode. */
export const RULES_FIELDS = [
  "case_number",
  "neutral_citation",
  "court",
  "judges",
  "decision_date",
  "hearing_date",
  "appellant",
  "defence_representative",
  "prosecution_representative",
  "offences",
  "sentences",
  "outcome",
] as const;

/** Polish when the Polish markers outnumber the English ones in the opening. */
export function detectLanguage(text: string): "pl" | "en" {
  const head = text.slice(0, 4000);
  const pl = (head.match(/\b(?:Sygn|wyrok|Sąd|oskarżon|apelacj|sprawy|Dnia|k\.k\.)/giu) ?? []).length;
  const en = (head.match(/\b(?:the|Court|Appeal|Before|Judgment|Crown|appellant)\b/g) ?? []).length;
  return pl > en ? "pl" : "en";
}

export function extractRules(fullText: string): RulesResult {
  const text = fullText.replace(/\r\n?/g, "\n");
  return detectLanguage(text) === "pl" ? extractPl(text) : extractEn(text);
}

// ---------------------------------------------------------------- Polish

// A first name and one or two surnames, each possibly double-barrelled ("Leszczyńska-Furtak").
const PL_WORD = String.raw`[\p{Lu}][\p{Ll}']+(?:-[\p{Lu}][\p{Ll}']+)?`;
const PL_NAME = String.raw`${PL_WORD}(?:\s+${PL_WORD}){1,2}`;
const PL_JUDGE_TITLE = String.raw`(?:SSA|SSO|SSN|SSR|SA|SO|SR|SN|[Ss]ędzia(?:\s+S[AOR])?)`;

/** The operative part (sentencja): everything before the reasons. */
function plOperative(text: string): string {
  const i = text.search(/^\s*UZASADNIENIE\s*$/mu);
  return i > 0 ? text.slice(0, i) : text.slice(0, 6000);
}

const NOT_OFFENCES = new Set(["11", "12", "64", "65"]);

/** "art. 148 § 1 k.k." style citations inside `s`, normalised, in order. */
export function plArticles(s: string): string[] {
  const out: string[] = [];
  const re = /art\.\s*(\d+[a-z]?)\s*(?:§\s*(\d+[a-z]?))?\s*(?:pkt\s*(\d+))?\s*(?=(?:[^.;\n]{0,60}?)k\.k\.)/gu;
  // Only citations whose code is k.k. (criminal code): find each "... k.k." run and read the articles in it.
  for (const run of s.matchAll(/art\.[^;\n]*?k\.k\.(?:\s*(?:w zw\. z|i|oraz)\s*art\.[^;\n]*?k\.k\.)*/gu)) {
    for (const m of run[0].matchAll(re)) {
      // Rules on how a crime is committed or punished (continuing act, recidivism, concurrence) are not offences.
      if (NOT_OFFENCES.has(m[1])) continue;
      out.push(`art. ${m[1]}${m[2] ? ` § ${m[2]}` : ""}${m[3] ? ` pkt ${m[3]}` : ""} k.k.`);
    }
  }
  return unique(out);
}

/** "10 lat", "2 lat i 6 miesięcy", "1 roku", "8 miesięcy" before "pozbawienia wolności". */
const PL_TERM = String.raw`(\d+\s+(?:lat|lata|roku|rok)(?:\s+i\s+\d+\s+(?:miesięcy|miesiące|miesiąca))?|\d+\s+(?:miesięcy|miesiące|miesiąca))`;

function plJudges(head: string): RulesJudge[] {
  const start = head.search(/w składzie/iu);
  if (start < 0) return [];
  const endRel = head.slice(start).search(/Protokolant|przy udziale|po rozpoznaniu/iu);
  const block = head.slice(start, endRel > 0 ? start + endRel : start + 600);
  const judges: RulesJudge[] = [];
  let role: string | null = null;
  for (const line of block.split("\n")) {
    const label = /^\s*(Przewodnicząc\p{Ll}*|Sędziowie|Sędzia)\s*:/iu.exec(line);
    if (label) role = /^Przewodnicz/iu.test(label[1]) ? "Przewodniczący" : "Sędzia";
    for (const m of line.matchAll(new RegExp(String.raw`${PL_JUDGE_TITLE}\s+(?:del\.\s+)?(${PL_NAME})(\s*\((?:spr\.?|sprawozdawca)\))?`, "gu"))) {
      const base = role ?? (judges.length === 0 ? "Przewodniczący" : "Sędzia");
      judges.push({ name: squash(m[1]), role: m[2] && base === "Sędzia" ? "Sędzia (sprawozdawca)" : base });
    }
    if (label && role === "Przewodniczący" && judges.length) role = "Sędzia"; // the chair's line names only the chair
  }
  return judges;
}

export function extractPl(text: string): RulesResult {
  const head = text.slice(0, 5000);
  const operative = plOperative(text);

  const caseNumber = /Sygn(?:\.|atura)\s*(?:akt)?\s*:?\s*([IVXL]+\s+[A-Za-z]{1,5}\s+\d+\/\d{2,4})/u.exec(head)?.[1] ?? null;

  // The court that gave this judgment heads the operative part; courts named later are the ones appealed from.
  let court: string | null = null;
  const courtRe = /^\s*(Sąd\s+(?:Najwyższy|(?:Apelacyjny|Okręgowy|Rejonowy)\s+we?\s+[\p{Lu}][\p{L}-]+(?:\s+[\p{Lu}][\p{L}-]+)?))(?=\s+(?:w\s+)?[IVXL]+\s+Wydzia|\s+w składzie|\s+z siedzibą|\s*[:,]|\s*$)/mu;
  const courtMatch = courtRe.exec(operative.slice(0, 5000));
  if (courtMatch) court = squash(courtMatch[1]);

  const decided = new RegExp(String.raw`^\s*(?:Dnia|Warszawa,\s*dnia|\p{Lu}\p{Ll}+,\s*dnia)\s+${PL_DATE}`, "mu").exec(head);
  const hearing = new RegExp(String.raw`(?:po rozpoznaniu|na rozprawie|na posiedzeniu)[^\n]{0,40}?w dniu\s+${PL_DATE}`, "iu").exec(head);

  const appealBy = /(?:apelacji|apelacj[ię] wniesionej?|na skutek apelacji wniesionej)\s+(?:wniesionej\s+)?(?:przez\s+)?(obrońc\p{Ll}+|prokurator\p{Ll}*|pełnomocnik\p{Ll}* oskarżyciel\p{Ll}*|oskarżon\p{Ll}+)/iu.exec(head);
  const appellant: Appellant | null = !appealBy
    ? null
    : /^prokurator/iu.test(appealBy[1])
      ? "attorney_general"
      : /^pełnomocnik/iu.test(appealBy[1])
        ? "other"
        : "offender";

  const defence = /(adw\.|adwokat|r\.\s?pr\.|radca prawny)\s+(PL_NAME)/u.source.replace("PL_NAME", PL_NAME);
  const defenceMatch = new RegExp(defence, "u").exec(text);
  const prosecutor = new RegExp(String.raw`(?:przy udziale prokuratora|prokurator)[^\n–-]{0,80}[–-]\s*(?:prok\.\s*)?(${PL_NAME})`, "u").exec(head);

  // Offences: the charge in the heading ("oskarżonego z art. …") and the "tj. przestępstwa z art. …" of the reasons.
  // Acquittals ("uniewinnił … od popełnienia czynu z art. …") are not offences of the conviction.
  const offenceRuns = [
    ...text.matchAll(/(?:oskarżon\p{Ll}*|przestępstw\p{Ll}*|występk\p{Ll}*|zbrodni\p{Ll}*|czynu)\s+(?:z|określonego w)\s+(art\.[^\n;]*?k\.k\.(?:\s*(?:w zw\. z|i|oraz)\s*art\.[^\n;]*?k\.k\.)*)/gu),
  ]
    .filter((m) => !/uniewinni\p{Ll}*[^.;\n]{0,80}$/u.test(text.slice(Math.max(0, (m.index ?? 0) - 100), m.index)))
    .map((m) => m[1]);
  const offences = unique(offenceRuns.flatMap(plArticles));

  const sentences = unique(
    [...text.matchAll(new RegExp(String.raw`kar[ęaęy]\s+(?:łączną\s+)?${PL_TERM}\s+pozbawienia\s+wolności`, "giu"))].map(
      (m) => `${squash(m[1])} pozbawienia wolności`,
    ),
  );

  return {
    language: "pl",
    case_number: caseNumber ? squash(caseNumber) : null,
    neutral_citation: null, // Polish judgments have none; the sygnatura is the case number
    court,
    judges: plJudges(head),
    decision_date: decided ? parseDate(decided[0]) : null,
    hearing_date: hearing ? parseDate(hearing[0]) : null,
    appellant,
    defence_representative: defenceMatch ? `${/^adw|^adwokat/u.test(defenceMatch[1]) ? "adw." : "r.pr."} ${squash(defenceMatch[2])}` : null,
    prosecution_representative: prosecutor ? `prok. ${squash(prosecutor[1])}` : null,
    offences,
    sentences,
    outcome: plOutcome(operative),
  };
}

function plOutcome(op: string): Outcome | null {
  if (/uniewinnia/iu.test(op)) return "outcome_conviction_quashed";
  if (/obniża[^;]*kar/iu.test(op)) return "outcome_sentence_more_lenient";
  if (/podwyższa[^;]*kar/iu.test(op)) return "outcome_sentence_more_severe";
  if (/uchyla zaskarżony wyrok/iu.test(op)) return "outcome_other";
  if (/(?<!pozostałej części zaskarżony wyrok )utrzymuje w mocy|pozostawia bez rozpoznania|oddala/iu.test(op)) return "outcome_dismissed_or_refused";
  return null;
}

// ---------------------------------------------------------------- England & Wales

const EN_TERM = String.raw`(?:\d+\s+years?(?:\s+and\s+\d+\s+months?)?|\d+\s+months?)['’]?\s+(?:imprisonment|detention(?:\s+in\s+a\s+young\s+offender\s+institution)?|custody)(?:,?\s+suspended\s+for\s+\d+\s+(?:years?|months?))?|life imprisonment(?: with a minimum term of \d+ years)?|an extended (?:determinate )?sentence of \d+ years`;

function enJudges(head: string): RulesJudge[] {
  const m = /^\s*Before\s*:?\s*$([\s\S]*?)^\s*(?:-\s*-|Between|_{3,}|R E G|REGINA|REX)/im.exec(head);
  if (!m) return [];
  const names = m[1]
    .split("\n")
    .map((l) => l.trim().replace(/^and\s+/i, "").replace(/,$/, ""))
    .filter((l) => l && !/^and$/i.test(l) && !l.startsWith("(") && /[A-Z]/.test(l)); // "(Sitting as a Judge of the CACD)"
  return names.map((n, i) => ({ name: titleCase(n), role: i === 0 ? "presiding" : "judge" }));
}

/** "Friday 22nd November 2019", "5 and 6 November 2019" (the first day), "14/03/2023". */
function parseEnDateLine(line: string): string | null {
  const s = line
    .replace(/^\s*(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day,?\s+/i, "")
    .replace(/^(\d{1,2})(?:st|nd|rd|th)?\s*(?:and|-|–|&|,)\s*\d{1,2}(?:st|nd|rd|th)?(?=\s+[A-Z])/i, "$1");
  return parseDate(s);
}

export function extractEn(text: string): RulesResult {
  const head = text.slice(0, 5000);
  const neutral = /\[(\d{4})\]\s+(EWCA|UKSC|EWHC|UKPC|UKHL)\s+(Crim|Civ|Admin)?\s*(\d+)/.exec(head);
  const caseNo = /Case\s+No(?:s)?[:.]?\s*([A-Z0-9][A-Z0-9 /-]*?)\s*$/im.exec(head);
  const courtLine = /^\s*(?:IN\s+)?THE\s+(COURT OF APPEAL(?:\s*\((?:CRIMINAL|CIVIL) DIVISION\))?|SUPREME COURT|CROWN COURT AT [A-Z ]+|HIGH COURT OF JUSTICE)\s*$/m.exec(head);
  const decided = /^\s*Date\s*:\s*([^\n]+)/im.exec(head);
  const hearing = /^\s*Hearing\s+dates?\s*:\s*([^\n]+)/im.exec(head);

  // A reference by the law officers, said in the title block or the opening paragraph (not a precedent cited later).
  const reference =
    /\(Reference (?:by|under)[^\n)]*|^\s*REFERENCE BY (?:HIS|HER) MAJESTY['’]S (?:SOLICITOR|ATTORNEY) GENERAL|^\s*(?:ATTORNEY|SOLICITOR) GENERAL['’]S REFERENCE|^\s*\d*\.?\s*This is an application by [^.\n]*(?:Solicitor|Attorney) General/im.test(
      head,
    );
  const appellant: Appellant | null = reference ? "attorney_general" : /\bAppellant\b/.test(head) ? "offender" : null;

  const counsel = (who: RegExp) => {
    for (const m of head.matchAll(/^\s*((?:Mr|Mrs|Ms|Miss|Dr|Sir|Lord|Lady)\s+[^()\n]+?)\s*(?:\([^)]*\))?\s+for the\s+([A-Za-z ]+?)\s*$/gm)) {
      if (who.test(m[2])) return squash(m[1].replace(/\s+and\s+.*$/, ""));
    }
    return null;
  };

  // Offences: statute sections after "contrary to" (and "s.18 of the … Act"), in order.
  const offences = unique(
    [...text.matchAll(/contrary to\s+((?:section|s\.)\s*\d+[A-Z]?(?:\(\d+\))?(?:\([a-z]\))?\s+of\s+the\s+[A-Z][A-Za-z ]+?Act\s+\d{4}|common law)/g)].map((m) =>
      squash(m[1].replace(/^s\.\s*/, "section ")),
    ),
  );

  // Sentences passed below: "sentenced … to <term>" (not the terms this court substitutes).
  const sentences = unique(
    [...text.matchAll(new RegExp(String.raw`sentenced\b[^.]{0,160}?\bto\s+(${EN_TERM})`, "gi"))].map((m) => squash(m[1].replace(/[’]/g, "'").replace(/,\s+suspended/, " suspended"))),
  );

  return {
    language: "en",
    case_number: caseNo ? squash(caseNo[1]) : null,
    neutral_citation: neutral ? `[${neutral[1]}] ${neutral[2]}${neutral[3] ? ` ${neutral[3]}` : ""} ${neutral[4]}` : null,
    court: courtLine ? titleCase(courtLine[1]) : null,
    judges: enJudges(head),
    decision_date: decided ? parseEnDateLine(decided[1]) : null,
    hearing_date: hearing ? parseEnDateLine(hearing[1]) : null,
    appellant,
    defence_representative: counsel(/^(?:Appellant|Applicant|Offender|Defendant)/i),
    prosecution_representative: counsel(/^(?:Respondent|Crown|Prosecution|Solicitor General|Attorney General)/i),
    offences,
    sentences,
    outcome: enOutcome(text, reference),
  };
}

function enOutcome(text: string, reference: boolean): Outcome | null {
  // The decision is in the closing paragraphs (from the "Conclusion" heading when there is one); earlier "the appeal
  // is dismissed" can quote another case. The first decisive sentence there wins: what follows it is often a
  // recap or a general remark.
  const tail = text.slice(-3000);
  const concl = tail.search(/^\s*(?:Conclusions?|Decision|Disposal)\s*$/im);
  const part = concl >= 0 ? tail.slice(concl) : tail;
  const rules: [RegExp, Outcome][] = [
    [/order a retrial|re-?arraigned/i, "outcome_other"],
    [/(?:conviction[^.]{0,80}\bis quashed|quash the conviction)(?![^.]*retrial)/i, "outcome_conviction_quashed"],
    [/\bsubstitut/i, reference ? "outcome_sentence_more_severe" : "outcome_sentence_more_lenient"],
    [/appeal is dismissed|leave to refer is refused|application is refused|appeal against [a-z ]+ is dismissed|we dismiss the appeal/i, "outcome_dismissed_or_refused"],
  ];
  let best: { at: number; outcome: Outcome } | null = null;
  for (const [re, outcome] of rules) {
    const at = part.search(re);
    if (at >= 0 && (!best || at < best.at)) best = { at, outcome };
  }
  return best?.outcome ?? null;
}
