/**
 * What real judgments have and the sentence pools alone do not: each judge's own mix of reasoning styles, varied
 * phrasing, statute references and citations of earlier judgments. Applied to a generated case after its planted
 * answers, from its own random stream (`texture:<seed>:<index>`), so every draw of the base generator — and with it
 * every planted known answer — stays as it was; only text is added or reworded, never a planted sentence.
 */
import { plCourtGenitive } from "@/lib/import/title";
import { PLANTED_JUDGE } from "./planted-lines";
import { plantedCitationNetwork, reportedCandidates, rowMeta } from "./planted-citations";
import { Rng } from "@/lib/analysis/prng";
import { plDate } from "./text-util";
import type { GeneratedCase } from "./types";

export const STYLES = ["textual", "deductive", "analogical", "policy", "teleological"] as const;
export type Style = (typeof STYLES)[number];

/** How a judgment is cited by later ones (what ./generate.ts knows of a row before its texture). */
export interface CitedIdentity {
  jurisdiction: "PL" | "UK";
  date: Date;
  caseNumber: string;
  courtName: string;
  caseName: string | null;
  neutralCitation: string | null;
}

/** What identifies a cited judgment in any sentence: the citation without PL's leading "wyrok " (PL sentences say "w wyroku …"). */
export function citationKey(c: CitedIdentity): string {
  return citationOf(c).replace(/^wyrok /, "");
}

/** PL "wyrok Sądu Apelacyjnego w Krakowie z dnia 5 marca 2015 r., II AKa 12/15"; UK "R v Surname [2013] EWCA Crim 710". */
export function citationOf(c: CitedIdentity): string {
  if (c.jurisdiction === "PL") {
    return `wyrok ${plCourtGenitive(c.courtName)} z dnia ${plDate(c.date)}, ${c.caseNumber}`;
  }
  return `${c.caseName ?? "R v Unknown"} ${c.neutralCitation ?? ""}`.trim();
}

/**
 * A judge's reasoning mix: a primary style, a secondary one, and a little of the rest; a pure function of the name.
 * The planted judge argues from purpose only (planted-lines.ts), so her fingerprint stays a known answer.
 */
export function judgeStyleMix(name: string): Record<Style, number> {
  if (name === PLANTED_JUDGE.name) return { textual: 0, deductive: 0, analogical: 0, policy: 0, teleological: 1 };
  const rng = new Rng(`judge-style:${name}`);
  // Purpose as the leading style is the planted judge's signature; other judges may lean on it only second.
  const primary = rng.pick(STYLES.filter((s) => s !== "teleological"));
  const secondary = rng.pick(STYLES.filter((s) => s !== primary));
  const mix = Object.fromEntries(STYLES.map((s) => [s, 0.04])) as Record<Style, number>;
  mix[primary] = 0.62 + 0.2 * rng.next();
  mix[secondary] = 0.15 + 0.1 * rng.next();
  return mix;
}

