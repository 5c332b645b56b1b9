/**
 * Polish vocabulary for the demo corpus: courts of appeal and their regional courts, names (nominative/genitive),
 * places, weapons, injuries, drugs, and offences under real Kodeks karny articles. Synthetic people only.
 */

/** The eleven Polish courts of appeal: [city nominative, "w …" locative phrase, regional courts "w …"]. */
export const PL_APPEAL_COURTS: readonly { city: string; loc: string; regional: readonly string[] }[] = [
  { city: "Białystok", loc: "w Białymstoku", regional: ["w Białymstoku", "w Łomży", "w Olsztynie", "w Suwałkach", "w Ostrołęce"] },
  { city: "Gdańsk", loc: "w Gdańsku", regional: ["w Gdańsku", "w Bydgoszczy", "w Elblągu", "w Słupsku", "w Toruniu", "we Włocławku"] },
  { city: "Katowice", loc: "w Katowicach", regional: ["w Katowicach", "w Bielsku-Białej", "w Częstochowie", "w Gliwicach", "w Rybniku", "w Sosnowcu"] },
  { city: "Kraków", loc: "w Krakowie", regional: ["w Krakowie", "w Kielcach", "w Nowym Sączu", "w Tarnowie"] },
  { city: "Lublin", loc: "w Lublinie", regional: ["w Lublinie", "w Radomiu", "w Siedlcach", "w Zamościu"] },
  { city: "Łódź", loc: "w Łodzi", regional: ["w Łodzi", "w Kaliszu", "w Piotrkowie Trybunalskim", "w Płocku", "w Sieradzu"] },
  { city: "Poznań", loc: "w Poznaniu", regional: ["w Poznaniu", "w Koninie", "w Zielonej Górze"] },
  { city: "Rzeszów", loc: "w Rzeszowie", regional: ["w Rzeszowie", "w Krośnie", "w Przemyślu", "w Tarnobrzegu"] },
  { city: "Szczecin", loc: "w Szczecinie", regional: ["w Szczecinie", "w Gorzowie Wielkopolskim", "w Koszalinie"] },
  { city: "Warszawa", loc: "w Warszawie", regional: ["w Warszawie", "Warszawa-Praga w Warszawie", "w Płocku", "w Radomiu", "w Siedlcach", "w Ostrołęce"] },
  { city: "Wrocław", loc: "we Wrocławiu", regional: ["we Wrocławiu", "w Jeleniej Górze", "w Legnicy", "w Opolu", "w Świdnicy"] },
];

