/**
 * One Polish appellate criminal judgment (Sąd Apelacyjny, II AKa): case facts first, then the text rendered from
 * them (Wyrok / W imieniu Rzeczypospolitej Polskiej / sentencja / Uzasadnienie) and the extraction that agrees with it.
 */
import type { Rng } from "../../lib/analysis/prng";
import { PL_CASE_NUMBER_MAX, PL_EXTERNAL_CASE_NUMBERS } from "./citation-space";
import { PL_POOLS, PL_WITNESS } from "./pools-pl";
import {
  addDays,
  amount,
  fill,
  gender,
  isoDate,
  paragraph,
  plDate,
  plAccusative,
  plTerm,
  plYears,
  roman,
  yy,
  type Genders,
} from "./text-util";
import type { CaseInput, GeneratedCase, Judge, RowNumbers } from "./types";
import {
  PL_APPEAL_COURTS,
  PL_DRUGS,
  PL_FEMALE,
  PL_INITIALS,
  PL_INJURIES,
  PL_JOBS_FEMALE,
  PL_JOBS_MALE,
  PL_LOOT,
  PL_MALE,
  PL_MENTAL,
  PL_OFFENCES,
  PL_PLACES,
  PL_PREMISES,
  PL_STREETS,
  PL_SURNAMES,
  PL_TOWNS,
  PL_VEHICLES,
  PL_WEAPONS,
  type PlCategory,
  type PlOffence,
} from "./vocab-pl";

const CATEGORY_WEIGHTS: readonly (readonly [PlCategory, number])[] = [
  ["homicide", 12], ["violence", 14], ["robbery", 15], ["property", 10], ["fraud", 12], ["drugs", 15], ["sexual", 7],
  ["domestic", 8], ["traffic", 5], ["other", 5],
];

