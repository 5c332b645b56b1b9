/**
 * One sentence passage read into typed values: "karę 3 lat i 6 miesięcy pozbawienia wolności, której wykonanie
 * warunkowo zawiesza na okres próby 2 lat", "4 years' imprisonment suspended for 18 months", "200 hours of unpaid
 * work", "a fine of £500", "obniża karę do 1 roku", "quash the sentence of 5 years and substitute 3 years".
 * Every value carries the span of the words it was read from. Pure functions, no I/O, no model.
 */
import { findDurations, NUMBER, parseNumber, type Duration } from "./numbers";

export const SENTENCE_KINDS = ["custody", "suspended", "community", "fine", "discharge", "other"] as const;
export type SentenceKind = (typeof SENTENCE_KINDS)[number];
export type Currency = "PLN" | "GBP";

/** Where in the text a value was read: offsets into the text passed in (plus the caller's offset). */
export interface Span {
  start: number;
  end: number;
  text: string;
}

export interface SentenceValues {
  kind: SentenceKind | null;
  /** Immediate or suspended custody in months (the total: consecutive terms summed, concurrent terms their maximum). */
  custody_months: number | null;
  /** Life imprisonment (custody_months stays null: it has no length). */
  life: boolean;
  suspended: boolean | null;
  suspension_months: number | null;
  community_hours: number | null;
  fine_amount: number | null;
  fine_currency: Currency | null;
  /** Polish fines in day-rates (stawki dzienne): their number, and the rate when stated. */
  fine_day_units: number | null;
  fine_day_rate: number | null;
  spans: Partial<Record<SpanField, Span>>;
}
export type SpanField = "kind" | "custody_months" | "suspension_months" | "community_hours" | "fine_amount" | "suspended";

export interface PassageReading {
  /** The sentence the passage states (for a change, the one being changed, when it names it). */
  sentence: SentenceValues;
  /** What the passage changes it to ("obniża karę do 1 roku", "substitute 3 years"), or null. */
  changedTo: SentenceValues | null;
}

export function emptyValues(): SentenceValues {
  return {
    kind: null,
    custody_months: null,
    life: false,
    suspended: null,
    suspension_months: null,
    community_hours: null,
    fine_amount: null,
    fine_currency: null,
    fine_day_units: null,
    fine_day_rate: null,
    spans: {},
  };
}

type Role = "custody" | "suspension" | "restriction" | "community" | "other";

interface Term extends Duration {
  role: Role;
  consecutive: boolean;
  concurrent: boolean;
  total: boolean;
  /** Introduced as the new value of a change ("do 1 roku", "substitute", "reduced to"). */
  changed: boolean;
}

const before = (s: string, d: { start: number }, n = 80) => s.slice(Math.max(0, d.start - n), d.start);
const after = (s: string, d: { end: number }, n = 60) => s.slice(d.end, d.end + n);