/** Male first names [nominative, genitive]. */
export const PL_MALE: readonly [string, string][] = [
  ["Adam", "Adama"], ["Andrzej", "Andrzeja"], ["Bartosz", "Bartosza"], ["Damian", "Damiana"], ["Dariusz", "Dariusza"],
  ["Grzegorz", "Grzegorza"], ["Jakub", "Jakuba"], ["Jan", "Jana"], ["Kamil", "Kamila"], ["Krzysztof", "Krzysztofa"],
  ["Łukasz", "Łukasza"], ["Marcin", "Marcina"], ["Marek", "Marka"], ["Mariusz", "Mariusza"], ["Mateusz", "Mateusza"],
  ["Michał", "Michała"], ["Paweł", "Pawła"], ["Piotr", "Piotra"], ["Rafał", "Rafała"], ["Robert", "Roberta"],
  ["Sebastian", "Sebastiana"], ["Sławomir", "Sławomira"], ["Tomasz", "Tomasza"], ["Wojciech", "Wojciecha"],
  ["Zbigniew", "Zbigniewa"], ["Artur", "Artura"], ["Daniel", "Daniela"], ["Dawid", "Dawida"], ["Patryk", "Patryka"],
  ["Przemysław", "Przemysława"], ["Radosław", "Radosława"], ["Szymon", "Szymona"], ["Waldemar", "Waldemara"],
  ["Zdzisław", "Zdzisława"], ["Leszek", "Leszka"], ["Henryk", "Henryka"], ["Ryszard", "Ryszarda"],
  ["Stanisław", "Stanisława"], ["Kazimierz", "Kazimierza"], ["Jerzy", "Jerzego"], ["Norbert", "Norberta"],
  ["Hubert", "Huberta"], ["Konrad", "Konrada"], ["Emil", "Emila"], ["Oskar", "Oskara"], ["Igor", "Igora"],
];
/** Female first names [nominative, genitive]. */
export const PL_FEMALE: readonly [string, string][] = [
  ["Anna", "Anny"], ["Agnieszka", "Agnieszki"], ["Barbara", "Barbary"], ["Beata", "Beaty"], ["Dorota", "Doroty"],
  ["Ewa", "Ewy"], ["Elżbieta", "Elżbiety"], ["Joanna", "Joanny"], ["Justyna", "Justyny"], ["Katarzyna", "Katarzyny"],
  ["Magdalena", "Magdaleny"], ["Małgorzata", "Małgorzaty"], ["Marta", "Marty"], ["Monika", "Moniki"],
  ["Natalia", "Natalii"], ["Paulina", "Pauliny"], ["Renata", "Renaty"], ["Sylwia", "Sylwii"], ["Urszula", "Urszuli"],
  ["Zofia", "Zofii"], ["Aleksandra", "Aleksandry"], ["Karolina", "Karoliny"], ["Weronika", "Weroniki"],
  ["Jolanta", "Jolanty"], ["Grażyna", "Grażyny"], ["Halina", "Haliny"], ["Iwona", "Iwony"], ["Krystyna", "Krystyny"],
  ["Teresa", "Teresy"], ["Wioletta", "Wioletty"], ["Edyta", "Edyty"], ["Izabela", "Izabeli"],
];
/** Surnames [male, female] for judges, prosecutors and counsel (parties are anonymised to an initial). */
export const PL_SURNAMES: readonly [string, string][] = [
  ["Kowalski", "Kowalska"], ["Nowak", "Nowak"], ["Wiśniewski", "Wiśniewska"], ["Wójcik", "Wójcik"],
  ["Kowalczyk", "Kowalczyk"], ["Kamiński", "Kamińska"], ["Lewandowski", "Lewandowska"], ["Zieliński", "Zielińska"],
  ["Szymański", "Szymańska"], ["Woźniak", "Woźniak"], ["Dąbrowski", "Dąbrowska"], ["Kozłowski", "Kozłowska"],
  ["Jankowski", "Jankowska"], ["Mazur", "Mazur"], ["Kwiatkowski", "Kwiatkowska"], ["Krawczyk", "Krawczyk"],
  ["Piotrowski", "Piotrowska"], ["Grabowski", "Grabowska"], ["Nowakowski", "Nowakowska"], ["Pawłowski", "Pawłowska"],
  ["Michalski", "Michalska"], ["Nowicki", "Nowicka"], ["Adamczyk", "Adamczyk"], ["Dudek", "Dudek"],
  ["Zając", "Zając"], ["Wieczorek", "Wieczorek"], ["Jabłoński", "Jabłońska"], ["Król", "Król"], ["Majewski", "Majewska"],
  ["Olszewski", "Olszewska"], ["Jaworski", "Jaworska"], ["Wróbel", "Wróbel"], ["Malinowski", "Malinowska"],
  ["Pawlak", "Pawlak"], ["Witkowski", "Witkowska"], ["Walczak", "Walczak"], ["Stępień", "Stępień"], ["Górski", "Górska"],
  ["Rutkowski", "Rutkowska"], ["Michalak", "Michalak"], ["Sikora", "Sikora"], ["Ostrowski", "Ostrowska"],
  ["Baran", "Baran"], ["Duda", "Duda"], ["Szewczyk", "Szewczyk"], ["Tomaszewski", "Tomaszewska"], ["Pietrzak", "Pietrzak"],
  ["Marciniak", "Marciniak"], ["Wróblewski", "Wróblewska"], ["Zalewski", "Zalewska"], ["Jakubowski", "Jakubowska"],
  ["Jasiński", "Jasińska"], ["Zawadzki", "Zawadzka"], ["Sadowski", "Sadowska"], ["Bąk", "Bąk"], ["Chmielewski", "Chmielewska"],
  ["Włodarczyk", "Włodarczyk"], ["Borkowski", "Borkowska"], ["Czarnecki", "Czarnecka"], ["Sawicki", "Sawicka"],
  ["Sokołowski", "Sokołowska"], ["Urbański", "Urbańska"], ["Kubiak", "Kubiak"], ["Maciejewski", "Maciejewska"],
  ["Szczepański", "Szczepańska"], ["Kucharski", "Kucharska"], ["Wilk", "Wilk"], ["Kalinowski", "Kalinowska"],
  ["Lis", "Lis"], ["Mazurek", "Mazurek"], ["Wysocki", "Wysocka"], ["Adamski", "Adamska"], ["Kaźmierczak", "Kaźmierczak"],
  ["Wasilewski", "Wasilewska"], ["Sobczak", "Sobczak"], ["Czerwiński", "Czerwińska"], ["Andrzejewski", "Andrzejewska"],
  ["Cieślak", "Cieślak"], ["Głowacki", "Głowacka"], ["Zakrzewski", "Zakrzewska"], ["Kołodziej", "Kołodziej"],
  ["Sikorski", "Sikorska"], ["Krajewski", "Krajewska"], ["Gajewski", "Gajewska"], ["Szulc", "Szulc"], ["Szymczak", "Szymczak"],
  ["Baranowski", "Baranowska"], ["Laskowski", "Laskowska"], ["Brzeziński", "Brzezińska"], ["Makowski", "Makowska"],
];
/** Surname initials for anonymised parties. */
export const PL_INITIALS = "ABCDFGHJKLMNOPRSTWZ".split("").concat(["Ch", "Sz", "Cz", "Ż", "Ł", "Ś"]);