/** Offence descriptions (the "czyn" of the first-instance judgment); slots filled from the case. */
const DESCRIPTIONS: Record<string, string> = {
  murder: "działając w zamiarze bezpośrednim pozbawienia życia {victim_gen}, zadał[/a] <mu/jej> {blows} ciosów {weapon_ins} w okolice klatki piersiowej i brzucha, powodując obrażenia w postaci {injury}, w następstwie których <pokrzywdzony/pokrzywdzona> zmarł<|a> na miejscu zdarzenia",
  murder_aggr: "działając w celu zabrania w celu przywłaszczenia pieniędzy, po uprzednim pozbawieniu życia {victim_gen} poprzez zadanie <mu/jej> ciosów {weapon_ins}, zabrał[/a] portfel z gotówką w kwocie {amount} zł oraz {loot}",
  attempt_murder: "działając w zamiarze ewentualnym pozbawienia życia {victim_gen}, zadał[/a] <mu/jej> cios {weapon_ins} w okolice szyi, powodując obrażenia w postaci {injury}, lecz zamierzonego celu nie osiągnął[/a] z uwagi na szybko udzieloną pomoc medyczną",
  manslaughter: "nieumyślnie spowodował[/a] śmierć {victim_gen} w ten sposób, że w trakcie kłótni popchnął[/a] <go/ją>, wskutek czego <pokrzywdzony/pokrzywdzona> upadł<|a> i uderzył<|a> głową o krawężnik, doznając {injury}",
  serious_harm: "zaatakował[/a] {victim_acc} {weapon_ins}, zadając <mu/jej> ciosy w głowę i tułów, czym spowodował[/a] u <niego/niej> ciężki uszczerbek na zdrowiu w postaci choroby realnie zagrażającej życiu – {injury}",
  serious_harm_death: "kopiąc i uderzając {victim_acc} pięściami oraz {weapon_ins} po całym ciele, spowodował[/a] u <niego/niej> obrażenia w postaci {injury}, których następstwem była śmierć <pokrzywdzonego/pokrzywdzonej>",
  medium_harm: "uderzył[/a] {victim_acc} {weapon_ins} w twarz, powodując obrażenia w postaci {injury}, które naruszyły czynności narządów ciała <pokrzywdzonego/pokrzywdzonej> na okres powyżej siedmiu dni",
  brawl: "wspólnie z dwoma nieustalonymi mężczyznami brał[/a] udział w pobiciu {victim_gen}, w którym użyto {weapon_gen}, narażając <pokrzywdzonego/pokrzywdzoną> na bezpośrednie niebezpieczeństwo utraty życia",
  brawl_death: "wspólnie z innymi osobami brał[/a] udział w pobiciu {victim_gen}, którego następstwem była śmierć <pokrzywdzonego/pokrzywdzonej> wskutek {injury}",
  robbery: "{premises} przy ul. {street}, działając wspólnie i w porozumieniu z nieustaloną osobą, używając przemocy wobec {victim_gen} w postaci przewrócenia na ziemię i kopania, zabrał[/a] w celu przywłaszczenia {loot} oraz pieniądze w kwocie {amount} zł",
  robbery_armed: "{premises} przy ul. {street}, posługując się niebezpiecznym przedmiotem w postaci {weapon_gen} i grożąc natychmiastowym użyciem przemocy wobec {victim_gen}, zabrał[/a] w celu przywłaszczenia pieniądze w kwocie {amount} zł oraz {loot}",
  robbery_theft: "{premises} przy ul. {street}, po dokonaniu kradzieży {loot_gen}, w celu utrzymania się w posiadaniu zabranej rzeczy użył[/a] przemocy wobec {victim_gen}, odpychając <go/ją> i uderzając pięścią w twarz",
  extortion: "w celu osiągnięcia korzyści majątkowej, kierując wobec {victim_gen} groźby pobicia i spalenia samochodu, doprowadził[/a] <go/ją> do rozporządzenia mieniem w postaci pieniędzy w łącznej kwocie {amount} zł",
  theft: "{premises} przy ul. {street} zabrał[/a] w celu przywłaszczenia {loot} o wartości {amount} zł na szkodę {victim_gen}",
  burglary: "po uprzednim wyważeniu okna przy użyciu łomu dostał[/a] się {premises_into} przy ul. {street}, skąd zabrał[/a] w celu przywłaszczenia {loot} o łącznej wartości {amount} zł na szkodę {victim_gen}",
  embezzlement: "pełniąc funkcję kierownika sklepu, przywłaszczył[/a] powierzone mu pieniądze pochodzące z utargu w łącznej kwocie {amount} zł na szkodę spółki {company}",
  fraud: "działając w celu osiągnięcia korzyści majątkowej, w krótkich odstępach czasu i w wykonaniu z góry powziętego zamiaru, doprowadził[/a] {victim_acc} do niekorzystnego rozporządzenia mieniem w kwocie {amount} zł, wprowadzając <go/ją> w błąd co do {fraud_subject}",
  fraud_large: "działając w celu osiągnięcia korzyści majątkowej, doprowadził[/a] spółkę {company} do niekorzystnego rozporządzenia mieniem znacznej wartości w kwocie {amount} zł, wprowadzając jej przedstawicieli w błąd co do {fraud_subject}",
  money_laundering: "przyjął[/a] na rachunki bankowe prowadzone na swoje nazwisko, a następnie przetransferował[/a] za granicę środki pieniężne w kwocie {amount} zł, pochodzące z korzyści związanych z popełnieniem czynu zabronionego, co mogło udaremnić stwierdzenie ich przestępnego pochodzenia",
  org_group: "brał[/a] udział w zorganizowanej grupie przestępczej mającej na celu popełnianie przestępstw przeciwko mieniu oraz obrót środkami odurzającymi, działającej na terenie województwa {voivodeship}",
  drug_supply: "wbrew przepisom ustawy, w celu osiągnięcia korzyści majątkowej, wprowadził[/a] do obrotu znaczną ilość środków odurzających w postaci {drug_gen} o łącznej wadze nie mniejszej niż {grams} gramów",
  drug_dealing: "w celu osiągnięcia korzyści majątkowej udzielał[/a] środków odurzających w postaci {drug_gen} co najmniej {buyers} odbiorcom, sprzedając je w porcjach po 1 gramie za kwotę {price} zł",
  drug_possession: "wbrew przepisom ustawy posiadał[/a] znaczną ilość środków odurzających w postaci {drug_gen} o łącznej wadze {grams} gramów, ukrytą w piwnicy budynku przy ul. {street}",
  drug_import: "dokonał[/a] wewnątrzwspólnotowego nabycia znacznej ilości środków odurzających w postaci {drug_gen} o wadze {grams} gramów, przewożąc je z Holandii samochodem marki {vehicle} w specjalnie przygotowanej skrytce",
  rape: "przemocą i groźbą bezprawną doprowadził[/a] {victim_acc} do obcowania płciowego, przytrzymując <go/ją> i grożąc <mu/jej> pozbawieniem życia",
  rape_minor: "doprowadził[/a] małoletnią poniżej lat 15 do obcowania płciowego, działając wobec niej z użyciem przemocy",
  child_abuse: "w okresie od {date1} do {date2}, wielokrotnie, w krótkich odstępach czasu, dopuścił[/a] się obcowania płciowego z małoletnią poniżej lat 15",
  domestic_abuse: "w okresie od {date1} do {date2} znęcał[/a] się fizycznie i psychicznie nad osobą najbliższą, tj. <pokrzywdzonym/pokrzywdzoną> {victim_nom}, w ten sposób, że będąc pod wpływem alkoholu wszczynał[/a] awantury, wyzywał[/a] <go/ją> słowami wulgarnymi, szarpał[/a] i uderzał[/a], a także groził[/a] pozbawieniem życia",
  domestic_abuse_suicide: "w okresie od {date1} do {date2} znęcał[/a] się fizycznie i psychicznie nad <pokrzywdzonym/pokrzywdzoną> {victim_nom}, a następstwem czynu było targnięcie się <pokrzywdzonego/pokrzywdzonej> na własne życie",
  threats: "kierował[/a] wobec {victim_gen} groźby pozbawienia życia przy użyciu {weapon_gen}, a groźba ta wzbudziła w <nim/niej> uzasadnioną obawę, że zostanie spełniona",
  stalking: "w okresie od {date1} do {date2} uporczywie nękał[/a] {victim_acc}, wysyłając <mu/jej> kilkaset wiadomości SMS, wykonując głuche telefony i nachodząc <go/ją> w miejscu pracy, czym wzbudził[/a] u <niego/niej> uzasadnione okolicznościami poczucie zagrożenia",
  fatal_accident: "kierując samochodem osobowym marki {vehicle}, znajdując się w stanie nietrzeźwości ({promile} promila alkoholu we krwi), umyślnie naruszył[/a] zasady bezpieczeństwa w ruchu lądowym, przekraczając dopuszczalną prędkość, w wyniku czego potrącił[/a] <pieszego/pieszą> {victim_acc}, <który/która> w wyniku odniesionych obrażeń zmarł<|a>",
  accident: "kierując samochodem marki {vehicle}, nieumyślnie naruszył[/a] zasady bezpieczeństwa w ruchu lądowym, nie ustępując pierwszeństwa przejazdu, w wyniku czego doprowadził[/a] do zderzenia, a <pokrzywdzony/pokrzywdzona> {victim_nom} doznał<|a> {injury}",
  drunk_driving: "prowadził[/a] w ruchu lądowym samochód marki {vehicle}, znajdując się w stanie nietrzeźwości ({promile} promila alkoholu we krwi), będąc uprzednio prawomocnie skazan[y/a] za prowadzenie pojazdu w stanie nietrzeźwości",
  firearm: "bez wymaganego zezwolenia posiadał[/a] broń palną w postaci pistoletu kal. 9 mm wraz z {rounds} sztukami amunicji, ukrytą w garażu przy ul. {street}",
  arson: "podpalił[/a] budynek mieszkalny przy ul. {street}, sprowadzając pożar zagrażający życiu i zdrowiu wielu osób oraz mieniu w wielkich rozmiarach",
  criminal_damage: "uszkodził[/a] samochód marki {vehicle}, wybijając szyby i przecinając opony, czym spowodował[/a] straty w kwocie {amount} zł na szkodę {victim_gen}",
  bribery: "pełniąc funkcję publiczną jako {official}, przyjął[/a] korzyść majątkową w kwocie {amount} zł w zamian za przyspieszenie wydania decyzji administracyjnej",
  perjury: "składając zeznania mające służyć za dowód w postępowaniu sądowym, zeznał[/a] nieprawdę co do okoliczności zdarzenia, które miało miejsce {town}",
  false_document: "w celu użycia za autentyczny podrobił[/a] umowę pożyczki na kwotę {amount} zł, podpisując się za {victim_acc}, a następnie użył[/a] jej w postępowaniu cywilnym",
  ban_breach: "nie zastosował[/a] się do orzeczonego prawomocnym wyrokiem zakazu prowadzenia pojazdów mechanicznych, prowadząc samochód marki {vehicle}",
  trafficking: "dopuścił[/a] się handlu ludźmi w ten sposób, że wspólnie z innymi osobami zwerbował[/a] {buyers} obywateli Ukrainy, wprowadzając ich w błąd co do warunków zatrudnienia, w celu wykorzystania ich w pracy przymusowej",
  deprivation_liberty: "wspólnie z inną osobą pozbawił[/a] wolności {victim_acc}, przetrzymując <go/ją> przez {hours} godzin w pomieszczeniu gospodarczym i domagając się zwrotu rzekomego długu",
  police_assault: "dokonał[/a] czynnej napaści na funkcjonariusza Policji podczas i w związku z pełnieniem przez niego obowiązków służbowych, uderzając go {weapon_ins} w głowę",
};