/** A term's role from the words right after it, else right before it. */
function roleOf(s: string, d: Duration): Role {
  const next = after(s, d, 50);
  const prev = before(s, d, 90);
  // The statutory range, a maximum, a guideline's starting point or range: not a sentence passed.
  if (/(?:\bmaximum|\bstarting\s+point|\brange\b|\bguideline|\bnotional|zagrożon[a-ząćęłńóśźż]*|ustawow[a-ząćęłńóśźż]*|górn[a-ząćęłńóśźż]*\s+granic[a-ząćęłńóśźż]*)[^.;]{0,60}$/i.test(prev)) return "other";
  // The minimum term of a life sentence is not a length of custody (life has none).
  if (/\bminimum\s+term\s+(?:of\s+)?$|\bminimum\s+of\s+$|\bterm\s+of\s+at\s+least\s+$/i.test(prev)) return "other";
  if (/^\s*(?:\)\s*)?(?:pozbawienia\s+wolności|bezwzględnego\s+pozbawienia|imprisonment|detention|custody|in\s+(?:a\s+)?young\s+offender|(?:in\s+)?(?:prison|jail)\b|YOI\b)/i.test(next)) return "custody";
  // Bans, licences and orders run for a time but are not the penalty's length.
  if (/(?:zakaz[a-ząćęłńóśźż]*|środ[a-ząćęłńóśźż]*\s+karn[a-ząćęłńóśźż]*|praw\s+publicznych|obowiązek[a-ząćęłńóśźż]*|nadzor[a-ząćęłńóśźż]*|dozor[a-ząćęłńóśźż]*)[^.;]{0,100}$|\b(?:disqualif\w*|licen[cs]e|restraining\s+order|notification|prevention\s+order|SHPO|ban(?:ned)?|surcharge)\b[^.;]{0,40}$/i.test(prev)) return "other";
  if (/^\s*ograniczenia\s+wolności/i.test(next)) return "restriction";
  if (/(?:okres[a-ząćęłńóśźż]*\s+próby|tytułem\s+próby|zawiesz[a-ząćęłńóśźż]*|zawieszeni[a-ząćęłńóśźż]*)(?:\s+(?:jej|jego|wykonania|kary|na|okres|w\s+wymiarze|wynosząc[a-ząćęłńóśźż]*|próby|[a-ząćęłńóśźż]{1,3}))*\s*$/i.test(prev)) return "suspension";
  if (/^\s*(?:[a-ząćęłńóśźż]+\s+){0,2}(?:tytułem\s+próby|próby)/i.test(next)) return "suspension";
  if (/\b(?:suspended|suspension|operational\s+period)(?:\s+(?:for|of|over|a|period|the|sentence|order|two|its))*\s*$/i.test(prev)) return "suspension";
  if (/^\s*(?:community\s+order|supervision|rehabilitation)/i.test(next)) return "community";
  if (/(?:community\s+order|supervision\s+requirement|rehabilitation\s+activity)[^.;]{0,30}$/i.test(prev)) return "community";
  // Words that make a bare term custodial: "a sentence of 30 months", "karę łączną w wymiarze 5 lat", "reduced to 3 years".
  if (/(?:sentence|term|imprisonment|detention)\s+(?:of\s+)?(?:imprisonment\s+)?(?:of|for)\s*$|\b(?:substitut\w*|reduced?|increased?|replaced?|quash\w*)\b[^.;]{0,50}?\b(?:to|of|with|by)?\s*(?:a\s+(?:sentence|term)\s+of\s+|one\s+of\s+)?$/i.test(prev)) return "custody";
  if (/(?:pozbawienia\s+wolności|kar[a-ząćęłńóśźż]*(?:\s+łączn[a-ząćęłńóśźż]*)?|wymierza[a-ząćęłńóśźż]*|orzeka[a-ząćęłńóśźż]*|obniż[a-ząćęłńóśźż]*|podwyższ[a-ząćęłńóśźż]*|złagodzi[a-ząćęłńóśźż]*|łagodzi[a-ząćęłńóśźż]*|zaostrz[a-ząćęłńóśźż]*)(?:\s+(?:[a-ząćęłńóśźż]+\s+){0,4}?)?(?:w\s+wymiarze|w\s+rozmiarze|do|na\s+okres|na)?\s*$/i.test(prev) && !/ograniczenia\s+wolności[^.;]{0,40}$|grzywn[a-ząćęłńóśźż]*[^.;]{0,40}$/i.test(prev)) return "custody";
  if (/^\s*(?:consecutive|concurrent)/i.test(next)) return "custody";
  return "other";
}

const CHANGE_PL = /(?:obniż[a-ząćęłńóśźż]*|podwyższ[a-ząćęłńóśźż]*|złagodzi[a-ząćęłńóśźż]*|łagodzi[a-ząćęłńóśźż]*|zaostrz[a-ząćęłńóśźż]*|zmniejsz[a-ząćęłńóśźż]*|zwiększ[a-ząćęłńóśźż]*)[^.;]{0,120}?\bdo\s*$/i;
const CHANGE_EN = /(?:\bsubstitut\w*|\breduced?\b|\breducing\b|\bincreased?\b|\bincreasing\b|\bin\s+its\s+place\b|\binstead\b|\bwe\s+impose\b|\bwill\s+be\b|\bbecomes?\b)[^.;]{0,60}?$/i;