/** Style sentences as [opening, closing] parts; every opening carries one phrase of lib/analysis/data/reasoning-patterns.json. */
const PL_STYLE: Record<Style, readonly string[]> = {
  textual: [
    "Już wykładnia językowa {art} prowadzi do wniosku, że",
    "Brzmienie przepisu {art} nie pozostawia wątpliwości, że",
    "W dosłownym znaczeniu użytego w przepisie zwrotu przyjąć trzeba, że",
    "Znaczenie słownikowe wyrażenia zastosowanego w {art} wskazuje, że",
    "Użyty w przepisie zwrot jest jednoznaczny, a zasada clara non sunt interpretanda przesądza, że",
    "Literalne brzmienie {art} jest jasne i wynika z niego, że",
  ],
  deductive: [
    "Zachowanie oskarżonego wyczerpuje znamiona przestępstwa z {art}, a zatem",
    "Prawidłowa subsumpcja ustalonych faktów pod {art} prowadzi do wniosku, że",
    "Skoro ustalenia faktyczne są prawidłowe, to",
    "Z powyższego wynika, że",
    "W konsekwencji przyjąć należy, że",
    "Tym samym, skoro oskarżony wypełnił dyspozycję {art},",
  ],
  analogical: [
    "W utrwalonym orzecznictwie przyjmuje się, że",
    "Sąd Apelacyjny w pełni podziela pogląd wyrażony w orzecznictwie Sądu Najwyższego, że",
    "W analogicznej sytuacji sąd odwoławczy przyjął, że",
    "W podobnej sprawie Sąd Najwyższy wskazał, że",
    "Jak trafnie wskazał Sąd Najwyższy,",
    "Tożsamy pogląd zaprezentował Sąd Apelacyjny w sprawie o podobnym stanie faktycznym, przyjmując, że",
  ],
  policy: [
    "Orzeczona kara musi spełnić cele prewencji ogólnej, dlatego",
    "Względy polityki kryminalnej przemawiają za tym, że",
    "Przemawia za tym interes społeczny, skoro",
    "Łagodniejsza kara naruszałaby społeczne poczucie sprawiedliwości, a",
    "Należało uwzględnić potrzeby w zakresie społecznego oddziaływania kary, ponieważ",
    "Chodzi tu o zaufanie do wymiaru sprawiedliwości, a",
  ],
  teleological: [
    "Wykładnia celowościowa {art} prowadzi do wniosku, że",
    "Ratio legis {art} przemawia za tym, że",
    "Celem przepisu {art} jest ochrona pokrzywdzonego, dlatego",
    "Taka była intencja ustawodawcy, a",
    "Przedmiotem ochrony jest tu dobro pokrzywdzonego, zatem",
  ],
};
const PL_CLOSINGS = [
  "ocena Sądu Okręgowego jest trafna", "apelacja nie mogła odnieść zamierzonego skutku", "zarzuty skarżącego są chybione",
  "kwalifikacja prawna czynu jest prawidłowa", "wymierzona kara nie razi surowością", "rozstrzygnięcie sądu pierwszej instancji zasługuje na aprobatę",
  "stanowisko obrony nie może zostać podzielone", "brak podstaw do ingerencji w zaskarżony wyrok", "wymiar kary odpowiada stopniowi winy",
  "ustalenia sądu meriti nie budzą zastrzeżeń", "nie zachodzi potrzeba zmiany orzeczenia", "zarzut obrazy prawa materialnego nie jest zasadny",
];
const EN_STYLE: Record<Style, readonly string[]> = {
  textual: [
    "On the plain meaning of {act},", "The wording of the section is clear:", "On its true construction {act} means that",
    "The words used by Parliament in {act} make plain that", "Read in its ordinary and natural meaning, the provision shows that",
  ],
  deductive: [
    "It follows that", "Applying that test, we conclude that", "We therefore conclude that", "The requirements of {act} were met, and",
    "A finding of that kind necessarily means that",
  ],
  analogical: [
    "It is well established that", "As this court explained in an earlier case of this kind,", "That approach was followed in a line of authority, and",
    "By analogy with the cases on {act},", "The present facts are distinguishable from the authorities relied on, and",
  ],
  policy: [
    "The sentence must contain an element of deterrence, and", "Public confidence in the courts requires that",
    "For the protection of the public,", "There are strong policy considerations for the view that", "It is in the public interest that",
  ],
  teleological: [
    "The purpose of {act} is to protect the public, and", "Parliament cannot have intended otherwise:", "A purposive construction of {act} shows that",
    "The mischief at which {act} is aimed is plain, and", "The legislative purpose supports the view that",
  ],
};
const EN_CLOSINGS = [
  "the judge's approach cannot be faulted", "the sentence was not manifestly excessive", "this ground of appeal fails",
  "the conviction is safe", "the judge was right to reject the submission", "the custodial term was justified",
  "the categorisation under the guideline was correct", "there is no arguable error in the sentencing remarks", "the judge was entitled to reach that view",
  "no injustice was done to the appellant", "the overall sentence was just and proportionate", "the direction to the jury was adequate",
];

const uncap = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