const FRAUD_SUBJECTS = [
  "zamiaru i możliwości wywiązania się z umowy sprzedaży samochodu", "rzekomej inwestycji w kryptowaluty o gwarantowanej stopie zwrotu",
  "rzekomego wypadku drogowego wnuczka (tzw. metoda „na wnuczka”)", "tożsamości, podając się za funkcjonariusza Centralnego Biura Śledczego Policji",
  "możliwości uzyskania kredytu hipotecznego na preferencyjnych warunkach", "zamiaru wykonania usług remontowych, na które pobrał[/a] zaliczkę",
  "sprzedaży drewna opałowego, którego nie posiadał[/a]", "zwrotu pożyczki zaciągniętej rzekomo na leczenie matki",
  "sprzedaży biletów na koncert, które nie istniały", "zakupu maszyn rolniczych na raty",
];
const COMPANIES = [
  "Agro-Pol sp. z o.o.", "Transbud S.A.", "Meblex sp. z o.o.", "Polmlek sp. z o.o.", "Drewex sp.j.", "Elektro-Serwis sp. z o.o.",
  "Hurtpap S.A.", "Budmax sp. z o.o.", "Logistyka Wschód sp. z o.o.", "Farmapol sp. z o.o.",
];
const OFFICIALS = ["urzędnik wydziału komunikacji starostwa powiatowego", "inspektor nadzoru budowlanego", "funkcjonariusz Straży Granicznej", "komornik sądowy", "lekarz orzecznik ZUS"];
const VOIVODESHIPS = ["małopolskiego", "śląskiego", "mazowieckiego", "łódzkiego", "dolnośląskiego", "pomorskiego", "lubelskiego", "podkarpackiego", "zachodniopomorskiego", "podlaskiego", "wielkopolskiego", "świętokrzyskiego"];

const GROUND_TEXTS: Record<string, [string, string]> = {
  art7: ["naruszenie art. 7 k.p.k. (dowolna ocena dowodów)", "obrazę przepisów postępowania, która miała wpływ na treść orzeczenia, tj. art. 7 k.p.k., poprzez dowolną, a nie swobodną ocenę zgromadzonych dowodów, w szczególności zeznań świadka {witness_gen}"],
  facts: ["błąd w ustaleniach faktycznych", "błąd w ustaleniach faktycznych przyjętych za podstawę orzeczenia, polegający na przyjęciu, że oskarżon[y/a] działał[/a] w zamiarze popełnienia przypisanego czynu, podczas gdy prawidłowa ocena dowodów prowadzi do odmiennego wniosku"],
  severity: ["rażąca niewspółmierność kary", "rażącą niewspółmierność (surowość) orzeczonej kary {sentence} pozbawienia wolności, wynikającą z niedostatecznego uwzględnienia okoliczności łagodzących"],
  leniency: ["rażąca niewspółmierność kary (łagodność)", "rażącą niewspółmierność (łagodność) orzeczonej kary, nieuwzględniającą w należytym stopniu uprzedniej karalności oskarżon[ego/ej] i stopnia społecznej szkodliwości czynu"],
  material: ["obraza prawa materialnego – błędna kwalifikacja prawna", "obrazę prawa materialnego, tj. {article}, poprzez jego błędne zastosowanie, podczas gdy zachowanie oskarżon[ego/ej] winno zostać zakwalifikowane łagodniej"],
  doubt: ["naruszenie art. 5 § 2 k.p.k.", "naruszenie art. 5 § 2 k.p.k. poprzez rozstrzygnięcie niedających się usunąć wątpliwości na niekorzyść oskarżon[ego/ej]"],
  motions: ["naruszenie art. 170 § 1 k.p.k. (oddalenie wniosków dowodowych)", "naruszenie art. 170 § 1 k.p.k. poprzez bezzasadne oddalenie wniosku dowodowego o przesłuchanie świadka {witness_gen}"],
  experts: ["naruszenie art. 201 k.p.k. (opinia biegłych)", "naruszenie art. 201 k.p.k. poprzez zaniechanie powołania innych biegłych lekarzy psychiatrów, mimo że opinia wydana w sprawie była niepełna"],
};

const AGG_PL = ["uprzednia karalność", "działanie pod wpływem alkoholu", "działanie z niskich pobudek", "użycie niebezpiecznego narzędzia", "działanie w warunkach recydywy", "bezbronność pokrzywdzonego", "działanie wspólnie z innymi osobami", "znaczny rozmiar szkody", "brutalny sposób działania", "działanie w okresie próby"];
const MIT_PL = ["przyznanie się do winy", "wyrażenie skruchy", "dotychczasowa niekaralność", "młody wiek sprawcy", "naprawienie szkody", "trudna sytuacja rodzinna", "pozytywna opinia środowiskowa", "przeproszenie pokrzywdzonego", "zły stan zdrowia"];
const PROS_EV = ["zeznania pokrzywdzonego", "zeznania świadków", "opinia biegłego z zakresu medycyny sądowej", "zapis monitoringu", "badania DNA", "billingi telefoniczne", "protokół oględzin miejsca zdarzenia", "opinia toksykologiczna", "protokół przeszukania", "opinia biegłego z zakresu rekonstrukcji wypadków drogowych", "opinia biegłego z zakresu informatyki"];
const DEF_EV = ["wyjaśnienia oskarżonego", "zeznania świadka alibi", "prywatna opinia biegłego", "dokumentacja medyczna oskarżonego", "opinia z miejsca pracy"];
const ANCILLARY_PL: Record<string, string[]> = {
  violence: ["nawiązka na rzecz pokrzywdzonego", "zakaz zbliżania się do pokrzywdzonego", "zadośćuczynienie"],
  homicide: ["zadośćuczynienie na rzecz osób najbliższych", "przepadek narzędzia przestępstwa", "pozbawienie praw publicznych"],
  robbery: ["obowiązek naprawienia szkody", "przepadek narzędzia przestępstwa"],
  property: ["obowiązek naprawienia szkody"],
  fraud: ["obowiązek naprawienia szkody", "zakaz prowadzenia działalności gospodarczej", "grzywna"],
  drugs: ["przepadek korzyści majątkowej", "nawiązka na cele zapobiegania narkomanii", "przepadek środków odurzających"],
  sexual: ["zakaz kontaktowania się z pokrzywdzoną", "zakaz zajmowania stanowisk związanych z wychowaniem małoletnich", "zadośćuczynienie"],
  domestic: ["zakaz kontaktowania się z pokrzywdzonym", "nakaz opuszczenia lokalu zajmowanego wspólnie z pokrzywdzonym", "zakaz zbliżania się do pokrzywdzonego"],
  traffic: ["zakaz prowadzenia pojazdów mechanicznych", "świadczenie pieniężne na rzecz Funduszu Pomocy Pokrzywdzonym", "nawiązka na rzecz osób najbliższych"],
  other: ["przepadek przedmiotów", "grzywna"],
};
const TOPICS_PL: Record<PlCategory, string> = {
  homicide: "przestępstwa przeciwko życiu i zdrowiu",
  violence: "przestępstwa przeciwko życiu i zdrowiu",
  robbery: "przestępstwa przeciwko mieniu",
  property: "przestępstwa przeciwko mieniu",
  fraud: "przestępstwa przeciwko mieniu",
  drugs: "przestępstwa narkotykowe",
  sexual: "przestępstwa przeciwko wolności seksualnej",
  domestic: "przestępstwa przeciwko rodzinie i opiece",
  traffic: "przestępstwa przeciwko bezpieczeństwu w komunikacji",
  other: "przestępstwa przeciwko porządkowi publicznemu",
};

