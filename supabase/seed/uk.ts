/**
 * One judgment of the Court of Appeal (Criminal Division) of England and Wales: case facts first, then the text
 * (neutral citation header, Introduction, The facts, Grounds of appeal, Discussion, Conclusion, numbered paragraphs)
 * and the extraction that agrees with it. All names are synthetic.
 */
import type { Rng } from "../../lib/analysis/prng";
import { UK_CASE_SERIALS, UK_CITATION_MAX } from "./citation-space";
import { UK_POOLS, UK_WITNESS } from "./pools-uk";
import { addDays, amount, enDate, enTerm, fill, gender, isoDate, paragraph, type Genders } from "./text-util";
import type { CaseInput, GeneratedCase, Judge, RowNumbers } from "./types";
import {
  UK_BENCH_SURNAMES,
  UK_CROWN_COURTS,
  UK_DRUGS,
  UK_FIRST_FEMALE,
  UK_FIRST_MALE,
  UK_INJURIES,
  UK_JOBS,
  UK_LOOT,
  UK_MENTAL,
  UK_OFFENCES,
  UK_PLACES,
  UK_PREMISES,
  UK_STREETS,
  UK_SURNAMES,
  UK_TOWNS,
  UK_VEHICLES,
  UK_WEAPONS,
  type UkCategory,
  type UkOffence,
} from "./vocab-uk";

const CATEGORY_WEIGHTS: readonly (readonly [UkCategory, number])[] = [
  ["homicide", 10], ["violence", 18], ["robbery", 12], ["property", 8], ["fraud", 9], ["drugs", 17], ["sexual", 12],
  ["driving", 5], ["weapons", 5], ["public_order", 2], ["justice", 2],
];