/** About 8-12 style phrases in the proportions of the presiding judge's mix. */
function styleSentences(rng: Rng, lang: "pl" | "en", mix: Record<Style, number>, ref: string): string[] {
  const weights = STYLES.map((s) => [s, mix[s]] as const).filter(([, w]) => w > 0);
  const n = rng.int(7, 11);
  const out: string[] = [];
  for (let k = 0; k < n; k++) {
    const style = rng.weighted(weights);
    const open = rng.pick((lang === "pl" ? PL_STYLE : EN_STYLE)[style]).replace(/\{art\}|\{act\}/g, ref);
    const close = rng.pick(lang === "pl" ? PL_CLOSINGS : EN_CLOSINGS);
    out.push(`${open} ${close}.`);
  }
  return out;
}

/** PL statute sentences: the main article, art. 438 pkt 4 k.p.k. on severity grounds, art. 60 § 2 k.k. where it was applied. */
function plStatutes(rng: Rng, c: GeneratedCase): string[] {
  const out: string[] = [];
  const offences = Array.isArray(c.extraction.convict_offences) ? (c.extraction.convict_offences as string[]) : [];
  const article = offences[0]?.match(/\((art\.[^)]+)\)/)?.[1];
  if (article) {
    out.push(rng.pick([
      `Kwalifikacja prawna czynu z ${article} została przyjęta prawidłowo.`,
      `Sąd Okręgowy zasadnie zakwalifikował zachowanie oskarżonego jako przestępstwo z ${article}.`,
      `Przypisanie oskarżonemu czynu z ${article} nie budzi zastrzeżeń sądu odwoławczego.`,
    ]));
  }
  const grounds = Array.isArray(c.extraction.appeal_ground) ? (c.extraction.appeal_ground as string[]) : [];
  if (grounds.some((g) => g.startsWith("rażąca niewspółmierność kary"))) {
    out.push(rng.pick([
      "Rażąca niewspółmierność kary w rozumieniu art. 438 pkt 4 k.p.k. zachodzi tylko wtedy, gdy kara nie daje się zaakceptować.",
      "Zarzut z art. 438 pkt 4 k.p.k. wymaga wykazania różnicy o charakterze zasadniczym, a nie jedynie dającej się ocenić jako nieznaczna.",
      "Podstawa odwoławcza z art. 438 pkt 4 k.p.k. nie służy korygowaniu kary, która mieści się w granicach swobodnego uznania sędziowskiego.",
    ]));
  }
  const guides = Array.isArray(c.extraction.sent_guide_which) ? (c.extraction.sent_guide_which as string[]) : [];
  if (guides.includes("art. 60 § 2 k.k.")) {
    out.push(rng.pick([
      "Sąd rozważył zastosowanie nadzwyczajnego złagodzenia kary na podstawie art. 60 § 2 k.k.",
      "Przesłanki nadzwyczajnego złagodzenia kary z art. 60 § 2 k.k. zostały ocenione wnikliwie.",
    ]));
  }
  return out;
}

/** UK statute short forms as judgments write them ("s.18 of the 1861 Act", "s.9 Theft Act 1968") and the guideline by name. */
function ukStatutes(rng: Rng, c: GeneratedCase): string[] {
  const out: string[] = [];
  const full = c.fullText.match(/contrary to section (\d+)(?:\([^)]*\))* of the ([A-Z][A-Za-z ]+? Act) (\d{4})/);
  if (full) {
    const [, sec, act, year] = full;
    out.push(rng.pick([
      `The offence under s.${sec} ${act} ${year} requires proof of the elements the jury were directed upon.`,
      `Section ${sec} of the ${act} ${year} creates the offence of which the appellant was convicted.`,
      `The maximum sentence for the offence under s.${sec} of the ${year} Act was properly identified.`,
    ]));
  }
  const guides = Array.isArray(c.extraction.sent_guide_which) ? (c.extraction.sent_guide_which as string[]) : [];
  if (guides[0] && guides[0].includes("Guideline")) {
    out.push(rng.pick([
      `The Sentencing Council's ${guides[0]} applied.`,
      `The judge approached sentence by reference to the ${guides[0]} issued by the Sentencing Council.`,
    ]));
  }
  return out;
}