/** A category by weight, then an offence of it. */
function pickOffence(rng: Rng) {
  const category = rng.weighted(CATEGORY_WEIGHTS);
  return rng.pick(PL_OFFENCES.filter((o) => o.category === category));
}

interface PlPerson {
  first: string;
  firstGen: string;
  initial: string;
  female: boolean;
}

function person(rng: Rng, female: boolean): PlPerson {
  const [first, firstGen] = rng.pick(female ? PL_FEMALE : PL_MALE);
  return { first, firstGen, initial: `${rng.pick(PL_INITIALS)}.`, female };
}
function genderedName(rng: Rng, female: boolean): Pick<PlPerson, "first" | "firstGen" | "female"> {
  const [first, firstGen] = rng.pick(female ? PL_FEMALE : PL_MALE);
  return { first, firstGen, female };
}
const nom = (p: PlPerson) => `${p.first} ${p.initial}`;
const gen = (p: PlPerson) => `${p.firstGen} ${p.initial}`;
const acc = (p: PlPerson) => (p.female ? `${p.first.replace(/a$/, "ę")} ${p.initial}` : gen(p));
function fullName(rng: Rng, female: boolean): string {
  const [first] = rng.pick(female ? PL_FEMALE : PL_MALE);
  const [m, f] = rng.pick(PL_SURNAMES);
  return `${first} ${female ? f : m}`;
}

function snCitation(rng: Rng, before: Date): string {
  const y = before.getUTCFullYear() - rng.int(1, 12);
  const d = new Date(Date.UTC(y, rng.int(0, 11), rng.int(1, 28)));
  return rng.weighted([
    [`wyrok Sądu Najwyższego z dnia ${plDate(d)}, ${roman(rng.int(2, 5))} KK ${rng.int(10, 599)}/${yy(y)}`, 4],
    [`postanowienie SN z dnia ${plDate(d)}, ${roman(rng.int(2, 5))} KK ${rng.int(10, 599)}/${yy(y)}, LEX nr ${rng.int(100000, 3999999)}`, 3],
    [`uchwała składu siedmiu sędziów SN z dnia ${plDate(d)}, I KZP ${rng.int(1, 60)}/${yy(y)}, OSNKW ${y + 1}, z. ${rng.int(1, 12)}, poz. ${rng.int(1, 120)}`, 1],
    // An appellate judgment outside the corpus: its number is above every corpus judgment's (./citation-space.ts).
    [`wyrok Sądu Apelacyjnego ${rng.pick(PL_APPEAL_COURTS).loc} z dnia ${plDate(d)}, II AKa ${rng.int(PL_EXTERNAL_CASE_NUMBERS.min, PL_EXTERNAL_CASE_NUMBERS.max)}/${yy(y)}`, 3],
  ]);
}

/** The first draws of a PL row: its appeal court, the regional court below, and what its case number is made of. */
export interface PlCaseDraws {
  court: (typeof PL_APPEAL_COURTS)[number];
  regional: string;
  /** The case number drawn (1..PL_CASE_NUMBER_MAX), before ./citation-space.ts moves it off a taken one. */
  caseNo: number;
  /** Year of the case number, two digits (the appeal was lodged that year or the one before the decision). */
  caseYear: string;
}

/**
 * The first draws of a PL row, in the order they have always been made. Shared with generate.ts `rowNumbers`, which
 * gives each row its unique case number from them (./citation-space.ts) without generating the text.
 */
export function drawPlCase(rng: Rng, decisionDate: Date): PlCaseDraws {
  const court = rng.pick(PL_APPEAL_COURTS);
  const regional = rng.pick(court.regional);
  const year = decisionDate.getUTCFullYear();
  const caseNo = rng.int(1, PL_CASE_NUMBER_MAX);
  const caseYear = yy(rng.chance(0.8) ? year : year - 1);
  return { court, regional, caseNo, caseYear };
}

/** The court_name of a PL row. */
function plCourtName(court: PlCaseDraws["court"]): string {
  return `Sąd Apelacyjny ${court.loc}`;
}

/** A PL row's numbers from its draws and the case number its court's register gave it (its citation: no other). */
export function plRowNumbers(d: PlCaseDraws, caseNo: number): RowNumbers {
  return { court: plCourtName(d.court), caseNo, caseNumber: `II AKa ${caseNo}/${d.caseYear}`, neutralCitation: null };
}