/** Towns where events happen: "w …" locative phrases. */
export const PL_TOWNS: readonly string[] = [
  "w Bochni", "w Brzesku", "w Wieliczce", "w Myślenicach", "w Oświęcimiu", "w Chrzanowie", "w Olkuszu", "w Zakopanem",
  "w Nowym Targu", "w Gorlicach", "w Limanowej", "w Dębicy", "w Mielcu", "w Jaśle", "w Sanoku", "w Łańcucie", "w Przeworsku",
  "w Jarosławiu", "w Stalowej Woli", "w Puławach", "w Kraśniku", "w Chełmie", "w Białej Podlaskiej", "w Łukowie",
  "w Świdniku", "w Hrubieszowie", "w Biłgoraju", "w Tomaszowie Lubelskim", "w Garwolinie", "w Mińsku Mazowieckim",
  "w Otwocku", "w Pruszkowie", "w Legionowie", "w Wołominie", "w Grodzisku Mazowieckim", "w Piasecznie", "w Żyrardowie",
  "w Sochaczewie", "w Ciechanowie", "w Mławie", "w Pułtusku", "w Wyszkowie", "w Kutnie", "w Zgierzu", "w Pabianicach",
  "w Bełchatowie", "w Radomsku", "w Tomaszowie Mazowieckim", "w Skierniewicach", "w Łowiczu", "w Zduńskiej Woli",
  "w Wieluniu", "w Ostrowie Wielkopolskim", "w Gnieźnie", "w Lesznie", "w Pile", "w Chodzieży", "w Śremie", "w Swarzędzu",
  "w Wągrowcu", "w Kole", "w Turku", "w Słubicach", "w Żarach", "w Żaganiu", "w Nowej Soli", "w Świebodzinie",
  "w Głogowie", "w Lubinie", "w Bolesławcu", "w Wałbrzychu", "w Kłodzku", "w Oleśnicy", "w Oławie", "w Brzegu",
  "w Nysie", "w Kędzierzynie-Koźlu", "w Raciborzu", "w Wodzisławiu Śląskim", "w Żorach", "w Tychach", "w Chorzowie",
  "w Bytomiu", "w Zabrzu", "w Rudzie Śląskiej", "w Siemianowicach Śląskich", "w Dąbrowie Górniczej", "w Jaworznie",
  "w Zawierciu", "w Myszkowie", "w Cieszynie", "w Żywcu", "w Pszczynie", "w Mikołowie", "w Starachowicach",
  "w Ostrowcu Świętokrzyskim", "w Skarżysku-Kamiennej", "w Sandomierzu", "w Busku-Zdroju", "w Jędrzejowie",
  "w Augustowie", "w Ełku", "w Giżycku", "w Mrągowie", "w Kętrzynie", "w Bartoszycach", "w Iławie", "w Ostródzie",
  "w Działdowie", "w Hajnówce", "w Bielsku Podlaskim", "w Zambrowie", "w Grajewie", "w Kwidzynie", "w Malborku",
  "w Tczewie", "w Starogardzie Gdańskim", "w Wejherowie", "w Kartuzach", "w Chojnicach", "w Bytowie", "w Lęborku",
  "w Grudziądzu", "w Inowrocławiu", "w Chełmnie", "w Świeciu", "w Nakle nad Notecią", "w Brodnicy", "w Stargardzie",
  "w Goleniowie", "w Świnoujściu", "w Kołobrzegu", "w Białogardzie", "w Wałczu", "w Szczecinku", "w Pyrzycach",
  "w Choszcznie", "w Myśliborzu", "w Kostrzynie nad Odrą", "we Wschowie", "we Włoszczowie", "w Radzyniu Podlaskim",
];
/** Streets named in the genitive, so "przy ul. …" needs no declension. */
export const PL_STREETS: readonly string[] = [
  "Mickiewicza", "Kościuszki", "Piłsudskiego", "Słowackiego", "Sienkiewicza", "Reymonta", "Kopernika", "Żeromskiego",
  "Chopina", "Konopnickiej", "Orzeszkowej", "Jana Pawła II", "Wyszyńskiego", "Traugutta", "Kilińskiego", "Okrzei",
  "Prusa", "Asnyka", "Batorego", "Chrobrego", "Kasprowicza", "Narutowicza", "Wojska Polskiego", "3 Maja", "11 Listopada",
  "Armii Krajowej", "Kolejowej", "Polnej", "Leśnej", "Ogrodowej", "Lipowej", "Szkolnej", "Kwiatowej", "Krótkiej",
  "Długiej", "Słonecznej", "Różanej", "Spacerowej", "Fabrycznej", "Przemysłowej", "Młyńskiej", "Kościelnej",
  "Zielonej", "Wiejskiej", "Podgórnej", "Rzemieślniczej", "Hallera", "Moniuszki", "Matejki", "Wyspiańskiego",
  "Norwida", "Staszica", "Paderewskiego", "Dąbrowskiego", "Pułaskiego", "Kraszewskiego", "Tuwima", "Broniewskiego",
];