/** Sentences citing earlier judgments; `cites` are identities with their treatment. */
function citationSentences(rng: Rng, lang: "pl" | "en", cites: { who: CitedIdentity; treatment: "followed" | "overruled" | "applied"; about?: CitedIdentity }[]): string[] {
  return cites.map(({ who, treatment, about }) => {
    const ref = citationOf(who);
    if (lang === "pl") {
      if (treatment === "overruled")
        return `Sąd Apelacyjny nie podziela poglądu wyrażonego w wyroku ${ref.replace(/^wyrok /, "")} i odstępuje od niego: przyjęta tam wykładnia nie znajduje oparcia w ustawie.`;
      if (treatment === "applied" && about)
        return `Sąd Apelacyjny stosuje pogląd przyjęty w wyroku ${ref.replace(/^wyrok /, "")}, w którym odstąpiono od stanowiska wyrażonego w wyroku ${citationOf(about).replace(/^wyrok /, "")}.`;
      return rng.pick([
        `Pogląd ten Sąd Apelacyjny podzielił już wcześniej (zob. ${ref}).`,
        `Tak też przyjęto w orzecznictwie (por. ${ref}).`,
        `Stanowisko to znajduje oparcie w orzecznictwie sądów apelacyjnych (zob. ${ref}).`,
      ]);
    }
    if (treatment === "overruled") return `In our judgment ${ref} was wrongly decided on this point and should no longer be followed.`;
    if (treatment === "applied" && about) return `We apply ${ref}, in which this court declined to follow ${citationOf(about)}.`;
    return rng.pick([
      `We were referred to ${ref}, which we follow.`,
      `The approach in ${ref} applies with equal force here.`,
      `That is consistent with the decision of this court in ${ref}.`,
    ]);
  });
}

/** Short formulae every real judgment of the kind carries (headings, the openings of the reasons): not "templates". */
export const STRUCTURAL_FORMULAE: readonly RegExp[] = [
  /^sąd okręgowy ustalił następujący stan faktyczny:$/i,
  /^sąd apelacyjny zważył, co następuje:$/i,
  /^in the court of appeal \(criminal division\)$/i,
  /^royal courts of justice$/i,
  /^approved judgment$/i,
];