function isChanged(s: string, d: Duration): boolean {
  const prev = before(s, d, 140);
  if (CHANGE_PL.test(prev)) return true;
  // "zmienia zaskarżony wyrok … w ten sposób, że … wymierza karę 2 lat" (a new term in a change).
  if (/zmienia[a-ząćęłńóśźż]*[^.]{0,200}w\s+ten\s+sposób[^.]{0,120}(?:wymierza[a-ząćęłńóśźż]*|orzeka[a-ząćęłńóśźż]*|zawiesza[a-ząćęłńóśźż]*)[^.;]{0,60}$/i.test(before(s, d, 320))) return true;
  if (CHANGE_EN.test(prev)) {
    // "quash the sentence of 5 years and substitute 3 years": the quashed term is the old one.
    const tail = prev.match(CHANGE_EN)?.[0] ?? "";
    return !/\bquash\w*\s+(?:the\s+)?(?:sentence|term)\s+of\s*$/i.test(tail) && !/\bfrom\s*$/i.test(prev);
  }
  return false;
}

function markTerms(s: string, ds: Duration[]): Term[] {
  const terms = ds.map((d, i) => {
    const nextStart = ds[i + 1]?.start ?? s.length;
    const tail = s.slice(d.end, Math.min(nextStart, d.end + 80));
    const prev = before(s, d, 60);
    return {
      ...d,
      role: roleOf(s, d),
      consecutive: /\bconsecutive(?:ly)?\b|\bin\s+addition\b|kolejno/i.test(tail) || /\bconsecutive\s+(?:term|sentence)\s+of\s*$/i.test(prev),
      concurrent: /\bconcurrent(?:ly)?\b|\bat\s+the\s+same\s+time\b/i.test(tail),
      total: /(?:\btotal(?:\s+(?:sentence|term))?\s+(?:of\s+)?|\boverall\s+(?:sentence|term)\s+of\s+|\bin\s+total\s+|\baggregate\s+(?:sentence|term\s+)?of\s+|\bmaking\s+(?:a\s+total\s+of\s+)?|\bcustodial\s+(?:term|element|period)\s+of\s+|łączn[a-ząćęłńóśźż]*(?:\s+kar[a-ząćęłńóśźż]*)?(?:\s+(?:w\s+wymiarze|w\s+rozmiarze))?\s+|łączn[a-ząćęłńóśźż]*\s+(?:[a-ząćęłńóśźż]+\s+){0,4}?do\s+)$/i.test(prev) || /^\s*(?:in\s+total|in\s+all|overall)\b/i.test(tail),
      changed: isChanged(s, d),
    };
  });
  // "making 3 years in all": a stated total is custody when the passage passes custody.
  if (terms.some((t) => t.role === "custody")) for (const t of terms) if (t.total && t.role === "other") t.role = "custody";
  return terms;
}

/** Total custody of some terms: a stated total wins; else the longest concurrent term plus every consecutive one. */
function totalCustody(terms: Term[]): Term[] {
  const totals = terms.filter((t) => t.total);
  if (totals.length) return [totals[0]];
  const consecutive = terms.filter((t, i) => i > 0 && t.consecutive);
  const rest = terms.filter((t) => !consecutive.includes(t));
  const longest = rest.reduce<Term | null>((a, t) => (!a || t.months > a.months ? t : a), null);
  return longest ? [longest, ...consecutive] : consecutive;
}

const spanOf = (s: string, start: number, end: number, offset: number): Span => ({ start: start + offset, end: end + offset, text: s.slice(start, end) });

const AMOUNT = String.raw`(\d{1,3}(?:[  .,]\d{3})+(?:[.,]\d{2})?|\d+(?:[.,]\d{1,2})?)`;