/** Places "where" (locative phrases); {street} is filled in. */
export const PL_PLACES: readonly string[] = [
  "w mieszkaniu przy ul. {street}", "na klatce schodowej bloku przy ul. {street}", "przed sklepem spożywczym przy ul. {street}",
  "na parkingu przed marketem przy ul. {street}", "w barze piwnym przy ul. {street}", "na przystanku autobusowym przy ul. {street}",
  "w altanie na terenie ogródków działkowych przy ul. {street}", "na stacji paliw przy ul. {street}",
  "w lokalu gastronomicznym przy ul. {street}", "w pomieszczeniu gospodarczym posesji przy ul. {street}",
  "na terenie budowy przy ul. {street}", "w pobliżu dworca PKP", "w parku miejskim", "na polnej drodze za miejscowością",
  "w kantorze wymiany walut przy ul. {street}", "w salonie gier przy ul. {street}", "na dyskotece w klubie przy ul. {street}",
  "podczas festynu na stadionie miejskim", "w domu jednorodzinnym przy ul. {street}", "w garażu przy ul. {street}",
  "na tyłach pawilonu handlowego przy ul. {street}", "w pokoju hotelu robotniczego przy ul. {street}",
  "w piwnicy kamienicy przy ul. {street}", "nad zalewem, w pobliżu kąpieliska", "w lesie przy drodze wojewódzkiej",
];

