/**
 * "Known answer" judgments planted in the demo corpus: each has facts no other judgment shares (an unusual weapon,
 * object or place), so a search benchmark can check relevance: the planted judgment must rank in the top 3 for its
 * query. They sit at fixed indexes below 600, so the test slice (size 600) holds all of them too.
 *
 *   import { KNOWN_ANSWERS, knownAnswerId } from "@/supabase/seed/known-answers";
 *   for (const k of KNOWN_ANSWERS) expect(top3(k.query)).toContain(knownAnswerId(seed, k.key));
 */
import { judgmentId } from "./ids";
import type { KnownPlant } from "./types";

export interface KnownAnswer extends KnownPlant {
  /** Position in the generated corpus (0-based). */
  index: number;
  jurisdiction: "PL" | "UK";
  /** A query that must put this judgment in the top 3 (every word appears verbatim in the text). */
  query: string;
  /** Other phrasings that should find it too (e.g. without diacritics). */
  altQueries: string[];
}

export const KNOWN_ANSWERS: readonly KnownAnswer[] = [
  {
    key: "pl-cavalry-sabre",
    slots: { weapon_nom: "szabla kawaleryjska", weapon_gen: "szabli kawaleryjskiej", weapon_ins: "szablą kawaleryjską", town: "w Sierakowie", place_short: "na przystani kajakowej nad jeziorem Lutomskim" },
    index: 5,
    jurisdiction: "PL",
    offenceKey: "attempt_murder",
    query: "szabla kawaleryjska przystań kajakowa Sieraków",
    altQueries: ["szabla kawaleryjska Sierakow", "przystan kajakowa szabla"],
    facts:
      "Narzędziem użytym przez oskarżonego była zabytkowa szabla kawaleryjska wz. 1921, którą wcześniej przechowywał w szafie. Do zdarzenia doszło na przystani kajakowej nad jeziorem Lutomskim w Sierakowie, gdzie pokrzywdzony cumował kajaki; przystań kajakowa była w chwili zdarzenia oświetlona. Sieraków to miejscowość, w której obaj od lat spędzali lato.",
    reasoning:
      "Sposób użycia szabli kawaleryjskiej, zadanie cięcia w okolice szyi z dużą siłą na przystani kajakowej w Sierakowie, jednoznacznie wskazuje na zamiar ewentualny pozbawienia życia.",
    keywords: ["szabla kawaleryjska", "przystań kajakowa", "Sieraków"],
  },
  {
    key: "pl-crossbow-dugout",
    slots: { weapon_nom: "kusza bloczkowa", weapon_gen: "kuszy bloczkowej", weapon_ins: "kuszą bloczkową", place_short: "w ziemiance w Puszczy Knyszyńskiej", town: "w gminie Supraśl" },
    index: 47,
    jurisdiction: "PL",
    offenceKey: "deprivation_liberty",
    query: "kusza bloczkowa ziemianka Puszcza Knyszyńska",
    altQueries: ["kusza ziemianka Puszcza Knyszynska"],
    facts:
      "Pokrzywdzony był przetrzymywany w ziemiance wykopanej w głębi lasu, na terenie Puszcza Knyszyńska (oddział leśny nr 212), a oskarżony pilnował wejścia, trzymając w rękach kuszę bloczkową. Kusza bloczkowa została następnie zabezpieczona przez funkcjonariuszy wraz z kompletem bełtów. Ziemianka była zamaskowana gałęziami świerkowymi.",
    reasoning:
      "Przetrzymywanie pokrzywdzonego w ziemiance w Puszczy Knyszyńskiej pod groźbą użycia kuszy bloczkowej przesądza o szczególnym udręczeniu, co Sąd Okręgowy trafnie uwzględnił.",
    keywords: ["kusza bloczkowa", "ziemianka", "Puszcza Knyszyńska"],
  },
  {
    key: "pl-beehives",
    slots: { loot: "40 uli wielkopolskich z rodzinami pszczelimi", premises: "w pasiece", town: "w Kazimierzu Dolnym", place_short: "w pasiece w Kazimierzu Dolnym" },
    index: 98,
    jurisdiction: "PL",
    offenceKey: "theft",
    query: "ule pasieka Kazimierz Dolny kradzież",
    altQueries: ["kradziez uli z pasieki Kazimierz Dolny"],
    facts:
      "Przedmiotem kradzieży było czterdzieści uli wielkopolskich wraz z rodzinami pszczelimi, zabranych nocą z pasieki położonej na skraju wąwozu lessowego; pasieka należała do pokrzywdzonego od trzydziestu lat. Ule przewieziono przyczepą w kierunku Opola Lubelskiego. Miejscowość Kazimierz Dolny, w której działała pasieka, oskarżony znał z wcześniejszej pracy sezonowej.",
    reasoning:
      "Wartość skradzionych uli i rodzin pszczelich z pasieki w Kazimierzu Dolnym ustalono na podstawie opinii biegłego z zakresu pszczelarstwa, której apelacja skutecznie nie podważyła; kradzież ta zniweczyła dorobek pokrzywdzonego.",
    keywords: ["ule", "pasieka", "Kazimierz Dolny"],
  },
  {
    key: "pl-truffle-certificates",
    slots: { fraud_subject: "pochodzenia trufli białych z Piemontu, posługując się podrobionymi certyfikatami trufli" },
    index: 151,
    jurisdiction: "PL",
    offenceKey: "fraud",
    query: "certyfikaty trufli Piemont oszustwo",
    altQueries: ["trufle z Piemontu oszustwo certyfikaty"],
    facts:
      "Oskarżony oferował restauratorom trufle białe, rzekomo pochodzące z Piemontu, dołączając do każdej partii podrobione certyfikaty trufli opatrzone pieczęcią nieistniejącego konsorcjum z Alby. W rzeczywistości sprzedawane grzyby były tanimi truflami chińskimi nasączonymi olejem aromatyzowanym. Certyfikaty trufli drukował w domu na papierze kredowym, a region Piemont wskazywał jako miejsce zbioru. Tak zorganizowane oszustwo trwało dwa sezony.",
    reasoning:
      "Posłużenie się sfałszowanymi certyfikatami trufli z Piemontu stanowiło zasadniczy element wprowadzenia pokrzywdzonych w błąd, co przesądza o przypisaniu oskarżonemu oszustwa.",
    keywords: ["trufle", "certyfikaty trufli", "Piemont"],
  },
  {
    key: "pl-windmill-arson",
    slots: { town: "w Bukowcu", place_short: "przy zabytkowym wiatraku koźlaku" },
    index: 203,
    jurisdiction: "PL",
    offenceKey: "arson",
    query: "wiatrak koźlak Bukowiec podpalenie",
    altQueries: ["wiatrak kozlak Bukowiec"],
    facts:
      "Podpalenie dotyczyło zabytkowego wiatraka typu koźlak z 1868 r., stojącego na wzgórzu w Bukowcu i wpisanego do rejestru zabytków. Oskarżony oblał drewnianą konstrukcję wiatraka benzyną i podłożył ogień, a pożar przeniósł się na sąsiednie zabudowania gospodarcze. Wiatrak koźlak spłonął doszczętnie; wieś Bukowiec utraciła swój najcenniejszy zabytek.",
    reasoning:
      "Zniszczenie przez podpalenie wiatraka koźlaka w Bukowcu, obiektu o szczególnym znaczeniu dla kultury, słusznie zostało potraktowane jako okoliczność obciążająca.",
    keywords: ["wiatrak", "koźlak", "Bukowiec", "podpalenie"],
  },
  {
    key: "pl-harpoon-lighthouse",
    slots: { weapon_nom: "harpun", weapon_gen: "harpuna", weapon_ins: "harpunem", premises: "w punkcie z pamiątkami przy latarni morskiej", town: "w Rozewiu", place_short: "przy latarni morskiej w Rozewiu" },
    index: 251,
    jurisdiction: "PL",
    offenceKey: "robbery_armed",
    query: "harpun latarnia morska Rozewie",
    altQueries: ["rozboj harpun Rozewie"],
    facts:
      "Sprawca posłużył się harpunem do łowiectwa podwodnego, grożąc nim kasjerce punktu z pamiątkami u podnóża wzgórza, na którym stoi latarnia morska w Rozewiu. Harpun miał naciągniętą gumę i był gotowy do strzału. Po zdarzeniu oskarżony ukrył się w lesie za latarnią morską, skąd zbiegł w kierunku Jastrzębiej Góry. Przylądek Rozewie był tego dnia pełen turystów.",
    reasoning:
      "Harpun, którym oskarżony groził przy latarni morskiej w Rozewiu, jest niebezpiecznym przedmiotem w rozumieniu art. 280 § 2 k.k., skoro mógł spowodować obrażenia zagrażające życiu.",
    keywords: ["harpun", "latarnia morska", "Rozewie"],
    victimFemale: true,
  },
  {
    key: "uk-ceremonial-trident",
    slots: { weapon: "a ceremonial trident", place: "Llandudno pier", place_short: "Llandudno pier", town: "Llandudno" },
    index: 307,
    jurisdiction: "UK",
    offenceKey: "attempted_murder",
    query: "ceremonial trident Llandudno pier",
    altQueries: ["trident attack pier Llandudno"],
    facts:
      "The weapon was a ceremonial trident, taken from a display of civic regalia, which the appellant carried onto Llandudno pier late in the evening. He drove the trident into the complainant's chest near the pier pavilion. Witnesses on the promenade saw the ceremonial trident thrown into the sea afterwards; divers recovered it the next day.",
    reasoning:
      "The use of a ceremonial trident, carried deliberately onto Llandudno pier, demonstrated planning and an intention to kill, as the judge was entitled to find.",
    keywords: ["ceremonial trident", "Llandudno pier"],
  },
  {
    key: "uk-racing-pigeons",
    slots: { premises: "a pigeon loft", loot: "300 racing pigeons", town: "Clitheroe" },
    index: 353,
    jurisdiction: "UK",
    offenceKey: "burglary",
    query: "racing pigeons loft Clitheroe",
    altQueries: ["stolen racing pigeons Clitheroe"],
    facts:
      "The burglary targeted a pigeon loft in Clitheroe belonging to a well-known fancier. Some 300 racing pigeons, including several birds with national race wins, were taken from the loft in wicker baskets. The racing pigeons were later advertised for sale online using their ring numbers.",
    reasoning:
      "The theft of racing pigeons of high value from a loft in Clitheroe caused loss that went well beyond their monetary value, and the judge was right to treat the offence as one of high harm.",
    keywords: ["racing pigeons", "pigeon loft", "Clitheroe"],
  },
  {
    key: "uk-faberge-eggs",
    slots: { fraud_subject: "that counterfeit Fabergé eggs were genuine pieces from a Romanov collection", town: "Harrogate" },
    index: 401,
    jurisdiction: "UK",
    offenceKey: "fraud",
    query: "counterfeit Fabergé eggs Harrogate",
    altQueries: ["counterfeit Faberge eggs Harrogate", "fake Faberge eggs collectors"],
    facts:
      "The fraud concerned counterfeit Fabergé eggs (described in the catalogues as Faberge eggs from a private Romanov collection), which the appellant sold to collectors at an antiques fair in Harrogate. Each counterfeit egg came with forged provenance papers. Experts later established that the enamel had been applied in 2016.",
    reasoning:
      "The sale of counterfeit Fabergé eggs to elderly collectors in Harrogate involved sophisticated planning and abuse of trust, placing the offending in culpability category A.",
    keywords: ["counterfeit Fabergé eggs", "Harrogate", "antiques fraud"],
  },
  {
    key: "uk-cricket-pavilion",
    slots: { place: "the thatched cricket pavilion at Little Snoring", place_short: "the cricket pavilion", town: "Little Snoring" },
    index: 449,
    jurisdiction: "UK",
    offenceKey: "arson_life",
    query: "thatched cricket pavilion Little Snoring arson",
    altQueries: ["cricket pavilion fire Little Snoring"],
    facts:
      "The arson was of the thatched cricket pavilion at Little Snoring, in which the groundsman was asleep. The appellant poured petrol over the thatch of the cricket pavilion and set it alight shortly after midnight. The groundsman escaped through a window with burns to his hands.",
    reasoning:
      "Setting fire to a thatched cricket pavilion in Little Snoring, knowing that the groundsman slept there, was arson of the most serious kind, with life plainly endangered.",
    keywords: ["thatched cricket pavilion", "Little Snoring", "arson"],
  },
  {
    key: "uk-frozen-lamb",
    slots: { weapon: "a frozen leg of lamb", place: "a holiday cottage in Portmeirion", place_short: "the cottage", town: "Portmeirion" },
    index: 503,
    jurisdiction: "UK",
    offenceKey: "gbh",
    query: "frozen leg of lamb Portmeirion",
    altQueries: ["assault leg of lamb Portmeirion"],
    facts:
      "The assault took place in a holiday cottage in Portmeirion. During an argument over the cooking of a Sunday lunch the appellant struck the complainant on the head with a frozen leg of lamb, fracturing his skull. The frozen leg of lamb was later found in the garden of the cottage.",
    reasoning:
      "A frozen leg of lamb, swung at the head with force, is capable of causing very serious injury; the judge in Portmeirion's case rightly treated it as a weapon.",
    keywords: ["frozen leg of lamb", "Portmeirion"],
  },
  {
    key: "uk-organ-pipes",
    slots: { drug: "cocaine", town: "Lavenham", street: "Church Street" },
    index: 557,
    jurisdiction: "UK",
    offenceKey: "pwits_a",
    query: "church organ pipes cocaine Lavenham",
    altQueries: ["cocaine hidden in organ pipes Lavenham"],
    facts:
      "Police found two kilograms of cocaine concealed inside hollowed-out church organ pipes in a workshop in Lavenham, where the appellant restored organs. The organ pipes had been sealed with lead solder. The appellant's fingerprints were found on the wrapping inside the church organ pipes.",
    reasoning:
      "Concealing cocaine inside church organ pipes in Lavenham showed a significant role and a sophisticated method of evading detection.",
    keywords: ["church organ pipes", "cocaine", "Lavenham"],
  },
];

const byIndex = new Map(KNOWN_ANSWERS.map((k) => [k.index, k]));

/** The known answer planted at a corpus index, if any. */
export function knownAnswerAt(index: number): KnownAnswer | undefined {
  return byIndex.get(index);
}

/** The judgment id of a known answer in a corpus generated with `seed`. */
export function knownAnswerId(seed: number, key: string): string {
  const k = KNOWN_ANSWERS.find((x) => x.key === key);
  if (!k) throw new Error(`unknown known answer ${key}`);
  return judgmentId(seed, k.index);
}