const FACTS: Record<UkCategory, string> = {
  homicide: "In the early hours of {offence_date} the appellant and the deceased, {victim}, were at {place}. An argument developed. The appellant produced {weapon} and struck <him/her> several times, causing {injury}. Paramedics attended but <he/she> was pronounced dead at the scene.",
  violence: "On {offence_date} the appellant confronted {victim} at {place}. Without warning [he/she] attacked <him/her> with {weapon}, causing {injury}. The complainant was taken to hospital where <he/she> remained for {days} days.",
  robbery: "On {offence_date} the appellant entered {premises} on {street} in {town} wearing a balaclava and carrying {weapon}. [He/She] threatened the member of staff, {victim}, and demanded money. [He/She] left with {loot} and £{amount} in cash.",
  property: "Between {date1} and {offence_date} the appellant broke into {premises} on {street} in {town}, forcing a rear window, and stole {loot} to a total value of £{amount}.",
  fraud: "Over a period of {months_period} months the appellant persuaded {victims_n} victims, among them {victim}, to transfer a total of £{amount} to accounts under [his/her] control, by falsely representing {fraud_subject}.",
  drugs: "Police officers stopped {vehicle} driven by the appellant on {street} in {town}. A search revealed {grams} grams of {drug} of {purity}% purity concealed behind the dashboard, together with £{amount} in cash and two mobile telephones containing messages consistent with street dealing.",
  sexual: "The complainant, {victim}, who was then aged {victim_age}, knew the appellant. The prosecution case was that the appellant took advantage of <him/her> at {place} after the complainant had been drinking. The complainant reported the matter to the police the following day.",
  driving: "On {offence_date} the appellant drove {vehicle} along {street} in {town} at speeds estimated at over 70 mph in a 30 mph zone, having consumed alcohol. [He/She] lost control and struck {victim}, a pedestrian, causing {injury}.",
  weapons: "On {offence_date} police officers searched the appellant at {place} and found {weapon} in the waistband of [his/her] trousers. [He/She] had previous convictions for possession of offensive weapons.",
  public_order: "On {offence_date} a fight broke out outside {place} in {town}. CCTV footage showed the appellant throwing bottles and punching members of a rival group while bystanders fled.",
  justice: "After a road traffic collision on {street} in {town}, the appellant arranged for a friend to tell the police that the friend had been driving, so as to avoid penalty points that would have disqualified [him/her].",
};
const FRAUD_SUBJECTS = [
  "that their money would be invested in a foreign exchange trading scheme", "that [he/she] was a bank fraud officer and that their accounts were compromised",
  "that [he/she] was a builder who would carry out roofing repairs", "that [he/she] needed money for a relative's urgent medical treatment abroad",
  "that [he/she] could obtain tickets for sold-out sporting events", "that a cryptocurrency platform under [his/her] management guaranteed returns",
];
const GROUND_TAGS: Record<string, string> = {
  identification: "inadequate Turnbull direction",
  bad_character: "wrongful admission of bad character evidence",
  jury: "failure to discharge the jury",
  fresh: "fresh evidence",
  joint: "misdirection on joint enterprise",
  excessive: "sentence manifestly excessive",
  category: "wrong guideline category",
  plea: "insufficient credit for guilty plea",
  mental: "insufficient weight to mental health",
  totality: "totality",
  dangerous: "wrong finding of dangerousness",
  lenient: "sentence unduly lenient",
};
const AGG_UK = ["previous convictions", "offence committed on licence", "use of a weapon", "offence under the influence of alcohol", "vulnerable victim", "planning and premeditation", "group offending", "offence committed on bail", "attempt to conceal evidence", "significant degree of harm"];
const MIT_UK = ["genuine remorse", "no previous convictions", "youth and immaturity", "mental disorder", "good character", "caring responsibilities", "early guilty plea", "steps taken to address addiction", "delay not caused by the defendant", "positive work history"];
const PROS_UK = ["CCTV footage", "eyewitness evidence", "DNA evidence", "cell site analysis", "bad character evidence", "ABE interview", "expert medical evidence", "telephone download evidence", "ANPR data", "fingerprint evidence", "police body-worn camera footage"];
const DEF_UK = ["defendant's own evidence", "alibi witness", "character references", "psychiatric report", "expert evidence on intoxication"];
const ANCILLARY_UK: Record<UkCategory, string[]> = {
  homicide: ["victim surcharge", "forfeiture and destruction of the weapon"],
  violence: ["restraining order", "victim surcharge", "forfeiture and destruction of the weapon"],
  robbery: ["victim surcharge", "compensation order"],
  property: ["compensation order", "criminal behaviour order"],
  fraud: ["confiscation order", "compensation order", "serious crime prevention order"],
  drugs: ["confiscation order", "forfeiture of cash", "forfeiture and destruction of drugs"],
  sexual: ["sexual harm prevention order", "notification requirements", "restraining order"],
  driving: ["disqualification from driving", "extended driving test"],
  weapons: ["forfeiture and destruction of the weapon"],
  public_order: ["criminal behaviour order", "football banning order"],
  justice: ["victim surcharge"],
};

/** A category by weight, then an offence of it. */
function pickOffence(rng: Rng) {
  const category = rng.weighted(CATEGORY_WEIGHTS);
  return rng.pick(UK_OFFENCES.filter((o) => o.category === category));
}

function first(rng: Rng, female: boolean): string {
  return rng.pick(female ? UK_FIRST_FEMALE : UK_FIRST_MALE);
}

/** The court_name of every UK row. */
const UK_COURT_NAME = "Court of Appeal (Criminal Division)";

/** The first draws of a UK row: what its neutral citation and Court of Appeal case number are made of. */
export interface UkCitationDraws {
  /** Year of the decision, and of the neutral citation. */
  year: number;
  /** The neutral citation number drawn (1..UK_CITATION_MAX), before ./citation-space.ts moves it off a taken one. */
  citationNo: number;
  /** Year of the case number (the appeal was lodged that year or the one before). */
  caseYear: number;
  /** The case number's serial drawn (UK_CASE_SERIALS), before the same move. */
  serial: number;
  /** The case number's list suffix (A1 … C5). */
  list: string;
}