/** Weapons [nominative, genitive, instrumental]. */
export const PL_WEAPONS: readonly [string, string, string][] = [
  ["nóż kuchenny", "noża kuchennego", "nożem kuchennym"], ["siekiera", "siekiery", "siekierą"], ["młotek", "młotka", "młotkiem"],
  ["kij bejsbolowy", "kija bejsbolowego", "kijem bejsbolowym"], ["maczeta", "maczety", "maczetą"], ["łom", "łomu", "łomem"],
  ["tasak", "tasaka", "tasakiem"], ["metalowa rurka", "metalowej rurki", "metalową rurką"],
  ["pistolet gazowy", "pistoletu gazowego", "pistoletem gazowym"], ["śrubokręt", "śrubokręta", "śrubokrętem"],
  ["nóż sprężynowy", "noża sprężynowego", "nożem sprężynowym"], ["kastet", "kastetu", "kastetem"],
  ["drewniana pałka", "drewnianej pałki", "drewnianą pałką"], ["taboret", "taboretu", "taboretem"],
  ["szklana popielniczka", "szklanej popielniczki", "szklaną popielniczką"], ["cegła", "cegły", "cegłą"],
  ["klucz francuski", "klucza francuskiego", "kluczem francuskim"], ["widły", "wideł", "widłami"], ["sierp", "sierpa", "sierpem"],
  ["rozbita butelka", "rozbitej butelki", "rozbitą butelką"], ["paralizator", "paralizatora", "paralizatorem"],
  ["nóż myśliwski", "noża myśliwskiego", "nożem myśliwskim"], ["kuchenny tłuczek", "kuchennego tłuczka", "kuchennym tłuczkiem"],
  ["stalowy pręt", "stalowego pręta", "stalowym prętem"], ["toporek", "toporka", "toporkiem"],
];
/** Injuries (accusative, after "doznał/a …"). */
export const PL_INJURIES: readonly string[] = [
  "rany kłutej klatki piersiowej z uszkodzeniem serca", "złamania kości nosa", "wstrząśnienia mózgu", "złamania żuchwy",
  "ran ciętych przedramienia", "krwiaka podtwardówkowego", "złamania żeber z odmą opłucnową", "stłuczenia głowy",
  "urazu czaszkowo-mózgowego", "rany kłutej brzucha z uszkodzeniem jelita cienkiego", "utraty wzroku w lewym oku",
  "złamania kości oczodołu", "rany ciętej szyi", "złamania kości przedramienia", "pęknięcia śledziony",
  "wybicia dwóch zębów siecznych", "rozległych oparzeń dłoni i twarzy", "złamania podstawy czaszki",
];
/** Drugs [nominative, genitive]. */
export const PL_DRUGS: readonly [string, string][] = [
  ["amfetamina", "amfetaminy"], ["marihuana", "marihuany"], ["kokaina", "kokainy"], ["mefedron", "mefedronu"],
  ["heroina", "heroiny"], ["haszysz", "haszyszu"], ["metamfetamina", "metamfetaminy"], ["MDMA", "MDMA"],
  ["tabletki ecstasy", "tabletek ecstasy"], ["ziele konopi innych niż włókniste", "ziela konopi innych niż włókniste"],
];
export const PL_VEHICLES: readonly string[] = [
  "Audi A4", "Volkswagen Passat", "Opel Astra", "BMW serii 5", "Skoda Octavia", "Ford Focus", "Toyota Corolla",
  "Renault Megane", "Fiat Punto", "Seat Leon", "Mercedes Sprinter", "Peugeot 307", "Honda Civic", "Kia Ceed", "Dacia Logan",
  "Volkswagen Golf", "Opel Vectra", "Ford Mondeo", "Mazda 6", "Citroen Berlingo", "Iveco Daily", "Nissan Qashqai",
];
/** Loot (accusative). */
export const PL_LOOT: readonly string[] = [
  "telefon komórkowy marki Samsung", "laptop marki Lenovo", "złotą biżuterię", "elektronarzędzia marki Makita",
  "rower górski", "karton papierosów", "portfel z dokumentami", "zegarek naręczny", "katalizatory samochodowe",
  "miedziane przewody trakcyjne", "kosiarkę spalinową", "telewizor LCD", "konsolę do gier", "aparat fotograficzny",
  "piłę spalinową marki Stihl", "kasetkę z utargiem", "obrączki ślubne", "kolekcję monet", "tablet marki Apple",
  "perfumy o wartości kilku tysięcy złotych", "agregat prądotwórczy", "skuter", "przyczepkę samochodową",
];
/** Business premises (locative) for robberies and burglaries. */
export const PL_PREMISES: readonly string[] = [
  "w sklepie spożywczym", "na stacji paliw", "w kantorze wymiany walut", "w punkcie lombardowym", "w aptece",
  "w salonie jubilerskim", "w placówce pocztowej", "w oddziale banku spółdzielczego", "w sklepie monopolowym", "w kiosku",
  "w salonie telefonii komórkowej", "w piekarni", "w hurtowni materiałów budowlanych", "w domu jednorodzinnym",
  "w mieszkaniu na parterze", "w domku letniskowym", "na terenie zakładu stolarskiego", "w magazynie firmy kurierskiej",
];