function readFine(s: string, v: SentenceValues, offset: number) {
  if (!/grzywn|stawek|\bfine|£/i.test(s)) return; // cheap test before the costly number patterns
  // Polish day-rates: "grzywnę w wysokości 100 (stu) stawek dziennych, ustalając wysokość jednej stawki na kwotę 20 zł".
  const days = new RegExp(String.raw`(${NUMBER})\s+stawek\s+dziennych|(?:w\s+liczbie|w\s+wysokości|w\s+ilości|grzywn\p{L}*)\s+(${NUMBER})\s+stawek`, "iu").exec(s);
  if (days) {
    const n = parseNumber(days[1] ?? days[2] ?? "");
    if (n !== null) {
      v.fine_day_units = n;
      v.fine_currency = "PLN";
      v.spans.fine_amount = spanOf(s, days.index, days.index + days[0].length, offset);
      const rate = new RegExp(String.raw`(?:stawk\p{L}*(?:\s+dzienn\p{L}*)?\s+(?:na\s+kwotę|na|w\s+kwocie|w\s+wysokości|po)|\bpo)\s+${AMOUNT}\s*(?:\(\s*[\p{L}\s]+\)\s*)?(?:zł|złotych|PLN)`, "iu").exec(s.slice(days.index));
      if (rate) {
        v.fine_day_rate = parseAmount(rate[1]);
        if (v.fine_day_rate !== null) {
          v.fine_amount = n * v.fine_day_rate;
          v.spans.fine_amount = spanOf(s, days.index, days.index + rate.index + rate[0].length, offset);
        }
      }
      return;
    }
  }
  const pln = new RegExp(String.raw`grzywn\p{L}*\s+(?:w\s+kwocie|w\s+wysokości|w\s+kwocie\s+po)?\s*${AMOUNT}\s*(?:\(\s*[\p{L}\s]+\)\s*)?(?:zł|złotych|PLN)`, "iu").exec(s);
  if (pln) {
    v.fine_amount = parseAmount(pln[1]);
    v.fine_currency = "PLN";
    v.spans.fine_amount = spanOf(s, pln.index, pln.index + pln[0].length, offset);
    return;
  }
  const gbp = new RegExp(String.raw`(?:\bfined?\b|\bfine\s+of|\bfines\s+totalling)\s+(?:of\s+)?£\s?${AMOUNT}|£\s?${AMOUNT}\s+fine\b`, "i").exec(s);
  if (gbp) {
    v.fine_amount = parseAmount(gbp[1] ?? gbp[2]);
    v.fine_currency = "GBP";
    v.spans.fine_amount = spanOf(s, gbp.index, gbp.index + gbp[0].length, offset);
  }
}

function parseAmount(t: string): number | null {
  const n = /[.,]\d{2}$/.test(t) && !/^\d{1,3}[.,]\d{3}$/.test(t) ? Number(t.slice(0, -3).replace(/[  .,]/g, "") + "." + t.slice(-2)) : Number(t.replace(/[  .,]/g, ""));
  return Number.isFinite(n) ? n : null;
}

function readCommunity(s: string, terms: Term[], v: SentenceValues, offset: number) {
  // English: "200 hours of unpaid work", "an unpaid work requirement of 120 hours", "150 hours' community service".
  const en = new RegExp(String.raw`(${NUMBER})\s+hours['’]?\s+(?:of\s+)?(?:unpaid\s+work|community\s+(?:service|work|punishment))|unpaid\s+work\s+requirement\s+(?:of|for)\s+(${NUMBER})\s+hours`, "iu").exec(s);
  if (en) {
    v.community_hours = parseNumber(en[1] ?? en[2] ?? "");
    v.spans.community_hours = spanOf(s, en.index, en.index + en[0].length, offset);
    return;
  }
  // Polish restriction of liberty: "8 miesięcy ograniczenia wolności … pracy na cele społeczne w wymiarze 20 godzin
  // w stosunku miesięcznym" → 8 × 20 hours.
  const restriction = terms.find((t) => t.role === "restriction");
  const hours = new RegExp(String.raw`(${NUMBER})\s+godzin\p{L}*(?:\s+(?:w\s+stosunku\s+miesięcznym|miesięcznie|w\s+miesiącu|na\s+miesiąc))?`, "iu").exec(s);
  if (hours) {
    const h = parseNumber(hours[1]);
    const monthly = /miesi/.test(hours[0]);
    if (h !== null) {
      v.community_hours = monthly ? (restriction ? Math.round(h * restriction.months) : null) : h;
      if (v.community_hours !== null)
        v.spans.community_hours = spanOf(s, Math.min(restriction?.start ?? hours.index, hours.index), hours.index + hours[0].length, offset);
    }
  }
}

