/**
 * English vocabulary for the demo corpus: Crown Court centres, synthetic names, places, weapons, offences with their
 * statutes and the Sentencing Council guidelines that govern them. Synthetic people only (no real judges or parties).
 */

export const UK_CROWN_COURTS: readonly string[] = [
  "Birmingham", "Manchester (Minshull Street)", "Manchester (Crown Square)", "Liverpool", "Leeds", "Sheffield", "Bradford",
  "Newcastle upon Tyne", "Teesside", "Hull", "York", "Nottingham", "Leicester", "Derby", "Northampton", "Stoke-on-Trent",
  "Wolverhampton", "Coventry", "Warwick", "Worcester", "Bristol", "Exeter", "Plymouth", "Truro", "Winchester", "Southampton",
  "Portsmouth", "Bournemouth", "Reading", "Oxford", "Luton", "St Albans", "Chelmsford", "Ipswich", "Norwich", "Cambridge",
  "Peterborough", "Lincoln", "Canterbury", "Maidstone", "Lewes", "Hove", "Guildford", "Kingston upon Thames",
  "the Central Criminal Court", "Southwark", "Snaresbrook", "Wood Green", "Isleworth", "Croydon", "Inner London",
  "Woolwich", "Harrow", "Cardiff", "Swansea", "Newport", "Mold", "Caernarfon", "Preston", "Bolton", "Burnley", "Carlisle",
  "Chester", "Durham", "Gloucester", "Taunton", "Salisbury", "Aylesbury", "Basildon", "Snaresbrook", "Minshull Street",
];

export const UK_FIRST_MALE: readonly string[] = [
  "James", "John", "Robert", "Michael", "David", "Richard", "Thomas", "Daniel", "Matthew", "Anthony", "Mark", "Paul",
  "Steven", "Andrew", "Kevin", "Jason", "Ryan", "Jamie", "Liam", "Connor", "Callum", "Kyle", "Dean", "Lee", "Craig",
  "Wayne", "Darren", "Gary", "Shane", "Nathan", "Jordan", "Reece", "Tyler", "Aaron", "Adam", "Ashley", "Bradley", "Carl",
  "Mohammed", "Imran", "Tariq", "Kwame", "Tomasz", "Marius", "Oluwaseun", "Declan", "Rhys", "Gareth", "Owen", "Euan",
];
export const UK_FIRST_FEMALE: readonly string[] = [
  "Sarah", "Emma", "Laura", "Rebecca", "Hannah", "Charlotte", "Jessica", "Amy", "Gemma", "Kelly", "Stacey", "Danielle",
  "Nicola", "Claire", "Lisa", "Michelle", "Rachel", "Sophie", "Chloe", "Megan", "Natalie", "Zoe", "Leanne", "Jade",
  "Aisha", "Fatima", "Priya", "Agnieszka", "Siobhan", "Bethan", "Catrin", "Eilidh",
];
export const UK_SURNAMES: readonly string[] = [
  "Smith", "Jones", "Williams", "Taylor", "Brown", "Davies", "Evans", "Wilson", "Thomas", "Johnson", "Roberts", "Robinson",
  "Thompson", "Wright", "Walker", "White", "Edwards", "Hughes", "Green", "Hall", "Lewis", "Harris", "Clarke", "Patel",
  "Jackson", "Wood", "Turner", "Martin", "Cooper", "Hill", "Ward", "Morris", "Moore", "Clark", "Lee", "King", "Baker",
  "Harrison", "Morgan", "Allen", "James", "Scott", "Phillips", "Watson", "Davis", "Parker", "Price", "Bennett", "Young",
  "Griffiths", "Mitchell", "Kelly", "Cook", "Carter", "Richardson", "Bailey", "Collins", "Bell", "Shaw", "Murphy",
  "Miller", "Cox", "Richards", "Khan", "Marshall", "Anderson", "Simpson", "Ellis", "Adams", "Singh", "Begum", "Wilkinson",
  "Foster", "Chapman", "Powell", "Webb", "Rogers", "Gray", "Mason", "Ali", "Hunt", "Hussain", "Campbell", "Matthews",
  "Owen", "Palmer", "Holmes", "Mills", "Barnes", "Knight", "Lloyd", "Butler", "Russell", "Barker", "Fisher", "Stevens",
  "Jenkins", "Murray", "Dixon", "Harvey", "Pearson", "Graham", "Fletcher", "Hamilton", "Kowalczyk", "Okafor", "Mensah",
  "Ahmed", "Rahman", "O'Brien", "McCarthy", "Doherty", "Gallagher", "Quinn", "Fitzgerald", "Sutherland", "MacLeod",
];
/** Surnames for judges and counsel, kept apart from parties' surnames so names are selective. */
export const UK_BENCH_SURNAMES: readonly string[] = [
  "Ashworth", "Beresford", "Calloway", "Davenport", "Elphinstone", "Fairbairn", "Goodhart", "Hawthorne", "Ingleby",
  "Jessop", "Kingsley", "Lambourne", "Mortimer", "Netherwood", "Ormerod", "Pemberton", "Quarrie", "Rutherford",
  "Sempill", "Thorneycroft", "Underhill", "Vyvyan", "Wetherby", "Yelland", "Ainsworth", "Blakeney", "Carrington",
  "Dunmore", "Eversley", "Fenwick", "Gresham", "Hollingsworth", "Kilbride", "Lockhart", "Merriman", "Northcote",
  "Pendleton", "Radcliffe", "Stanhope", "Tremayne", "Wainwright", "Aldridge", "Brereton", "Cheetham", "Drummond",
  "Fothergill", "Grenville", "Hartley", "Keswick", "Linklater", "Montague", "Overton", "Prideaux", "Roxburgh",
];