export type PlCategory = "homicide" | "violence" | "robbery" | "property" | "fraud" | "drugs" | "sexual" | "traffic" | "domestic" | "other";

export interface PlOffence {
  key: string;
  /** Legal qualification as written in a judgment. */
  article: string;
  /** Short name (nominative) used in tags and summaries. */
  name: string;
  category: PlCategory;
  /** Typical custodial range in months [min, max]. */
  months: [number, number];
  hasVictim: boolean;
}

export const PL_OFFENCES: readonly PlOffence[] = [
  { key: "murder", article: "art. 148 § 1 k.k.", name: "zabójstwo", category: "homicide", months: [96, 300], hasVictim: true },
  { key: "murder_aggr", article: "art. 148 § 2 pkt 2 k.k.", name: "zabójstwo w związku z rozbojem", category: "homicide", months: [180, 300], hasVictim: true },
  { key: "attempt_murder", article: "art. 13 § 1 k.k. w zw. z art. 148 § 1 k.k.", name: "usiłowanie zabójstwa", category: "homicide", months: [96, 180], hasVictim: true },
  { key: "manslaughter", article: "art. 155 k.k.", name: "nieumyślne spowodowanie śmierci", category: "homicide", months: [12, 60], hasVictim: true },
  { key: "serious_harm", article: "art. 156 § 1 pkt 2 k.k.", name: "spowodowanie ciężkiego uszczerbku na zdrowiu", category: "violence", months: [36, 120], hasVictim: true },
  { key: "serious_harm_death", article: "art. 156 § 3 k.k.", name: "ciężki uszczerbek na zdrowiu ze skutkiem śmiertelnym", category: "homicide", months: [60, 180], hasVictim: true },
  { key: "medium_harm", article: "art. 157 § 1 k.k.", name: "spowodowanie średniego uszczerbku na zdrowiu", category: "violence", months: [6, 36], hasVictim: true },
  { key: "brawl", article: "art. 158 § 1 k.k.", name: "udział w pobiciu", category: "violence", months: [6, 30], hasVictim: true },
  { key: "brawl_death", article: "art. 158 § 3 k.k.", name: "udział w pobiciu ze skutkiem śmiertelnym", category: "homicide", months: [36, 120], hasVictim: true },
  { key: "robbery", article: "art. 280 § 1 k.k.", name: "rozbój", category: "robbery", months: [24, 84], hasVictim: true },
  { key: "robbery_armed", article: "art. 280 § 2 k.k.", name: "rozbój z użyciem niebezpiecznego przedmiotu", category: "robbery", months: [36, 144], hasVictim: true },
  { key: "robbery_theft", article: "art. 281 k.k.", name: "kradzież rozbójnicza", category: "robbery", months: [12, 60], hasVictim: true },
  { key: "extortion", article: "art. 282 k.k.", name: "wymuszenie rozbójnicze", category: "robbery", months: [12, 72], hasVictim: true },
  { key: "theft", article: "art. 278 § 1 k.k.", name: "kradzież", category: "property", months: [3, 30], hasVictim: true },
  { key: "burglary", article: "art. 279 § 1 k.k.", name: "kradzież z włamaniem", category: "property", months: [12, 60], hasVictim: true },
  { key: "embezzlement", article: "art. 284 § 2 k.k.", name: "przywłaszczenie powierzonego mienia", category: "fraud", months: [6, 36], hasVictim: true },
  { key: "fraud", article: "art. 286 § 1 k.k.", name: "oszustwo", category: "fraud", months: [6, 60], hasVictim: true },
  { key: "fraud_large", article: "art. 286 § 1 k.k. w zw. z art. 294 § 1 k.k.", name: "oszustwo w stosunku do mienia znacznej wartości", category: "fraud", months: [24, 96], hasVictim: true },
  { key: "money_laundering", article: "art. 299 § 1 k.k.", name: "pranie pieniędzy", category: "fraud", months: [12, 72], hasVictim: false },
  { key: "org_group", article: "art. 258 § 1 k.k.", name: "udział w zorganizowanej grupie przestępczej", category: "other", months: [6, 48], hasVictim: false },
  { key: "drug_supply", article: "art. 56 ust. 3 ustawy o przeciwdziałaniu narkomanii", name: "wprowadzanie do obrotu znacznej ilości środków odurzających", category: "drugs", months: [24, 96], hasVictim: false },
  { key: "drug_dealing", article: "art. 59 ust. 1 ustawy o przeciwdziałaniu narkomanii", name: "udzielanie środków odurzających w celu osiągnięcia korzyści majątkowej", category: "drugs", months: [12, 60], hasVictim: false },
  { key: "drug_possession", article: "art. 62 ust. 2 ustawy o przeciwdziałaniu narkomanii", name: "posiadanie znacznej ilości środków odurzających", category: "drugs", months: [6, 48], hasVictim: false },
  { key: "drug_import", article: "art. 55 ust. 3 ustawy o przeciwdziałaniu narkomanii", name: "wewnątrzwspólnotowe nabycie znacznej ilości środków odurzających", category: "drugs", months: [36, 120], hasVictim: false },
  { key: "rape", article: "art. 197 § 1 k.k.", name: "zgwałcenie", category: "sexual", months: [24, 96], hasVictim: true },
  { key: "rape_minor", article: "art. 197 § 3 pkt 2 k.k.", name: "zgwałcenie małoletniego poniżej lat 15", category: "sexual", months: [60, 180], hasVictim: true },
  { key: "child_abuse", article: "art. 200 § 1 k.k.", name: "obcowanie płciowe z małoletnim poniżej lat 15", category: "sexual", months: [24, 96], hasVictim: true },
  { key: "domestic_abuse", article: "art. 207 § 1 k.k.", name: "znęcanie się nad osobą najbliższą", category: "domestic", months: [6, 48], hasVictim: true },
  { key: "domestic_abuse_suicide", article: "art. 207 § 3 k.k.", name: "znęcanie się skutkujące targnięciem się na życie", category: "domestic", months: [24, 120], hasVictim: true },
  { key: "threats", article: "art. 190 § 1 k.k.", name: "groźba karalna", category: "domestic", months: [3, 24], hasVictim: true },
  { key: "stalking", article: "art. 190a § 1 k.k.", name: "uporczywe nękanie", category: "domestic", months: [6, 36], hasVictim: true },
  { key: "fatal_accident", article: "art. 177 § 2 k.k. w zw. z art. 178 § 1 k.k.", name: "spowodowanie wypadku ze skutkiem śmiertelnym w stanie nietrzeźwości", category: "traffic", months: [24, 96], hasVictim: true },
  { key: "accident", article: "art. 177 § 1 k.k.", name: "spowodowanie wypadku komunikacyjnego", category: "traffic", months: [6, 36], hasVictim: true },
  { key: "drunk_driving", article: "art. 178a § 4 k.k.", name: "prowadzenie pojazdu w stanie nietrzeźwości w warunkach recydywy", category: "traffic", months: [6, 36], hasVictim: false },
  { key: "firearm", article: "art. 263 § 2 k.k.", name: "posiadanie broni palnej bez zezwolenia", category: "other", months: [6, 48], hasVictim: false },
  { key: "arson", article: "art. 163 § 1 pkt 1 k.k.", name: "sprowadzenie pożaru zagrażającego życiu lub mieniu w wielkich rozmiarach", category: "other", months: [12, 96], hasVictim: true },
  { key: "criminal_damage", article: "art. 288 § 1 k.k.", name: "zniszczenie cudzej rzeczy", category: "property", months: [3, 24], hasVictim: true },
  { key: "bribery", article: "art. 228 § 1 k.k.", name: "przyjęcie korzyści majątkowej przez funkcjonariusza publicznego", category: "fraud", months: [12, 60], hasVictim: false },
  { key: "perjury", article: "art. 233 § 1 k.k.", name: "składanie fałszywych zeznań", category: "other", months: [3, 24], hasVictim: false },
  { key: "false_document", article: "art. 270 § 1 k.k.", name: "podrabianie dokumentu", category: "fraud", months: [3, 24], hasVictim: false },
  { key: "ban_breach", article: "art. 244 k.k.", name: "niestosowanie się do orzeczonego zakazu", category: "traffic", months: [3, 24], hasVictim: false },
  { key: "trafficking", article: "art. 189a § 1 k.k.", name: "handel ludźmi", category: "other", months: [36, 144], hasVictim: true },
  { key: "deprivation_liberty", article: "art. 189 § 1 k.k.", name: "pozbawienie wolności", category: "violence", months: [12, 60], hasVictim: true },
  { key: "police_assault", article: "art. 223 § 1 k.k.", name: "czynna napaść na funkcjonariusza publicznego", category: "violence", months: [12, 48], hasVictim: true },
];