/**
 * The first draws of a UK row, in the order they have always been made. Shared with generate.ts `rowNumbers`, which
 * gives each row its unique numbers from them (./citation-space.ts) without generating the text.
 */
export function drawUkCitation(rng: Rng, decisionDate: Date): UkCitationDraws {
  const year = decisionDate.getUTCFullYear();
  const citationNo = rng.int(1, UK_CITATION_MAX);
  const caseYear = year - (rng.chance(0.7) ? 1 : 0);
  const serial = rng.int(UK_CASE_SERIALS.min, UK_CASE_SERIALS.max);
  const list = rng.pick(["A1", "A2", "A3", "A4", "B1", "B2", "B3", "B4", "B5", "C1", "C5"]);
  return { year, citationNo, caseYear, serial, list };
}

/** A UK row's numbers from its draws and the citation number and serial its registers gave it. */
export function ukRowNumbers(d: UkCitationDraws, citationNo: number, serial: number): RowNumbers {
  return {
    court: UK_COURT_NAME,
    caseNo: citationNo,
    caseNumber: `${d.caseYear}${String(serial).padStart(5, "0")} ${d.list}`,
    neutralCitation: `[${d.year}] EWCA Crim ${citationNo}`,
  };
}

export function generateUk(input: CaseInput): GeneratedCase {
  const { rng, decisionDate, targetChars, known } = input;
  const year = decisionDate.getUTCFullYear();
  drawUkCitation(rng, decisionDate); // the draws the numbers were made of (input.numbers): the rest follow them
  const { caseNo: citationNo, caseNumber, neutralCitation: citation } = input.numbers;
  if (citation === null) throw new Error(`UK row ${input.index} has no neutral citation (ukRowNumbers gives every UK row one)`);
  const crownCourt = rng.pick(UK_CROWN_COURTS);
  const courtAt = crownCourt.startsWith("the ") ? crownCourt.replace(/^the /, "The ") : `The Crown Court at ${crownCourt}`;
  const sentenceDate = addDays(decisionDate, -rng.int(90, 400));
  const offenceDate = addDays(sentenceDate, -rng.int(120, 800));
  const hearing = addDays(decisionDate, -rng.int(0, 30));

  const byKey = new Map(UK_OFFENCES.map((o) => [o.key, o]));
  const main: UkOffence = known
    ? (byKey.get(known.offenceKey) ?? UK_OFFENCES[0])
    : pickOffence(rng);
  const offences: UkOffence[] = [main];
  if (rng.chance(0.3)) {
    const second = rng.pick(UK_OFFENCES.filter((o) => o.key !== main.key && (o.category === main.category || o.category === "weapons")));
    if (second) offences.push(second);
  }
  const acquitted = rng.chance(0.1) ? UK_OFFENCES.filter((o) => !offences.includes(o) && o.category === main.category).slice(0, 1) : [];

  const femaleDraw = main.category === "sexual" ? rng.chance(0.03) : rng.chance(0.13);
  const female = known ? (known.offenderFemale ?? false) : femaleDraw;
  const appFirst = first(rng, female);
  const appLast = rng.pick(UK_SURNAMES);
  const age = rng.int(18, 64);
  const victimFemaleDraw = main.category === "sexual" ? rng.chance(0.88) : rng.chance(0.4);
  const victimFemale = known ? (known.victimFemale ?? false) : victimFemaleDraw;
  const victimName = `${first(rng, victimFemale)} ${rng.pick(UK_SURNAMES)}`;
  const nVictims = main.hasVictim ? rng.weighted([[1, 78], [2, 12], [3, 6], [5, 4]] as const) : 0;
  const victimAge = rng.int(main.key === "child_sex" ? 12 : 17, main.key === "child_sex" ? 15 : 84);
  const jobEnum = rng.weighted([["employed", 40], ["unemployed", 28], ["self_employed", 9], ["student", 6], ["retired", 3], ["other", 4], ["dont_know", 10]] as const);
  const job = jobEnum === "student" ? "a student" : jobEnum === "retired" ? "retired" : rng.pick(UK_JOBS);
  const homeEnum = rng.weighted([["fixed_address", 72], ["homeless", 8], ["temporary_accommodation", 9], ["dont_know", 11]] as const);
  const intox = rng.weighted([[[], 50], [["intox_alcohol"], 30], [["intox_drugs"], 12], [["intox_alcohol", "intox_drugs"], 6], [["intox_unknown"], 2]] as const) as readonly string[];
  const mental = rng.chance(0.3) ? rng.pick(UK_MENTAL) : null;
  const relationship = main.hasVictim ? rng.weighted([["stranger", 40], ["acquaintance", 32], ["relative", 16], ["dont_know", 12]] as const) : null;
  const coDefendants = rng.weighted([[0, 58], [1, 20], [2, 12], [3, 6], [6, 4]] as const);

  const plea = rng.chance(0.45);
  const pleaPoint = plea ? rng.weighted([["first_court_appearance", 40], ["before_trial", 30], ["first_day_of_trial", 15], ["after_first_day_of_trial", 5], ["police_presence", 5], ["dont_know", 5]] as const) : null;
  const [lo, hi] = main.months;
  const months = Math.round(lo + (hi - lo) * Math.pow(rng.next(), 1.5));
  const life = main.key === "murder";
  const suspended = !life && months <= 24 && rng.chance(0.35);
  const sentenceText = life ? `life imprisonment with a minimum term of ${Math.round(months / 12)} years` : suspended ? `${enTerm(months).replace(" imprisonment", " imprisonment")} suspended for 2 years` : enTerm(months);
  const ancillary = rng.sample(ANCILLARY_UK[main.category], rng.int(0, 2));

  const ag = rng.chance(0.14);
  const appellant = ag ? "attorney_general" : rng.chance(0.04) ? "other" : "offender";
  const against: string[] = ag
    ? ["appeal_sentence_lenient"]
    : plea
      ? ["appeal_sentence_excessive"]
      : rng.weighted([[["appeal_conviction_unsafe"], 45], [["appeal_sentence_excessive"], 35], [["appeal_conviction_unsafe", "appeal_sentence_excessive"], 20]] as const).slice();
  let outcome = rng.weighted([["outcome_dismissed_or_refused", 58], ["changed", 34], ["outcome_other", 8]] as const) as string;
  if (outcome === "changed")
    outcome = ag ? "outcome_sentence_more_severe" : against.includes("appeal_conviction_unsafe") && rng.chance(0.45) ? "outcome_conviction_quashed" : against.includes("appeal_sentence_excessive") ? "outcome_sentence_more_lenient" : "outcome_other";
  const newMonths = outcome === "outcome_sentence_more_lenient" ? Math.max(1, Math.round(months * (0.65 + 0.25 * rng.next()))) : outcome === "outcome_sentence_more_severe" ? Math.round(months * (1.25 + 0.5 * rng.next())) : months;
  const groundKeys = ag
    ? ["lenient"]
    : [
        ...(against.includes("appeal_conviction_unsafe") ? rng.sample(["identification", "bad_character", "jury", "fresh", "joint"], rng.int(1, 2)) : []),
        ...(against.includes("appeal_sentence_excessive") ? rng.sample(["excessive", "category", "plea", "mental", "totality", "dangerous"], rng.int(1, 2)) : []),
      ];
  const guidelines = [...new Set([main.guideline, ...(plea ? ["Reduction in Sentence for a Guilty Plea Definitive Guideline"] : []), ...(offences.length > 1 ? ["Totality Definitive Guideline"] : []), ...(mental ? ["Sentencing offenders with mental disorders, developmental disorders, or neurological impairments"] : [])])];

  // Five distinct surnames: three appeal judges, the sentencing judge, and spares for counsel.
  const bench = rng.sample(UK_BENCH_SURNAMES, 7);
  const lj = `Lord Justice ${bench[0]}`;
  const lj2 = rng.chance(0.6) ? `Mr Justice ${bench[1]}` : `Mrs Justice ${bench[1]}`;
  const third = rng.chance(0.5) ? `His Honour Judge ${bench[2]} KC` : rng.chance(0.5) ? `Her Honour Judge ${bench[2]}` : `Mr Justice ${bench[2]}`;
  const recorder = `${rng.chance(0.5) ? "HHJ" : "Recorder"} ${bench[3]}`;
  const judges: Judge[] = [
    { name: lj, role: "presiding" },
    { name: lj2, role: "judge" },
    { name: third, role: "judge" },
  ];
  const defence = `${rng.chance(0.6) ? "Mr" : "Ms"} ${UK_FIRST_MALE[rng.int(0, 5)][0]} ${bench[4]}`;
  const prosecutor = `${rng.chance(0.5) ? "Mr" : "Ms"} ${UK_FIRST_FEMALE[rng.int(0, 5)][0]} ${bench[5]}`;
  const nWitnesses = 2 + Math.floor(targetChars / 10000);
  const witnesses = Array.from({ length: nWitnesses }, () => `${first(rng, rng.chance(0.5))} ${rng.pick(UK_SURNAMES)}`);

  const street = rng.pick(UK_STREETS);
  const town = rng.pick(UK_TOWNS);
  const place = fill(rng.pick(UK_PLACES), { street });
  const weapon = rng.pick(UK_WEAPONS);
  const money = rng.int(2, 900) * 100;
  const g: Genders = { offender: female, victim: victimFemale };
  const slots: Record<string, string> = {
    offence_date: enDate(offenceDate), date1: enDate(addDays(offenceDate, -rng.int(30, 500))), victim: victimName, place, place_short: place,
    weapon, injury: rng.pick(UK_INJURIES), days: String(rng.int(2, 40)), premises: rng.pick(UK_PREMISES), street, town,
    loot: rng.pick(UK_LOOT), amount: amount(money, "en"), months_period: String(rng.int(3, 30)), victims_n: String(Math.max(2, nVictims)),
    fraud_subject: rng.pick(FRAUD_SUBJECTS), vehicle: rng.pick(UK_VEHICLES), grams: String(rng.int(10, 3000)), drug: rng.pick(UK_DRUGS),
    purity: String(rng.int(12, 88)), victim_age: String(victimAge), defence: defence.split(" ").slice(-1)[0], guideline: main.guideline,
    category: `${rng.pick(["A", "B", "C"])}${rng.int(1, 3)}`, start: enTerm(Math.round((lo + hi) / 2)).replace(" imprisonment", " custody").replace("' custody", "' custody"),
    range: `${enTerm(lo).replace(/' imprisonment|imprisonment/, "").trim()} to ${enTerm(hi).replace(/' imprisonment|imprisonment/, "").trim()}`,
    risk: rng.pick(["low", "medium", "high"]), notional: enTerm(Math.round(months * 1.5)), time: `${rng.int(0, 23)}:${String(rng.int(0, 59)).padStart(2, "0")}`,
    price: String(rng.int(10, 80)),
  };
  Object.assign(slots, known?.slots ?? {});
  const witnessPool = UK_WITNESS.filter((x) => (x.includes("{drug}") ? main.category === "drugs" : x.includes("arguments at the address") ? main.category === "violence" : true));
  const withWitness = (i: number) => ({ ...slots, witness: witnesses[i % witnesses.length] });

  const paras: string[] = [];
  const add = (s: string) => paras.push(s);
  const out: string[] = [];
  out.push(`Neutral Citation Number: ${citation}`);
  out.push(`Case No: ${caseNumber}`);
  out.push(`IN THE COURT OF APPEAL (CRIMINAL DIVISION)\nON APPEAL FROM ${courtAt.toUpperCase()}\n${recorder}\n${`T${year - 1}${rng.int(1000, 9999)}`}`);
  out.push(`Royal Courts of Justice\nStrand, London, WC2A 2LL`);
  out.push(`Date: ${String(decisionDate.getUTCDate()).padStart(2, "0")}/${String(decisionDate.getUTCMonth() + 1).padStart(2, "0")}/${year}`);
  out.push(`Before:\n${lj.toUpperCase()}\n${lj2.toUpperCase()}\nand\n${third.toUpperCase()}`);
  out.push("- - - - - - - - - - - - - - - - - - - - -");
  out.push(ag ? `Between:\nREX/REGINA\n- and -\n${appFirst.toUpperCase()} ${appLast.toUpperCase()}\n(Reference by the Solicitor General under s.36 of the Criminal Justice Act 1988)` : `Between:\n${appFirst.toUpperCase()} ${appLast.toUpperCase()} Appellant\n- and -\nTHE KING Respondent`);
  out.push(`${defence} (instructed by ${rng.pick(["the Registrar of Criminal Appeals", "Hodge Jones & Allen", "Tuckers Solicitors", "Lound Mulrenan Jefferies", "Birds Solicitors", "Olliers Solicitors"])}) for the ${ag ? "Offender" : "Appellant"}\n${prosecutor} (instructed by the Crown Prosecution Service) for the ${ag ? "Solicitor General" : "Respondent"}`);
  out.push(`Hearing date: ${enDate(hearing)}`);
  out.push("- - - - - - - - - - - - - - - - - - - - -\nApproved Judgment");
  out.push(`${lj}:`);

  add("Introduction");
  add(
    gender(
      `This is ${ag ? `an application by His Majesty's Solicitor General for leave to refer a sentence which he regards as unduly lenient` : against.includes("appeal_conviction_unsafe") ? "an appeal against conviction, brought with the leave of the single judge" : "an appeal against sentence, brought with the leave of the single judge"}. On ${enDate(sentenceDate)}, in ${courtAt.replace(/^The /, "the ")}, the ${ag ? "offender" : "appellant"}, ${appFirst} ${appLast}, now aged ${age + Math.max(0, year - offenceDate.getUTCFullYear())}, was ${plea ? `sentenced following [his/her] guilty plea` : "convicted after a trial"} of ${offences.map((o) => `${o.name}, ${o.statute}`).join(", and of ")}. [He/She] was sentenced by ${recorder} to ${sentenceText}${offences.length > 1 ? `, with a concurrent term on the second count` : ""}.`,
      g,
    ),
  );
  if (acquitted.length) add(`The jury acquitted the appellant of ${acquitted[0].name}.`);
  if (ancillary.length) add(`The judge also made the following orders: ${ancillary.join(", ")}.`);
  if (main.category === "sexual" || main.key === "child_sex") add("The provisions of the Sexual Offences (Amendment) Act 1992 apply to this case. No matter relating to the complainant shall be included in any publication if it is likely to lead members of the public to identify that person as the victim of the offence.");
  add("The facts");
  add(gender(fill(FACTS[main.category], slots), g));
  if (known) add(known.facts);
  for (let i = 0; i < Math.min(4, witnesses.length); i++) {
    const lines = rng.sample(witnessPool, rng.int(2, 3)).map((s) => gender(fill(s, { ...slots, street: rng.pick(UK_STREETS), vehicle: rng.pick(UK_VEHICLES), weapon: rng.pick(UK_WEAPONS) }), g));
    add(`${witnesses[i]} ${lines.join("; [he/she] also ").replace(/\[he\/she\]/g, "the witness")}.`);
  }
  add(
    gender(
      `The appellant is ${job}. ${rng.chance(0.55) ? `[He/She] has ${rng.int(2, 19)} previous convictions for ${rng.int(4, 40)} offences, including offences of violence.` : "[He/She] is of previous good character."} ${mental ? `A psychiatric report records that [he/she] suffers from ${mental}.` : ""} ${homeEnum === "homeless" ? "At the time of the offence [he/she] was street homeless." : homeEnum === "temporary_accommodation" ? "[He/She] was living in temporary accommodation provided by the local authority." : ""}`,
      g,
    ),
  );
  add("Grounds of appeal");
  add(groundKeys.map((k, i) => `(${i + 1}) ${GROUND_TAGS[k][0].toUpperCase()}${GROUND_TAGS[k].slice(1)}.`).join(" "));
  add(paragraph(rng, UK_POOLS.grounds, rng.int(2, 3), withWitness(0), g));
  add("Discussion");
  if (known) add(known.reasoning);
  const topics = ["evidence", "sentence", "law", "evidence", "sentence"];
  let len = out.reduce((s, x) => s + x.length + 2, 0) + paras.reduce((s, x) => s + x.length + 6, 0);
  let t = 0;
  let wi = 4;
  while (len < targetChars - 500) {
    let p: string;
    if (t % 6 === 5 && wi < witnesses.length) {
      const lines = rng.sample(witnessPool, 2).map((s) => gender(fill(s, { ...slots, street: rng.pick(UK_STREETS), vehicle: rng.pick(UK_VEHICLES), weapon: rng.pick(UK_WEAPONS) }), g));
      p = `The jury also heard from ${witnesses[wi++]}, who ${lines.join(", and who ")}. That evidence was consistent with the account of the other prosecution witnesses.`;
    } else p = paragraph(rng, UK_POOLS[topics[t % topics.length]], rng.int(3, 5), withWitness(t), g);
    add(p);
    len += p.length + 6;
    t++;
  }
  add("Conclusion");
  add(
    outcome === "outcome_dismissed_or_refused"
      ? ag ? "We are not persuaded that the sentence, although lenient, was unduly so. Leave to refer is refused." : "For these reasons, despite Mr " + slots.defence + "'s able submissions, the appeal is dismissed."
      : outcome === "outcome_conviction_quashed"
        ? `We are not satisfied that the conviction is safe. The appeal is allowed and the conviction for ${main.name} is quashed.${rng.chance(0.5) ? " The respondent does not seek a retrial." : ""}`
        : outcome === "outcome_sentence_more_lenient"
          ? `The appeal is allowed. We quash the sentence of ${sentenceText} and substitute ${enTerm(newMonths)}. The ancillary orders remain.`
          : outcome === "outcome_sentence_more_severe"
            ? `We grant leave and quash the sentence of ${sentenceText} as unduly lenient. We substitute a sentence of ${enTerm(newMonths)}.`
            : "The appeal is allowed. The conviction is quashed and we order a retrial on the count, the appellant to be re-arraigned within 28 days.",
  );
  add(paragraph(rng, UK_POOLS.conclusion, 1, slots, g));

  // Number the paragraphs like an approved judgment (headings stay unnumbered).
  const HEADINGS = new Set(["Introduction", "The facts", "Grounds of appeal", "Discussion", "Conclusion"]);
  let n = 0;
  for (const p of paras) out.push(HEADINGS.has(p) ? p : `${++n}. ${p}`);
  const fullText = out.join("\n\n");

  const extraction: Record<string, unknown> = {
    keywords: [main.name, ...(known?.keywords ?? []), ...(["homicide", "violence", "robbery", "weapons"].includes(main.category) ? [weapon.replace(/^an? /, "")] : []), against.includes("appeal_conviction_unsafe") ? "appeal against conviction" : "appeal against sentence"],
    neutral_citation_number: citation,
    case_number: citationNo,
    date_of_appeal_court_judgment: isoDate(decisionDate),
    appeal_court_judges_names: judges.map((j) => j.name).join(", "),
    case_name: ag ? `R v ${appLast} (Solicitor General's Reference)` : `R v ${appLast}`,
    offender_representative_name: defence,
    crown_attorney_general_representative_name: prosecutor,
    conv_court_names: courtAt.replace(/^The /, ""),
    convict_plea_dates: [isoDate(addDays(sentenceDate, -rng.int(0, 60)))],
    convict_offences: offences.map((o) => o.name),
    acquit_offences: acquitted.map((o) => o.name),
    did_offender_confess: plea,
    plea_point: pleaPoint,
    remand_decision: rng.weighted([["remanded_in_custody", 50], ["conditional_bail", 25], ["unconditional_bail", 8], ["dont_know", 17]] as const),
    remand_custody_time: rng.chance(0.4) ? `${rng.int(30, 600)} days on remand` : null,
    sent_court_name: courtAt.replace(/^The /, ""),
    sentences_received: [sentenceText],
    sentence_serve: offences.length > 1 ? [rng.chance(0.75) ? "serve_concurrent" : "serve_consecutive"] : null,
    what_ancilliary_orders: ancillary,
    offender_gender: [female ? "gender_female" : "gender_male"],
    offender_age_offence: `${age}`,
    offender_job_offence: jobEnum,
    offender_home_offence: homeEnum,
    offender_mental_offence: mental,
    offender_intox_offence: intox,
    offender_victim_relationship: relationship,
    victim_type: main.hasVictim ? (main.category === "fraud" && rng.chance(0.3) ? "organisation" : "individual_person") : null,
    num_victims: nVictims || null,
    victim_gender: main.hasVictim ? [victimFemale ? "gender_female" : "gender_male"] : null,
    victim_age_offence: main.hasVictim ? victimAge : null,
    victim_job_offence: main.category === "robbery" ? "shop assistant" : main.hasVictim && rng.chance(0.2) ? rng.pick(UK_JOBS).replace(/^an? /, "") : null,
    victim_home_offence: main.hasVictim && rng.chance(0.15) ? "lived alone" : null,
    victim_mental_offence: main.hasVictim && rng.chance(0.12) ? "post-traumatic stress disorder" : null,
    victim_intox_offence: main.hasVictim && rng.chance(0.2) ? ["intox_alcohol"] : null,
    pros_evid_type_trial: plea ? [] : rng.sample(PROS_UK, rng.int(2, 5)),
    def_evid_type_trial: plea ? [] : rng.sample(DEF_UK, rng.int(1, 2)),
    pre_sent_report: rng.chance(0.35) ? null : rng.pick(["low", "medium", "high", "dont_know"]),
    agg_fact_sent: rng.sample(AGG_UK, rng.int(1, 4)),
    mit_fact_sent: rng.sample(MIT_UK, rng.int(0, 3)),
    vic_impact_statement: main.hasVictim ? rng.chance(0.6) : null,
    appellant,
    co_def_acc_num: coDefendants,
    appeal_against: against,
    appeal_ground: groundKeys.map((k) => GROUND_TAGS[k]),
    sent_guide_which: guidelines,
    appeal_outcome: [outcome],
    reason_quash_conv: outcome === "outcome_conviction_quashed" ? rng.sample(["misdirection of the jury", "fresh evidence undermining identification", "wrongly admitted bad character evidence", "unfair trial process"], rng.int(1, 2)) : null,
    reason_sent_excessive: outcome === "outcome_sentence_more_lenient" ? rng.sample(["wrong guideline category", "insufficient credit for plea", "mitigation not reflected", "totality not observed"], rng.int(1, 2)) : null,
    reason_sent_lenient: outcome === "outcome_sentence_more_severe" ? rng.sample(["seriousness not reflected", "aggravating features underweighted", "dangerousness not addressed"], rng.int(1, 2)) : null,
    reason_dismiss: outcome === "outcome_dismissed_or_refused" ? rng.sample(["sentence within the range", "conviction safe", "judge entitled to reach that view", "no arguable error"], rng.int(1, 2)) : null,
  };

  return {
    caseNumber,
    courtName: UK_COURT_NAME,
    // Spec, data observations: UK rows carry these wrong values on purpose.
    courtLevel: "Crown Court",
    caseType: "Civil",
    decisionType: "Judgment",
    judges,
    fullText,
    keywords: null,
    legalTopics: null,
    sourceUrl: `https://judgments.demo.invalid/ewca/crim/${year}/${citationNo}`,
    language: "en",
    extraction,
  };
}