export const UK_TOWNS: readonly string[] = [
  "Walsall", "Dudley", "Oldham", "Rochdale", "Wigan", "Stockport", "Salford", "Huddersfield", "Halifax", "Wakefield",
  "Doncaster", "Rotherham", "Barnsley", "Sunderland", "Gateshead", "Middlesbrough", "Hartlepool", "Darlington",
  "Scunthorpe", "Grimsby", "Mansfield", "Chesterfield", "Loughborough", "Kettering", "Corby", "Wellingborough",
  "Nuneaton", "Rugby", "Redditch", "Kidderminster", "Telford", "Shrewsbury", "Hereford", "Swindon", "Weston-super-Mare",
  "Torquay", "Barnstaple", "Yeovil", "Poole", "Basingstoke", "Andover", "Slough", "High Wycombe", "Milton Keynes",
  "Bedford", "Stevenage", "Watford", "Harlow", "Colchester", "Southend-on-Sea", "Lowestoft", "Great Yarmouth",
  "King's Lynn", "Boston", "Grantham", "Margate", "Folkestone", "Dover", "Gravesend", "Crawley", "Eastbourne", "Hastings",
  "Worthing", "Aldershot", "Woking", "Croydon", "Tottenham", "Hackney", "Brixton", "Peckham", "Ilford", "Romford",
  "Barking", "Hounslow", "Ealing", "Enfield", "Lewisham", "Newport", "Merthyr Tydfil", "Wrexham", "Rhyl", "Llanelli",
  "Blackpool", "Blackburn", "Accrington", "Lancaster", "Barrow-in-Furness", "Workington", "Crewe", "Warrington",
  "Birkenhead", "St Helens", "Bootle", "Skelmersdale", "Burton upon Trent", "Tamworth", "Cannock", "Stafford",
];
export const UK_STREETS: readonly string[] = [
  "High Street", "Station Road", "Church Lane", "Victoria Road", "Park Avenue", "Mill Lane", "Queen Street", "King Street",
  "London Road", "Manor Road", "the Broadway", "Green Lane", "Albert Road", "Grange Road", "New Road", "Chapel Street",
  "Market Square", "Canal Street", "Regent Street", "Castle Street", "Bridge Street", "North Road", "Water Lane",
  "Princes Avenue", "Windsor Close", "Hawthorn Drive", "Meadow Way", "Kingsway", "Oxford Street", "Cemetery Road",
];
export const UK_PLACES: readonly string[] = [
  "a flat on {street}", "the stairwell of a block of flats on {street}", "outside a convenience store on {street}",
  "the car park of a supermarket on {street}", "a public house on {street}", "a bus stop on {street}",
  "an allotment off {street}", "a petrol station on {street}", "a takeaway on {street}", "a garage behind {street}",
  "a building site on {street}", "near the railway station", "a municipal park", "a nightclub on {street}",
  "a terraced house on {street}", "a hostel on {street}", "an underpass beneath {street}", "a kebab shop on {street}",
  "the forecourt of a car wash on {street}", "a betting shop on {street}", "a playing field off {street}",
];
export const UK_WEAPONS: readonly string[] = [
  "a kitchen knife", "a lock knife", "a machete", "a claw hammer", "a baseball bat", "a screwdriver", "a broken bottle",
  "a metal bar", "a zombie knife", "a hunting knife", "an axe", "a wrench", "a golf club", "a knuckleduster",
  "a samurai sword", "a crowbar", "a meat cleaver", "a pickaxe handle", "an imitation firearm", "a converted blank-firing pistol",
  "a sawn-off shotgun", "a Stanley knife", "a snooker cue", "a dumbbell", "a pair of scissors",
];
export const UK_INJURIES: readonly string[] = [
  "a stab wound to the chest which penetrated the heart", "a fractured skull", "a broken jaw", "a fractured eye socket",
  "lacerations to the face requiring 22 stitches", "a collapsed lung", "a bleed on the brain", "a fractured cheekbone",
  "stab wounds to the abdomen", "a severed tendon in the left hand", "the loss of sight in one eye", "two broken ribs",
  "a permanent facial scar", "a ruptured spleen", "burns to the arms and torso", "concussion and bruising",
];
export const UK_DRUGS: readonly string[] = [
  "cocaine", "crack cocaine", "heroin", "cannabis", "MDMA", "ketamine", "amphetamine", "spice", "diamorphine",
];
export const UK_VEHICLES: readonly string[] = [
  "a Ford Fiesta", "a Vauxhall Corsa", "a BMW 3 Series", "an Audi A3", "a Volkswagen Golf", "a Mercedes C-Class",
  "a Range Rover Sport", "a Nissan Qashqai", "a Toyota Prius", "a Ford Transit van", "a Peugeot 208", "a Kia Sportage",
  "a Mini Cooper", "a Honda Civic", "a Skoda Octavia", "a Land Rover Discovery",
];
export const UK_LOOT: readonly string[] = [
  "a mobile telephone", "a laptop computer", "gold jewellery", "power tools", "a mountain bike", "cigarettes and tobacco",
  "a wallet and bank cards", "a Rolex watch", "catalytic converters", "copper cabling", "a games console",
  "£2,400 in cash", "designer handbags", "a quad bike", "the takings from the till", "a safe containing documents",
];
export const UK_PREMISES: readonly string[] = [
  "a convenience store", "a petrol station", "a jewellery shop", "a post office", "a pharmacy", "a bookmaker's",
  "a mobile phone shop", "a dwelling house", "a farmhouse", "a warehouse", "a builders' merchant", "a pub",
];