/** Occupations (nominative, after "z zawodu"), by grammatical gender. */
export const PL_JOBS_MALE: readonly string[] = [
  "kierowca zawodowy", "pracownik budowlany", "sprzedawca", "mechanik samochodowy", "magazynier", "rolnik", "ochroniarz",
  "spawacz", "elektryk", "kucharz", "kelner", "stolarz", "przedsiębiorca", "taksówkarz", "listonosz",
  "operator wózka widłowego", "murarz", "hydraulik", "kominiarz", "górnik", "ślusarz", "informatyk", "technik weterynarii",
];
export const PL_JOBS_FEMALE: readonly string[] = [
  "sprzedawczyni", "fryzjerka", "pielęgniarka", "księgowa", "nauczycielka", "kelnerka", "sprzątaczka", "kosmetyczka",
  "krawcowa", "opiekunka osób starszych", "kasjerka", "przedszkolanka", "szwaczka", "technik farmacji", "kucharka",
];
export const PL_MENTAL: readonly string[] = [
  "zespół zależności alkoholowej", "osobowość dyssocjalna", "upośledzenie umysłowe w stopniu lekkim",
  "zaburzenia osobowości o cechach impulsywnych", "organiczne zaburzenia osobowości", "epizod depresyjny",
  "ograniczona w stopniu znacznym zdolność rozpoznania znaczenia czynu (art. 31 § 2 k.k.)", "uzależnienie od amfetaminy",
  "zaburzenia adaptacyjne", "schizofrenia paranoidalna w okresie remisji",
];