const PL_CONNECTIVES = [
  "Należy przy tym zauważyć, że", "Podkreślić trzeba, że", "Nie można pominąć, że", "Co istotne,", "Zauważyć należy, że", "Wypada dodać, że",
  "W ocenie Sądu Apelacyjnego", "Jednocześnie", "Nadto", "Przede wszystkim", "Warto przypomnieć, że", "Dodatkowo", "Z tego względu", "W tym kontekście",
  "Trzeba też odnotować, że", "Zwrócić należy uwagę, że", "Niezależnie od tego", "Wobec tego", "Jak już wskazano,", "Istotne jest i to, że",
  "Na marginesie zauważyć trzeba, że", "Godzi się przypomnieć, że", "Dostrzec przy tym należy, że", "Nie budzi przy tym wątpliwości, że",
];
const EN_CONNECTIVES = [
  "In addition,", "Moreover,", "We note that", "It should be said that", "Further,", "In our judgment,", "As we have said,", "Importantly,",
  "We observe that", "For completeness,", "It is right to record that", "Plainly,", "We add that", "It is also to be noted that", "In any event,",
  "Equally,", "As the respondent points out,", "Turning to this point,", "We accept that", "It is common ground that", "Nonetheless,",
  "To that extent,", "Against that background,", "On any view,",
];
/** Word-level alternatives: the same legal sense, the way different judges put it. */
const PL_SWAPS: readonly (readonly string[])[] = [
  ["Sąd Okręgowy", "Sąd pierwszej instancji", "Sąd meriti", "Sąd I instancji", "sąd a quo"],
  ["trafnie", "słusznie", "zasadnie", "prawidłowo"],
  ["skarżący", "apelujący", "autor apelacji"],
  ["Sąd Apelacyjny", "sąd odwoławczy", "Sąd drugiej instancji"],
  ["materiał dowodowy", "materiał dowodowy sprawy", "zebrany materiał"],
  ["nie budzi zastrzeżeń", "nie budzi wątpliwości", "jest prawidłowa", "zasługuje na aprobatę"],
  ["w sposób", "w sposób w pełni", "w sposób należyty i"],
];
const EN_SWAPS: readonly (readonly string[])[] = [
  ["the judge", "the trial judge", "the sentencing judge", "the learned judge", "the Recorder"],
  ["was entitled to", "was fully entitled to", "was plainly entitled to", "was right to"],
  ["In our view", "In our judgment", "We are satisfied that", "We consider that"],
  ["the appellant", "the applicant", "the appellant"],
  ["plainly", "clearly", "obviously", "manifestly"],
  ["this court", "the Court of Appeal", "this Court"],
  ["the jury", "the jurors", "the jury"],
  ["offence", "offending", "offence"],
];

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** One alternation of every swappable word of a language: a single pass per sentence (seeding speed). */
const swapRe = (groups: readonly (readonly string[])[]) => {
  const groupOf = new Map<string, readonly string[]>();
  for (const g of groups) for (const w of g) groupOf.set(w, g);
  const words = [...groupOf.keys()].sort((x, y) => y.length - x.length).map(escape);
  return { groupOf, re: new RegExp(`(?<![\\p{L}])(?:${words.join("|")})(?![\\p{L}])`, "gu") };
};
const SWAP_RES = { pl: swapRe(PL_SWAPS), en: swapRe(EN_SWAPS) };

/** Clauses a judge may add before the full stop (never after a citation in brackets). */
const PL_TAILS = [
  ", co należy podkreślić", ", co nie budzi wątpliwości", ", jak słusznie zauważono", ", co wymaga podkreślenia", ", czego skarżący nie podważył",
  ", co wynika z akt sprawy", ", na co trafnie zwrócono uwagę", ", co Sąd Apelacyjny w pełni akceptuje", ", czego nie sposób pominąć",
  ", co ma znaczenie dla rozstrzygnięcia", ", co zresztą przyznał obrońca", ", jak wynika z uzasadnienia zaskarżonego wyroku",
  ", co potwierdza lektura akt", ", czego apelacja nie zdołała podważyć", ", co należy w pełni zaaprobować", ", co trafnie dostrzegł sąd meriti",
  ", co nie było kwestionowane", ", co przesądza o trafności tej oceny", ", jak podkreślał prokurator", ", co dostatecznie wykazano",
];
const EN_TAILS = [
  ", as the judge recognised", ", in our view", ", as is common ground", ", and we so find", ", as counsel accepted", ", on the material before us",
  ", as the papers show", ", in our judgment", ", and nothing turns on it", ", as the respondent submits", ", so far as it goes", ", on any fair reading",
  ", as the single judge observed", ", and rightly so", ", as the transcript shows", ", on the evidence", ", as the Crown submits", ", in the circumstances",
  ", as was conceded before us", ", and we agree", ", in our assessment", ", as the record shows",
];

/**
 * Rewords sentences for one judgment. Each sentence gets word-level alternatives and one of (connectives + none) ×
 * (closing clauses + none) variants; a sentence repeated within the judgment (long texts revisit the pools) never
 * gets the same variant twice, so no variant recurs in many judgments.
 */
class Rewording {
  private used = new Map<string, Set<number>>();
  constructor(
    private rng: Rng,
    private lang: "pl" | "en",
  ) {}

  private variant(key: string): [number, number] {
    const conns = (this.lang === "pl" ? PL_CONNECTIVES : EN_CONNECTIVES).length + 1;
    const tails = (this.lang === "pl" ? PL_TAILS : EN_TAILS).length + 1;
    const used = this.used.get(key) ?? new Set<number>();
    this.used.set(key, used);
    let v = this.rng.int(0, conns * tails - 1);
    for (let k = 0; k < conns * tails && used.has(v); k++) v = (v + 1) % (conns * tails);
    used.add(v);
    return [v % conns, Math.floor(v / conns)];
  }