const LIFE = /dożywotni[a-ząćęłńóśźż]*\s+pozbawieni[a-ząćęłńóśźż]*\s+wolności|\bkar[a-ząćęłńóśźż]*\s+dożywocia|\blife\s+imprisonment|\bimprisonment\s+for\s+life|\bcustody\s+for\s+life|\blife\s+sentence|\bsentence\s+of\s+life|\bdetention\s+for\s+life/i;
const DISCHARGE = /\b(?:conditional|absolute)(?:ly)?\s+discharge|\bdischarged\s+(?:conditionally|absolutely)|warunkowo\s+(?:umarz|umorz)[a-ząćęłńóśźż]*|warunkowe[a-ząćęłńóśźż]*\s+umorzeni[a-ząćęłńóśźż]*|odst[a-ząćęłńóśźż]*\s+od\s+wymierzenia\s+kary/i;
const SUSPENDED_WORD = /\bsuspended\b|\bsuspended\s+sentence\s+order|warunkow[a-ząćęłńóśźż]*\s+zawiesz[a-ząćęłńóśźż]*|zawiesz[a-ząćęłńóśźż]*\s+(?:warunkowo|jej|jego|wykonani)|z\s+warunkowym\s+zawieszeniem|\bwarunkowo\s+zawiesz[a-ząćęłńóśźż]*/i;
const NOT_SUSPENDED = /bez\s+warunkowego\s+zawieszenia|bezwzględn[a-ząćęłńóśźż]*\s+(?:kar[a-ząćęłńóśźż]*\s+)?pozbawienia|\bimmediate\s+(?:custody|imprisonment)|\bnot\s+(?:be\s+)?suspended|\bcannot\s+be\s+suspended|uchyla[a-ząćęłńóśźż]*\s+(?:[a-ząćęłńóśźż]+\s+){0,4}warunkow[a-ząćęłńóśźż]*\s+zawieszeni/i;
const COMMUNITY = /\bcommunity\s+order|\bunpaid\s+work|\bcommunity\s+service|kar[a-ząćęłńóśźż]*\s+ograniczenia\s+wolności|ograniczenia\s+wolności|\bsupervision\s+order|\byouth\s+rehabilitation\s+order/i;
const FINE_WORD = /\bgrzywn[a-ząćęłńóśźż]*|\bfined?\b|\bfines\b/i;

/**
 * Whether a passage can state a sentence at all: a cheap test (no Unicode classes, which make V8 try every position
 * slowly) that lets the reader skip most of a judgment's passages.
 */
const MENTIONS_SENTENCE =
  /kar[aąęyz]|pozbaw|do[zż]ywo|life|impris|detention|custody|sentence|suspend|zawiesz|ogranicz|unpaid|community|grzywn|stawek|fine|£|discharg|umorz|umarz|odst[aą]p|substitut|reduc|increas|obni[zż]|podwy[zż]sz|łagodz|zaostrz|term\b|months|years/i;

export function mentionsSentence(s: string): boolean {
  return MENTIONS_SENTENCE.test(s);
}