export type UkCategory = "homicide" | "violence" | "robbery" | "property" | "fraud" | "drugs" | "sexual" | "driving" | "weapons" | "public_order" | "justice";

export interface UkOffence {
  key: string;
  name: string;
  statute: string;
  guideline: string;
  category: UkCategory;
  /** Typical custodial range in months. */
  months: [number, number];
  hasVictim: boolean;
}

export const UK_OFFENCES: readonly UkOffence[] = [
  { key: "murder", name: "murder", statute: "contrary to common law", guideline: "Schedule 21 to the Sentencing Act 2020", category: "homicide", months: [180, 360], hasVictim: true },
  { key: "manslaughter", name: "manslaughter", statute: "contrary to common law", guideline: "Manslaughter Definitive Guideline", category: "homicide", months: [48, 180], hasVictim: true },
  { key: "attempted_murder", name: "attempted murder", statute: "contrary to section 1(1) of the Criminal Attempts Act 1981", guideline: "Attempted Murder Definitive Guideline", category: "homicide", months: [120, 300], hasVictim: true },
  { key: "gbh_intent", name: "wounding with intent to cause grievous bodily harm", statute: "contrary to section 18 of the Offences Against the Person Act 1861", guideline: "Assault Definitive Guideline", category: "violence", months: [48, 192], hasVictim: true },
  { key: "gbh", name: "inflicting grievous bodily harm", statute: "contrary to section 20 of the Offences Against the Person Act 1861", guideline: "Assault Definitive Guideline", category: "violence", months: [12, 54], hasVictim: true },
  { key: "abh", name: "assault occasioning actual bodily harm", statute: "contrary to section 47 of the Offences Against the Person Act 1861", guideline: "Assault Definitive Guideline", category: "violence", months: [6, 36], hasVictim: true },
  { key: "robbery", name: "robbery", statute: "contrary to section 8(1) of the Theft Act 1968", guideline: "Robbery Definitive Guideline", category: "robbery", months: [24, 144], hasVictim: true },
  { key: "burglary", name: "burglary", statute: "contrary to section 9(1)(b) of the Theft Act 1968", guideline: "Burglary Offences Definitive Guideline", category: "property", months: [12, 48], hasVictim: true },
  { key: "aggravated_burglary", name: "aggravated burglary", statute: "contrary to section 10 of the Theft Act 1968", guideline: "Burglary Offences Definitive Guideline", category: "robbery", months: [48, 156], hasVictim: true },
  { key: "theft", name: "theft", statute: "contrary to section 1 of the Theft Act 1968", guideline: "Theft Offences Definitive Guideline", category: "property", months: [3, 24], hasVictim: true },
  { key: "fraud", name: "fraud by false representation", statute: "contrary to section 2 of the Fraud Act 2006", guideline: "Fraud, Bribery and Money Laundering Offences Definitive Guideline", category: "fraud", months: [12, 84], hasVictim: true },
  { key: "money_laundering", name: "converting criminal property", statute: "contrary to section 327 of the Proceeds of Crime Act 2002", guideline: "Fraud, Bribery and Money Laundering Offences Definitive Guideline", category: "fraud", months: [12, 96], hasVictim: false },
  { key: "supply_a", name: "being concerned in the supply of a controlled drug of Class A", statute: "contrary to section 4(3)(b) of the Misuse of Drugs Act 1971", guideline: "Drug Offences Definitive Guideline", category: "drugs", months: [24, 144], hasVictim: false },
  { key: "pwits_a", name: "possession of a controlled drug of Class A with intent to supply", statute: "contrary to section 5(3) of the Misuse of Drugs Act 1971", guideline: "Drug Offences Definitive Guideline", category: "drugs", months: [18, 96], hasVictim: false },
  { key: "conspiracy_supply", name: "conspiracy to supply controlled drugs", statute: "contrary to section 1(1) of the Criminal Law Act 1977", guideline: "Drug Offences Definitive Guideline", category: "drugs", months: [48, 240], hasVictim: false },
  { key: "cannabis_production", name: "production of a controlled drug of Class B", statute: "contrary to section 4(2)(a) of the Misuse of Drugs Act 1971", guideline: "Drug Offences Definitive Guideline", category: "drugs", months: [6, 48], hasVictim: false },
  { key: "rape", name: "rape", statute: "contrary to section 1 of the Sexual Offences Act 2003", guideline: "Sexual Offences Definitive Guideline", category: "sexual", months: [60, 228], hasVictim: true },
  { key: "sexual_assault", name: "sexual assault", statute: "contrary to section 3 of the Sexual Offences Act 2003", guideline: "Sexual Offences Definitive Guideline", category: "sexual", months: [6, 60], hasVictim: true },
  { key: "child_sex", name: "sexual activity with a child", statute: "contrary to section 9 of the Sexual Offences Act 2003", guideline: "Sexual Offences Definitive Guideline", category: "sexual", months: [24, 120], hasVictim: true },
  { key: "death_dangerous_driving", name: "causing death by dangerous driving", statute: "contrary to section 1 of the Road Traffic Act 1988", guideline: "Causing Death by Driving Definitive Guideline", category: "driving", months: [36, 168], hasVictim: true },
  { key: "dangerous_driving", name: "dangerous driving", statute: "contrary to section 2 of the Road Traffic Act 1988", guideline: "Motoring Offences Definitive Guideline", category: "driving", months: [6, 24], hasVictim: false },
  { key: "arson_life", name: "arson with intent to endanger life", statute: "contrary to section 1(2) and (3) of the Criminal Damage Act 1971", guideline: "Arson and Criminal Damage Definitive Guideline", category: "property", months: [48, 144], hasVictim: true },
  { key: "firearm", name: "possession of a prohibited firearm", statute: "contrary to section 5(1)(aba) of the Firearms Act 1968", guideline: "Firearms Offences Definitive Guideline", category: "weapons", months: [60, 120], hasVictim: false },
  { key: "bladed_article", name: "having a bladed article in a public place", statute: "contrary to section 139(1) of the Criminal Justice Act 1988", guideline: "Bladed Articles and Offensive Weapons Definitive Guideline", category: "weapons", months: [6, 24], hasVictim: false },
  { key: "kidnap", name: "kidnapping", statute: "contrary to common law", guideline: "Totality Definitive Guideline", category: "violence", months: [36, 144], hasVictim: true },
  { key: "false_imprisonment", name: "false imprisonment", statute: "contrary to common law", guideline: "Totality Definitive Guideline", category: "violence", months: [12, 72], hasVictim: true },
  { key: "coercive_control", name: "controlling or coercive behaviour in an intimate or family relationship", statute: "contrary to section 76 of the Serious Crime Act 2015", guideline: "Overarching Principles: Domestic Abuse", category: "violence", months: [12, 60], hasVictim: true },
  { key: "stalking", name: "stalking involving fear of violence", statute: "contrary to section 4A of the Protection from Harassment Act 1997", guideline: "Intimidatory Offences Definitive Guideline", category: "violence", months: [12, 60], hasVictim: true },
  { key: "perverting", name: "doing acts tending and intended to pervert the course of public justice", statute: "contrary to common law", guideline: "Perverting the Course of Justice (no guideline: R v Abdulwahab considered)", category: "justice", months: [6, 48], hasVictim: false },
  { key: "affray", name: "affray", statute: "contrary to section 3 of the Public Order Act 1986", guideline: "Public Order Offences Definitive Guideline", category: "public_order", months: [3, 36], hasVictim: false },
  { key: "violent_disorder", name: "violent disorder", statute: "contrary to section 2 of the Public Order Act 1986", guideline: "Public Order Offences Definitive Guideline", category: "public_order", months: [12, 60], hasVictim: false },
  { key: "blackmail", name: "blackmail", statute: "contrary to section 21 of the Theft Act 1968", guideline: "Blackmail (no guideline: R v Hadjou considered)", category: "fraud", months: [24, 96], hasVictim: true },
  { key: "modern_slavery", name: "arranging or facilitating the travel of another person with a view to exploitation", statute: "contrary to section 2 of the Modern Slavery Act 2015", guideline: "Modern Slavery Definitive Guideline", category: "violence", months: [48, 168], hasVictim: true },
];

export const UK_JOBS: readonly string[] = [
  "a delivery driver", "a scaffolder", "a care worker", "a warehouse operative", "a chef", "a plasterer", "a security guard",
  "a taxi driver", "a roofer", "a bar worker", "a student", "a postal worker", "a hairdresser", "a nurse", "a teaching assistant",
  "a self-employed builder", "a lorry driver", "a retail assistant", "a gardener", "a mechanic",
];
export const UK_MENTAL: readonly string[] = [
  "an emotionally unstable personality disorder", "post-traumatic stress disorder", "a moderate depressive episode",
  "attention deficit hyperactivity disorder", "autism spectrum disorder", "paranoid schizophrenia, well controlled by medication",
  "a mild learning disability", "alcohol dependence syndrome", "an acquired brain injury", "anxiety and low mood",
];