  reword(s: string, swaps = true): string {
    const { rng, lang } = this;
    let out = s;
    if (swaps) {
      const { groupOf, re } = SWAP_RES[lang];
      out = out.replace(re, (m) => rng.pick(groupOf.get(m) ?? [m]));
    }
    out = out.charAt(0).toUpperCase() + out.slice(1);
    const [c, t] = this.variant(s);
    if (t > 0 && out.endsWith(".")) {
      const tail = (lang === "pl" ? PL_TAILS : EN_TAILS)[t - 1];
      // Before a closing reference in brackets ("… (por. wyrok SN …).") or before the full stop.
      const paren = out.endsWith(").") ? out.lastIndexOf(" (") : -1;
      out = paren > 0 ? `${out.slice(0, paren)}${tail}${out.slice(paren)}` : `${out.slice(0, -1)}${tail}.`;
    }
    if (c > 0) {
      const conn = (lang === "pl" ? PL_CONNECTIVES : EN_CONNECTIVES)[c - 1];
      // Keep proper names capitalised; lower-case an ordinary first word after the connective.
      const first = out.split(" ")[0];
      const keepCap = /^(Sąd|Sądu|Sądowi|R|Mr|Ms|Mrs|Parliament|Section|Lord|CCTV|DNA|ABE)$/.test(first) || /^[A-ZĄĆĘŁŃÓŚŹŻ]{2,}/.test(first);
      out = `${conn} ${keepCap ? out : uncap(out)}`;
    }
    return out;
  }
}

/** Split a paragraph into sentences after . ! ? followed by a capital (citations such as "art. 7" keep their dots). */
function sentencesOf(p: string): string[] {
  return p.split(/(?<=[.!?])\s+(?=[A-ZĄĆĘŁŃÓŚŹŻ])/u);
}

/**
 * Reword the reasons (after their opening), leaving planted paragraphs, headings and the signatures untouched.
 */
function rewordReasons(w: Rewording, text: string, lang: "pl" | "en", protect: readonly string[], extra: number): string {
  const mark = lang === "pl" ? "Sąd Apelacyjny zważył, co następuje:" : "\n\nDiscussion\n\n";
  const at = text.indexOf(mark);
  if (at < 0) return text;
  const head = text.slice(0, at + mark.length);
  const paras = text.slice(at + mark.length).split("\n\n");
  const reworded: number[] = [];
  const body = paras.map((p, k) => {
    if ((lang === "pl" && k === paras.length - 1) || !/\s/.test(p) || p.length < 25 || protect.some((x) => x && p.includes(x.slice(0, 60)))) return p;
    const num = lang === "en" ? p.match(/^\d+\. /)?.[0] ?? "" : "";
    if (k > 0 && k < paras.length - 2) reworded.push(k);
    return num + sentencesOf(p.slice(num.length)).map((s) => w.reword(s)).join(" ");
  });
  // Keep the corpus's length distribution: drop reworded reasoning paragraphs from the end of the reasons until the
  // text is no longer than it came (plus `extra`, the statute, style and citation sentences still to be added).
  const budget = text.length - extra;
  let len = head.length + body.reduce((n, p) => n + p.length + 2, 0);
  const dropped = new Set<number>();
  for (let r = reworded.length - 1; r >= 0 && len > budget; r--) {
    dropped.add(reworded[r]);
    len -= body[reworded[r]].length + 2;
  }
  const kept = body.filter((_, k) => !dropped.has(k));
  let out = head + kept.join("\n\n");
  // Numbered paragraphs (UK) stay numbered 1, 2, 3, … after a drop.
  if (lang === "en" && dropped.size) {
    let n = 0;
    out = out.replace(/(^|\n\n)\d+\. /g, (_m, lead: string) => `${lead}${++n}. `);
  }
  return out;
}