export function generatePl(input: CaseInput): GeneratedCase {
  const { rng, decisionDate, targetChars, known } = input;
  const { court, regional } = drawPlCase(rng, decisionDate); // and the case number made of its draws (input.numbers)
  const { caseNo, caseNumber } = input.numbers;
  const regionalName = `Sąd Okręgowy ${regional}`;
  const firstInstance = addDays(decisionDate, -rng.int(90, 420));
  const firstCaseNumber = `II K ${rng.int(1, 320)}/${yy(firstInstance.getUTCFullYear() - (rng.chance(0.6) ? 1 : 0))}`;
  const hearing = addDays(decisionDate, -rng.int(0, 14));
  const offenceDate = addDays(firstInstance, -rng.int(150, 900));

  // Offences
  const byKey = new Map(PL_OFFENCES.map((o) => [o.key, o]));
  const main: PlOffence = known
    ? (byKey.get(known.offenceKey) ?? PL_OFFENCES[0])
    : pickOffence(rng);
  const offences: PlOffence[] = [main];
  if (rng.chance(0.3)) {
    const second = rng.pick(PL_OFFENCES.filter((o) => o.key !== main.key && (o.category === main.category || o.category === "other")));
    if (second) offences.push(second);
  }
  const acquitted = rng.chance(0.12) ? [rng.pick(PL_OFFENCES.filter((o) => !offences.includes(o) && o.category === main.category)) ?? null].filter((x): x is PlOffence => x !== null) : [];

  // People
  const offenderFemaleDraw = main.category === "sexual" ? rng.chance(0.02) : rng.chance(0.12);
  const offender = person(rng, known ? (known.offenderFemale ?? false) : offenderFemaleDraw);
  const age = rng.int(18, 66);
  const jobEnum = rng.weighted([["employed", 35], ["unemployed", 30], ["self_employed", 8], ["student", 5], ["retired", 5], ["other", 5], ["dont_know", 12]] as const);
  const job = jobEnum === "student" ? (offender.female ? "studentka" : "student") : jobEnum === "retired" ? (offender.female ? "emerytka" : "emeryt") : rng.pick(offender.female ? PL_JOBS_FEMALE : PL_JOBS_MALE);
  const homeEnum = rng.weighted([["fixed_address", 75], ["homeless", 6], ["temporary_accommodation", 7], ["dont_know", 12]] as const);
  const intox = rng.weighted([[[], 45], [["intox_alcohol"], 40], [["intox_drugs"], 8], [["intox_alcohol", "intox_drugs"], 5], [["intox_unknown"], 2]] as const) as readonly string[];
  const mental = rng.chance(0.25) ? rng.pick(PL_MENTAL) : null;
  const nVictims = main.hasVictim ? rng.weighted([[1, 80], [2, 12], [3, 5], [4, 3]] as const) : 0;
  const victims = Array.from({ length: nVictims }, () => person(rng, main.category === "sexual" ? rng.chance(0.9) : rng.chance(0.4)));
  if (known && victims[0]) victims[0] = { ...victims[0], ...genderedName(rng, known.victimFemale ?? false) };
  const victim = victims[0] ?? person(rng, false);
  const victimAge = rng.int(main.key === "rape_minor" || main.key === "child_abuse" ? 9 : 16, main.key === "rape_minor" || main.key === "child_abuse" ? 14 : 82);
  const relationship = !main.hasVictim
    ? null
    : main.category === "domestic"
      ? "relative"
      : rng.weighted([["stranger", 35], ["acquaintance", 40], ["relative", 12], ["dont_know", 13]] as const);
  const coDefendants = rng.weighted([[0, 60], [1, 20], [2, 10], [3, 6], [5, 4]] as const);

  // Sentence
  const [lo, hi] = main.months;
  let months = Math.round(lo + (hi - lo) * Math.pow(rng.next(), 1.6));
  const life = main.category === "homicide" && months > 280 && rng.chance(0.3);
  if (months > 300) months = 300;
  const suspended = !life && months <= 24 && rng.chance(0.45);
  const sentenceText = life ? "dożywotniego pozbawienia wolności" : `${plTerm(months)} pozbawienia wolności`;
  const sentenceTag = life ? "dożywotnie pozbawienie wolności" : `${plTerm(months).replace(" roku", " rok")} pozbawienia wolności${suspended ? " z warunkowym zawieszeniem" : ""}`;
  const ancillary = rng.sample(ANCILLARY_PL[main.category] ?? ANCILLARY_PL.other, rng.int(0, 2));
  const fineDays = rng.chance(0.2) ? rng.int(50, 300) : 0;

  // Appeal
  const appellant = rng.weighted([["offender", 68], ["attorney_general", 26], ["other", 6]] as const);
  const against: string[] =
    appellant === "attorney_general"
      ? rng.chance(0.8) ? ["appeal_sentence_lenient"] : ["appeal_other"]
      : appellant === "other"
        ? ["appeal_other"]
        : rng.weighted([[["appeal_conviction_unsafe"], 30], [["appeal_sentence_excessive"], 40], [["appeal_conviction_unsafe", "appeal_sentence_excessive"], 30]] as const).slice();
  let outcome = rng.weighted([["outcome_dismissed_or_refused", 62], ["changed", 25], ["outcome_other", 13]] as const) as string;
  if (outcome === "changed") {
    outcome = against.includes("appeal_sentence_lenient")
      ? "outcome_sentence_more_severe"
      : against.includes("appeal_conviction_unsafe") && rng.chance(0.35)
        ? "outcome_conviction_quashed"
        : against.includes("appeal_sentence_excessive")
          ? "outcome_sentence_more_lenient"
          : "outcome_other";
  }
  const newMonths =
    outcome === "outcome_sentence_more_lenient" ? Math.max(1, Math.round(months * (0.6 + 0.3 * rng.next()))) : outcome === "outcome_sentence_more_severe" ? Math.min(300, Math.round(months * (1.2 + 0.5 * rng.next()))) : months;
  const groundKeys =
    appellant === "attorney_general"
      ? against.includes("appeal_sentence_lenient") ? ["leniency"] : ["art7", "facts"]
      : rng.sample(["art7", "facts", "doubt", "motions", "experts", "material"], rng.int(1, 3)).concat(against.includes("appeal_sentence_excessive") ? ["severity"] : []);

  // Names of the court, counsel, witnesses
  const judgesRaw = [0, 1, 2].map((i) => ({ female: rng.chance(0.5), title: i === 2 && rng.chance(0.2) ? "SSO del." : "SSA" }));
  const judgeNames = judgesRaw.map((j) => fullName(rng, j.female));
  const reporter = rng.int(0, 2);
  const judges: Judge[] = judgeNames.map((n, i) => ({
    name: n,
    role: i === 0 ? (reporter === 0 ? "Przewodniczący (sprawozdawca)" : "Przewodniczący") : reporter === i ? "Sędzia (sprawozdawca)" : "Sędzia",
  }));
  const defenceFemale = rng.chance(0.45);
  const defence = `adw. ${fullName(rng, defenceFemale)}`;
  const prosecutor = `prok. ${fullName(rng, rng.chance(0.5))}`;
  const clerk = fullName(rng, rng.chance(0.8));
  const witnesses = Array.from({ length: 2 + Math.floor(targetChars / 9000) }, () => person(rng, rng.chance(0.5)));

  const weapon = rng.pick(PL_WEAPONS);
  const drug = rng.pick(PL_DRUGS);
  const street = rng.pick(PL_STREETS);
  const town = rng.pick(PL_TOWNS);
  const place = fill(rng.pick(PL_PLACES), { street });
  const premises = rng.pick(PL_PREMISES);
  const loot = rng.pick(PL_LOOT);
  const vehicle = rng.pick(PL_VEHICLES);
  const money = rng.int(3, 400) * 100 + rng.int(0, 99);
  const promile = (0.5 + rng.next() * 2.6).toFixed(2).replace(".", ",");
  const grams = rng.int(12, 4000);
  const d1 = addDays(offenceDate, -rng.int(60, 700));

  const g: Genders = { offender: offender.female, victim: victim.female };
  const slots: Record<string, string> = {
    victim_gen: gen(victim), victim_acc: acc(victim), victim_nom: nom(victim),
    weapon_ins: weapon[2], weapon_gen: weapon[1], weapon_nom: weapon[0], injury: rng.pick(PL_INJURIES),
    blows: String(rng.int(3, 14)), amount: amount(money, "pl"), loot, loot_gen: "mienia", premises, street,
    premises_into: premises.replace(/^w /, "do ").replace(/^na /, "na teren ").replace(/sklepie/, "sklepu").replace(/domu/, "domu").replace(/mieszkaniu/, "mieszkania").replace(/domku/, "domku").replace(/magazynie/, "magazynu").replace(/kantorze/, "kantoru").replace(/punkcie/, "punktu").replace(/aptece/, "apteki").replace(/salonie/, "salonu").replace(/placówce/, "placówki").replace(/oddziale/, "oddziału").replace(/kiosku/, "kiosku").replace(/piekarni/, "piekarni").replace(/hurtowni/, "hurtowni"),
    company: rng.pick(COMPANIES), fraud_subject: rng.pick(FRAUD_SUBJECTS), voivodeship: rng.pick(VOIVODESHIPS),
    drug_gen: drug[1], drug_nom: plAccusative(drug[0]), grams: String(grams), buyers: String(rng.int(3, 40)), price: String(rng.int(30, 120)),
    vehicle, promile, rounds: String(rng.int(5, 60)), official: rng.pick(OFFICIALS), hours: String(rng.int(3, 40)),
    date1: plDate(d1), date2: plDate(offenceDate), town, place_short: place, offence_date: plDate(offenceDate),
    trial_court_short: regional, sentence: sentenceText, article: main.article, mental: mental ?? rng.pick(PL_MENTAL),
    drug_amount: String(grams), time: `${rng.int(0, 23)}:${String(rng.int(0, 59)).padStart(2, "0")}`,
  };
  Object.assign(slots, known?.slots ?? {});
  const witnessPool = PL_WITNESS.filter((x) => (x.includes("{drug_nom}") ? main.category === "drugs" : x.includes("awantur domowych") ? main.category === "domestic" : true));
  const sn = () => snCitation(rng, decisionDate);
  const w = (i: number) => witnesses[i % witnesses.length];
  const withWitness = (i: number) => ({ ...slots, witness: nom(w(i)), witness_gen: gen(w(i)), sn: sn() });

  const out: string[] = [];
  const push = (s: string) => out.push(s);
  const oskGen = `oskarżon${offender.female ? "ej" : "ego"}`;

  // Header and operative part (sentencja)
  push(`Sygn. akt ${caseNumber}`);
  push("WYROK\nW IMIENIU RZECZYPOSPOLITEJ POLSKIEJ");
  push(`Dnia ${plDate(decisionDate)}`);
  push(`Sąd Apelacyjny ${court.loc} II Wydział Karny w składzie:`);
  push(
    `Przewodniczący: ${judgesRaw[0].title} ${judgeNames[0]}${reporter === 0 ? " (spr.)" : ""}\nSędziowie: ${judgesRaw[1].title} ${judgeNames[1]}${reporter === 1 ? " (spr.)" : ""}\n${judgesRaw[2].title} ${judgeNames[2]}${reporter === 2 ? " (spr.)" : ""}`,
  );
  push(`Protokolant: sekr. sąd. ${clerk}`);
  push(`przy udziale prokuratora Prokuratury ${rng.chance(0.5) ? "Regionalnej" : "Okręgowej"} ${court.loc} – ${prosecutor.replace("prok. ", "")}`);
  push(
    `po rozpoznaniu w dniu ${plDate(hearing)}\nsprawy ${gen(offender)}\n${oskGen} z ${offences.map((o) => o.article).join(" i ")}\nna skutek apelacji wniesionej przez ${appellant === "offender" ? `obrońcę ${oskGen}` : appellant === "attorney_general" ? "prokuratora" : "pełnomocnika oskarżyciela posiłkowego"}\nod wyroku Sądu Okręgowego ${regional}\nz dnia ${plDate(firstInstance)}, sygn. akt ${firstCaseNumber}`,
  );
  const operative: string[] = [];
  if (outcome === "outcome_dismissed_or_refused") operative.push(`utrzymuje w mocy zaskarżony wyrok${rng.chance(0.3) ? ", uznając apelację za oczywiście bezzasadną" : ""};`);
  else if (outcome === "outcome_sentence_more_lenient")
    operative.push(`zmienia zaskarżony wyrok w ten sposób, że obniża orzeczoną wobec ${oskGen} karę pozbawienia wolności do ${plTerm(newMonths)};`, "w pozostałej części zaskarżony wyrok utrzymuje w mocy;");
  else if (outcome === "outcome_sentence_more_severe")
    operative.push(`zmienia zaskarżony wyrok w ten sposób, że podwyższa orzeczoną wobec ${oskGen} karę pozbawienia wolności do ${plTerm(newMonths)};`, "w pozostałej części zaskarżony wyrok utrzymuje w mocy;");
  else if (outcome === "outcome_conviction_quashed")
    operative.push(`zmienia zaskarżony wyrok w ten sposób, że ${gen(offender)} uniewinnia od popełnienia zarzucanego ${offender.female ? "jej" : "mu"} czynu;`, "kosztami procesu w sprawie obciąża Skarb Państwa;");
  else operative.push(`uchyla zaskarżony wyrok i sprawę przekazuje Sądowi Okręgowemu ${regional} do ponownego rozpoznania;`);
  if (appellant === "offender" && outcome !== "outcome_conviction_quashed")
    operative.push(`zasądza od Skarbu Państwa na rzecz obrońcy z urzędu – ${defence} – kwotę ${rng.pick(["738", "1476", "1200", "840", "2214"])} zł, powiększoną o należny podatek VAT, tytułem kosztów nieopłaconej pomocy prawnej udzielonej w postępowaniu odwoławczym;`);
  if (outcome !== "outcome_conviction_quashed" && outcome !== "outcome_other")
    operative.push(rng.chance(0.6) ? `zwalnia ${oskGen} od ponoszenia kosztów sądowych za postępowanie odwoławcze, obciążając nimi Skarb Państwa.` : `zasądza od ${oskGen} na rzecz Skarbu Państwa koszty sądowe za postępowanie odwoławcze, w tym opłatę w kwocie ${rng.int(3, 40) * 100} zł.`);
  push(operative.map((s, i) => `${roman(i + 1)}. ${s}`).join("\n"));

  // Reasons (Uzasadnienie)
  push("UZASADNIENIE");
  const czyny = offences.map((o, i) => {
    const desc = gender(fill(DESCRIPTIONS[o.key] ?? DESCRIPTIONS.theft, slots), g);
    return `${roman(i + 1)}. w dniu ${plDate(addDays(offenceDate, i * rng.int(0, 30)))} ${slots.town}${o.category === "robbery" || o.category === "property" ? "" : `, ${slots.place_short}`}, ${desc}, tj. przestępstwa z ${o.article}${i === 0 && rng.chance(0.3) ? " w zw. z art. 64 § 1 k.k." : ""},`;
  });
  push(`Sąd Okręgowy ${regional} wyrokiem z dnia ${plDate(firstInstance)}, sygn. akt ${firstCaseNumber}, uznał ${oskGen} ${gen(offender)} za winn${offender.female ? "ą" : "ego"} tego, że:\n${czyny.join("\n")}\ni za to na podstawie ${main.article} wymierzył ${offender.female ? "jej" : "mu"} karę ${sentenceText}${suspended ? `, której wykonanie warunkowo zawiesił na okres próby ${rng.int(2, 5)} lat` : ""}${fineDays ? ` oraz grzywnę w wysokości ${fineDays} stawek dziennych, ustalając wysokość jednej stawki na kwotę ${rng.int(1, 10) * 10} zł` : ""}.`);
  if (offences.length > 1) push(`Na podstawie art. 85 § 1 k.k. i art. 86 § 1 k.k. Sąd połączył orzeczone kary jednostkowe i wymierzył ${oskGen} karę łączną ${sentenceText}.`);
  if (acquitted.length) push(`Jednocześnie Sąd Okręgowy uniewinnił ${oskGen} od popełnienia czynu z ${acquitted[0].article}.`);
  if (ancillary.length) push(`Ponadto Sąd orzekł wobec ${oskGen}: ${ancillary.join("; ")}.`);
  const remandEnum = rng.weighted([["remanded_in_custody", 55], ["conditional_bail", 20], ["unconditional_bail", 10], ["dont_know", 15]] as const);
  const remandDays = remandEnum === "remanded_in_custody" ? rng.int(60, 700) : 0;
  if (remandEnum === "remanded_in_custody")
    push(`Na podstawie art. 63 § 1 k.k. na poczet orzeczonej kary zaliczono okres rzeczywistego pozbawienia wolności w sprawie od dnia ${plDate(addDays(offenceDate, rng.int(0, 20)))} do dnia ${plDate(addDays(offenceDate, remandDays))}`);

  push("Sąd Okręgowy ustalił następujący stan faktyczny:");
  push(
    gender(
      `Oskarżon[y/a] ${nom(offender)} ma ${plYears(age)}${jobEnum === "unemployed" ? ", pozostaje bez stałego zatrudnienia" : `, z zawodu ${job}`}${homeEnum === "homeless" ? ", nie posiada stałego miejsca zamieszkania" : homeEnum === "temporary_accommodation" ? ", przebywał[/a] w hostelu robotniczym" : `, zamieszkuje ${slots.town}`}. ${rng.chance(0.55) ? `Był[/a] wcześniej ${rng.int(1, 9)}-krotnie karan[y/a] sądownie, m.in. za przestępstwa przeciwko mieniu.` : "Nie był[/a] dotychczas karan[y/a] sądownie."} ${intox.includes("intox_alcohol") ? "Nadużywa alkoholu, w czasie zdarzenia był[/a] nietrzeźw[y/a]." : ""}`,
      g,
    ),
  );
  push(gender(`W dniu ${plDate(offenceDate)} ${slots.town}, ${slots.place_short}, doszło do zdarzenia będącego przedmiotem postępowania. ${czyny[0].replace(/^I\. w dniu [^,]+, /, "Oskarżon[y/a] ").replace(/,$/, ".")}`, g));
  if (known) push(known.facts);
  if (mental) push(paragraph(rng, PL_POOLS.mental, 2, { ...slots, mental }, g));
  for (let i = 0; i < witnesses.length && i < 4; i++) {
    const wit = w(i);
    const lines = rng.sample(witnessPool, rng.int(2, 3)).map((s) => gender(fill(s, { ...slots, street: rng.pick(PL_STREETS), vehicle: rng.pick(PL_VEHICLES) }), { ...g, witness: wit.female }));
    push(`Świadek ${nom(wit)} ${lines.join(", a ponadto ")}.`);
  }
  push(
    `Apelację od powyższego wyroku wniósł ${appellant === "offender" ? `obrońca ${oskGen} – ${defence}` : appellant === "attorney_general" ? `prokurator, zaskarżając wyrok na niekorzyść ${oskGen}` : "pełnomocnik oskarżyciela posiłkowego"}, zarzucając:\n${groundKeys.map((k, i) => `${i + 1}. ${gender(fill(GROUND_TEXTS[k][1], withWitness(i)), g)}`).join(";\n")}.`,
  );
  push(
    appellant === "attorney_general"
      ? `Podnosząc powyższe, prokurator wniósł o zmianę zaskarżonego wyroku poprzez wymierzenie ${oskGen} kary surowszej.`
      : `Podnosząc powyższe zarzuty, skarżący wniósł o zmianę zaskarżonego wyroku i uniewinnienie ${oskGen}, ewentualnie o uchylenie wyroku i przekazanie sprawy do ponownego rozpoznania.`,
  );
  push("Sąd Apelacyjny zważył, co następuje:");
  push(
    outcome === "outcome_dismissed_or_refused"
      ? `Apelacja ${appellant === "attorney_general" ? "prokuratora" : "obrońcy"} nie zasługiwała na uwzględnienie.`
      : outcome === "outcome_other"
        ? "Apelacja okazała się zasadna o tyle, że jej wniesienie doprowadziło do uchylenia zaskarżonego wyroku i przekazania sprawy do ponownego rozpoznania."
        : "Apelacja okazała się częściowo zasadna.",
  );

  // Reasoning paragraphs until the target length is reached.
  const topics = ["evidence", "facts_error", "procedure", "evidence", "sentence", "victim", "facts_error", "sentence"];
  if (known) push(known.reasoning);
  let len = out.reduce((s, x) => s + x.length + 2, 0);
  let t = 0;
  let witnessNo = 4;
  while (len < targetChars - 400) {
    const topic = topics[t % topics.length];
    let para: string;
    if (t % 5 === 4 && witnessNo < witnesses.length) {
      const wit = witnesses[witnessNo++];
      const lines = rng.sample(witnessPool, 2).map((s) => gender(fill(s, { ...slots, street: rng.pick(PL_STREETS), vehicle: rng.pick(PL_VEHICLES) }), { ...g, witness: wit.female }));
      para = `Odnosząc się do zeznań świadka ${gen(wit)}, należy wskazać, że świadek ten ${lines.join(", a także ")}. Relacja ta koresponduje z pozostałym materiałem dowodowym.`;
    } else {
      para = paragraph(rng, PL_POOLS[topic], rng.int(3, 6), withWitness(t), g);
    }
    push(para);
    len += para.length + 2;
    t++;
  }
  push(paragraph(rng, PL_POOLS.closing, 2, slots, g));
  push(judgeNames.map((n, i) => `${judgesRaw[i].title} ${n}`).join("   "));
  const fullText = out.join("\n\n");

  // Extraction consistent with the text.
  const convictTags = offences.map((o) => `${o.name} (${o.article})`);
  const extraction: Record<string, unknown> = {
    keywords: [main.name, ...(known?.keywords ?? []), ...(weaponUsed(main) ? [slots.weapon_nom] : []), TOPICS_PL[main.category]],
    neutral_citation_number: caseNumber,
    case_number: caseNo,
    date_of_appeal_court_judgment: isoDate(decisionDate),
    appeal_court_judges_names: judgeNames.join(", "),
    case_name: nom(offender),
    offender_representative_name: appellant === "offender" ? defence : null,
    crown_attorney_general_representative_name: prosecutor,
    conv_court_names: regionalName,
    convict_plea_dates: [isoDate(firstInstance)],
    convict_offences: convictTags,
    acquit_offences: acquitted.map((o) => `${o.name} (${o.article})`),
    did_offender_confess: rng.chance(0.3),
    plea_point: rng.chance(0.7) ? "dont_know" : rng.pick(["police_presence", "first_court_appearance", "before_trial"]),
    remand_decision: remandEnum,
    remand_custody_time: remandDays ? `${Math.round(remandDays / 30)} miesięcy tymczasowego aresztowania` : null,
    sent_court_name: regionalName,
    sentences_received: [sentenceTag, ...(fineDays ? [`grzywna ${fineDays} stawek dziennych`] : [])],
    sentence_serve: offences.length > 1 ? ["serve_concurrent"] : null,
    what_ancilliary_orders: ancillary,
    offender_gender: [offender.female ? "gender_female" : "gender_male"],
    offender_age_offence: `${age}`,
    offender_job_offence: jobEnum,
    offender_home_offence: homeEnum,
    offender_mental_offence: mental,
    offender_intox_offence: intox,
    offender_victim_relationship: relationship,
    victim_type: main.hasVictim ? (["fraud", "property"].includes(main.category) && rng.chance(0.2) ? "organisation" : "individual_person") : null,
    num_victims: nVictims || null,
    victim_gender: victims.length ? [...new Set(victims.map((v) => (v.female ? "gender_female" : "gender_male")))] : null,
    victim_age_offence: main.hasVictim ? victimAge : null,
    victim_job_offence: main.hasVictim && rng.chance(0.3) ? rng.pick(victim.female ? PL_JOBS_FEMALE : PL_JOBS_MALE) : null,
    victim_home_offence: main.hasVictim && rng.chance(0.2) ? "stałe miejsce zamieszkania" : null,
    victim_mental_offence: main.hasVictim && rng.chance(0.1) ? "zespół stresu pourazowego" : null,
    victim_intox_offence: main.hasVictim && rng.chance(0.25) ? ["intox_alcohol"] : null,
    pros_evid_type_trial: rng.sample(PROS_EV, rng.int(2, 5)),
    def_evid_type_trial: rng.sample(DEF_EV, rng.int(1, 2)),
    pre_sent_report: rng.chance(0.85) ? null : rng.pick(["low", "medium", "high", "dont_know"]),
    agg_fact_sent: rng.sample(AGG_PL, rng.int(0, 3)),
    mit_fact_sent: rng.sample(MIT_PL, rng.int(0, 3)),
    vic_impact_statement: main.hasVictim ? rng.chance(0.15) : null,
    appellant,
    co_def_acc_num: coDefendants,
    appeal_against: against,
    appeal_ground: groundKeys.map((k) => GROUND_TEXTS[k][0]),
    sent_guide_which: ["art. 53 § 1 k.k.", ...(rng.chance(0.3) ? ["art. 60 § 2 k.k."] : []), ...(offences.length > 1 ? ["art. 86 § 1 k.k."] : [])],
    appeal_outcome: [outcome],
    reason_quash_conv: outcome === "outcome_conviction_quashed" ? rng.sample(["dowolna ocena dowodów", "brak dowodów sprawstwa", "niewyjaśnienie istotnych okoliczności"], rng.int(1, 2)) : null,
    reason_sent_excessive: outcome === "outcome_sentence_more_lenient" ? rng.sample(["nieuwzględnienie okoliczności łagodzących", "młody wiek sprawcy", "pozytywna prognoza kryminologiczna", "naprawienie szkody"], rng.int(1, 2)) : null,
    reason_sent_lenient: outcome === "outcome_sentence_more_severe" ? rng.sample(["wielokrotna uprzednia karalność", "działanie w warunkach recydywy", "brutalny sposób działania"], rng.int(1, 2)) : null,
    reason_dismiss: outcome === "outcome_dismissed_or_refused" ? rng.sample(["prawidłowa ocena dowodów", "kara adekwatna do stopnia winy", "brak błędu w ustaleniach faktycznych", "zarzuty stanowią polemikę z ustaleniami sądu"], rng.int(1, 2)) : null,
  };

  return {
    caseNumber,
    courtName: plCourtName(court),
    courtLevel: "Sąd Apelacyjny",
    caseType: "Karna",
    decisionType: "Wyrok",
    judges,
    fullText,
    keywords: [main.name, ...offences.slice(1).map((o) => o.name), ...(known?.keywords ?? []), "apelacja"],
    legalTopics: [TOPICS_PL[main.category], "postępowanie odwoławcze", ...(groundKeys.includes("severity") || groundKeys.includes("leniency") ? ["wymiar kary"] : [])],
    sourceUrl: `https://orzeczenia.demo.invalid/pl/${court.city.toLowerCase()}/${caseNumber.replace(/[ /]/g, "-")}`,
    language: "pl",
    extraction,
  };
}

function weaponUsed(o: PlOffence): boolean {
  return ["homicide", "violence"].includes(o.category) || o.key === "robbery_armed" || o.key === "threats";
}