/** Read one passage. `offset` is added to every span (the passage's place in a longer text). */
export function readPassage(text: string, offset = 0): PassageReading {
  const s = text;
  if (!mentionsSentence(s)) return { sentence: emptyValues(), changedTo: null };
  const terms = markTerms(s, findDurations(s));
  const sentence = emptyValues();
  const changedTo = emptyValues();
  let anyChange = false;

  for (const [vals, pick] of [
    [sentence, (t: Term) => !t.changed],
    [changedTo, (t: Term) => t.changed],
  ] as const) {
    const mine = terms.filter(pick);
    if (mine.length && vals === changedTo) anyChange = true;
    const custody = totalCustody(mine.filter((t) => t.role === "custody"));
    if (custody.length) {
      vals.custody_months = Math.round(custody.reduce((a, t) => a + t.months, 0) * 10) / 10;
      const first = custody.reduce((a, t) => Math.min(a, t.start), Infinity);
      const last = custody.reduce((a, t) => Math.max(a, t.end), 0);
      vals.spans.custody_months = spanOf(s, first, last, offset);
    }
    const susp = mine.find((t) => t.role === "suspension");
    if (susp) {
      vals.suspension_months = susp.months;
      vals.suspended = true;
      vals.spans.suspension_months = spanOf(s, susp.start, susp.end, offset);
    }
  }

  // Words that are not terms: life, suspension, discharge, community, fine. They belong to the new sentence when the
  // passage changes one and the word comes after the change verb.
  const changeCandidates = [terms.find((t) => t.changed)?.start, firstChangeVerb(s) ?? undefined].filter((x): x is number => x !== undefined);
  const changeAt = changeCandidates.length ? Math.min(...changeCandidates) : null;
  const target = (at: number) => (changeAt !== null && at >= changeAt ? changedTo : sentence);

  const life = LIFE.exec(s);
  if (life) {
    const v = target(life.index);
    v.life = true;
    v.spans.kind = spanOf(s, life.index, life.index + life[0].length, offset);
    if (v === changedTo) anyChange = true;
  }
  const notSusp = NOT_SUSPENDED.exec(s);
  if (notSusp) {
    const v = target(notSusp.index);
    v.suspended = false;
    v.suspension_months = null;
    v.spans.suspended = spanOf(s, notSusp.index, notSusp.index + notSusp[0].length, offset);
    if (v === changedTo) anyChange = true;
    // Lifting a suspension ("uchyla … warunkowe zawieszenie") says the sentence it changes was suspended.
    if (v === changedTo && /^uchyla/i.test(notSusp[0])) sentence.suspended = true;
  } else {
    const susp = SUSPENDED_WORD.exec(s);
    if (susp && !/\bnot\b[^.]{0,20}$/i.test(s.slice(0, susp.index))) {
      const v = target(susp.index);
      v.suspended = true;
      v.spans.suspended = spanOf(s, susp.index, susp.index + susp[0].length, offset);
      if (v === changedTo) anyChange = true;
    }
  }
  for (const v of [sentence, changedTo]) if (v.suspension_months !== null && v.suspended === null) v.suspended = true;

  const fineSlice = changeAt !== null && FINE_WORD.test(s.slice(changeAt)) && /grzywn|fine/i.test(s.slice(changeAt)) ? changeAt : null;
  if (fineSlice !== null && terms.some((t) => t.changed) === false && /(?:obniż|podwyższ|reduc|increas|substitut)/i.test(s.slice(changeAt ?? 0))) {
    readFine(s.slice(fineSlice), changedTo, offset + fineSlice);
    if (changedTo.fine_amount !== null || changedTo.fine_day_units !== null) anyChange = true;
  } else readFine(s, sentence, offset);

  const restrictionOrCommunity = terms.some((t) => t.role === "restriction" || t.role === "community") || COMMUNITY.test(s);
  if (restrictionOrCommunity) readCommunity(s, terms, target(COMMUNITY.exec(s)?.index ?? 0), offset);

  const discharge = DISCHARGE.exec(s);
  for (const v of [sentence, changedTo]) {
    // The probation of a conditional discontinuance (warunkowe umorzenie) or discharge is not a suspended sentence.
    if (discharge && target(discharge.index) === v && v.custody_months === null && !v.life) {
      v.suspended = null;
      v.suspension_months = null;
      delete v.spans.suspension_months;
      delete v.spans.suspended;
    }
    v.kind = kindOf(v, v === target(discharge?.index ?? -1) && discharge !== null, v === target(COMMUNITY.exec(s)?.index ?? -1) && restrictionOrCommunity);
    if (v.kind && !v.spans.kind) v.spans.kind = v.spans.custody_months ?? v.spans.community_hours ?? v.spans.fine_amount ?? (discharge ? spanOf(s, discharge.index, discharge.index + discharge[0].length, offset) : undefined);
    if (!v.spans.kind) delete v.spans.kind;
  }
  if (discharge && target(discharge.index) === changedTo) anyChange = true;
  return { sentence, changedTo: anyChange ? changedTo : null };
}

function firstChangeVerb(s: string): number | null {
  const m = /\b(?:obniż|podwyższ|złagodzi|zaostrz|substitut|reduc|increas|uchyla[a-ząćęłńóśźż]*\s+(?:[a-ząćęłńóśźż]+\s+){0,4}warunkow)/i.exec(s);
  // "zmienia zaskarżony wyrok w ten sposób, że …": what follows is the new sentence.
  const z = /zmienia[a-ząćęłńóśźż]*\s+(?:zaskarżon[a-ząćęłńóśźż]*\s+)?wyrok[^.;]{0,60}?w\s+ten\s+sposób,?\s+że\s+/i.exec(s);
  const at = [m?.index, z ? z.index + z[0].length : undefined].filter((x): x is number => x !== undefined);
  return at.length ? Math.min(...at) : null;
}

function kindOf(v: SentenceValues, discharge: boolean, community: boolean): SentenceKind | null {
  if (v.custody_months !== null || v.life) return v.suspended ? "suspended" : "custody";
  if (community && v.community_hours !== null) return "community";
  if (community) return "community";
  if (v.fine_amount !== null || v.fine_day_units !== null) return "fine";
  if (discharge) return "discharge";
  if (v.suspended) return "suspended";
  return null;
}