/** Insert extra sentences into the reasons: PL a paragraph before the closing; UK appended to the first Discussion paragraph. */
function addToReasons(text: string, lang: "pl" | "en", sentences: string[]): string {
  if (!sentences.length) return text;
  const add = sentences.join(" ");
  if (lang === "pl") {
    const last = text.lastIndexOf("\n\n");
    const before = text.lastIndexOf("\n\n", last - 1);
    if (before < 0) return `${text}\n\n${add}`;
    return `${text.slice(0, before)}\n\n${add}${text.slice(before)}`;
  }
  const at = text.indexOf("\n\nDiscussion\n\n");
  if (at < 0) return `${text}\n\n${add}`;
  const start = at + "\n\nDiscussion\n\n".length;
  if (!/^\d+\. /.test(text.slice(start))) {
    // A short judgment with no discussion paragraph: the sentences become one, and the paragraphs are renumbered.
    let n = 0;
    return `${text.slice(0, start)}0. ${add}\n\n${text.slice(start)}`.replace(/(^|\n\n)\d+\. /g, (_m, lead: string) => `${lead}${++n}. `);
  }
  const end = text.indexOf("\n\n", start);
  return end < 0 ? `${text} ${add}` : `${text.slice(0, end)} ${add}${text.slice(end)}`;
}

export interface TextureInput {
  seed: number;
  index: number;
  jurisdiction: "PL" | "UK";
  date: Date;
  /** Planted paragraphs that must stay verbatim (search known answers, planted lines). */
  protect: readonly string[];
  /** The citable identity of another row (built without its texture). */
  identityOf: (index: number) => CitedIdentity;
}

/** Add the texture to a generated (and planted) case. */
export function applyTexture(c: GeneratedCase, t: TextureInput): GeneratedCase {
  const rng = new Rng(`texture:${t.seed}:${t.index}`);
  const lang = c.language;

  // Citations: the planted network first; other rows cite nearby reported rows decided earlier.
  const net = plantedCitationNetwork(t.seed);
  const planned = net.cites.get(t.index);
  const cites: { who: CitedIdentity; treatment: "followed" | "overruled" | "applied"; about?: CitedIdentity }[] = [];
  if (planned) {
    for (const p of planned) {
      const about = p.treatment === "applied" ? t.identityOf(net.overruled.overruled) : undefined;
      cites.push({ who: t.identityOf(p.index), treatment: p.treatment, about });
    }
  } else if (!net.members.has(t.index)) {
    const leading = net.leading[t.jurisdiction];
    if (t.index >= 600 && rng.chance(1 / 12) && rowMeta(t.seed, leading.index).date < t.date) cites.push({ who: t.identityOf(leading.index), treatment: "followed" });
    for (const cand of reportedCandidates(t.seed, t.index, rng, rng.int(0, 2))) {
      const m = rowMeta(t.seed, cand);
      if (m.jurisdiction === t.jurisdiction && m.date < t.date) cites.push({ who: t.identityOf(cand), treatment: "followed" });
    }
  }

  const w = new Rewording(rng, lang);
  const statutes = lang === "pl" ? plStatutes(rng, c) : ukStatutes(rng, c);
  const presiding = c.judges[0]?.name ?? "";
  // The provision the style sentences argue about: the article of the main conviction (never another one in the text).
  const offences = Array.isArray(c.extraction.convict_offences) ? (c.extraction.convict_offences as string[]) : [];
  const ref = lang === "pl" ? (offences[0]?.match(/\((art\.[^)]+)\)/)?.[1] ?? "tego przepisu") : "the section";
  const style = styleSentences(rng, lang, judgeStyleMix(presiding), ref).map((x) => w.reword(x, false)).join(" ");
  const extra = [...statutes, ...citationSentences(rng, lang, cites)].map((x) => w.reword(x, false));
  const added = [...extra.slice(0, statutes.length), style, ...extra.slice(statutes.length)];
  const text = rewordReasons(w, c.fullText, lang, t.protect, added.reduce((n, x) => n + x.length + 1, 2));
  return { ...c, fullText: addToReasons(text, lang, added) };
}
