/**
 * The display title of a judgment, built from the source's structured fields (never from the text's opening):
 *   PL  "Wyrok Sądu Apelacyjnego w Poznaniu z dnia 5 kwietnia 2019 r., II AKa 516/19"
 *   UK  "R v Smith [2019] EWCA Crim 1234" (the parties as the source names them, the neutral citation beside them)
 * Pure and dependency-free so the demo corpus generator (supabase/seed) can use the same function.
 */

export interface TitleInput {
  jurisdiction: "PL" | "UK";
  /** PL: the kind of decision as a word or the source's enum (Wyrok / SENTENCE, Postanowienie / DECISION, …). */
  kind?: string | null;
  courtName?: string | null;
  /** YYYY-MM-DD */
  date?: string | null;
  caseNumbers?: readonly string[] | null;
  /** UK: the case name from the source (FRBR name, docTitle, or "A v B" from its party markup). */
  caseName?: string | null;
  neutralCitation?: string | null;
}

const PL_MONTHS = ["stycznia", "lutego", "marca", "kwietnia", "maja", "czerwca", "lipca", "sierpnia", "września", "października", "listopada", "grudnia"];

const PL_KINDS: Record<string, string> = {
  SENTENCE: "Wyrok",
  DECISION: "Postanowienie",
  RESOLUTION: "Uchwała",
  REGULATION: "Zarządzenie",
  REASONS: "Uzasadnienie",
  REASON: "Uzasadnienie",
};

/** "SENTENCE, REASON" → "Wyrok"; "Wyrok+Uzasadnienie" → "Wyrok"; an unknown kind stays as given. */
export function plKindWord(kind: string | null | undefined): string {
  if (!kind || !kind.trim()) return "Orzeczenie";
  const first = kind.split(/[,+]/)[0].trim();
  const mapped = PL_KINDS[first.toUpperCase()];
  if (mapped) return mapped;
  return first.charAt(0).toUpperCase() + first.slice(1).toLowerCase();
}

/** Genitive of the words naming the court before its seat: Sąd Apelacyjny → Sądu Apelacyjnego, Krajowa Izba → Krajowej Izby. */
const NOUNS: Record<string, string> = { "sąd": "Sądu", "trybunał": "Trybunału", "izba": "Izby", "kolegium": "Kolegium" };

function genitiveWord(word: string): string {
  const lower = word.toLowerCase();
  if (NOUNS[lower]) return NOUNS[lower];
  if (/[^\p{L}]/u.test(word) || word.length < 3) return word;
  const cap = (s: string) => (word[0] === word[0].toUpperCase() ? s.charAt(0).toUpperCase() + s.slice(1) : s);
  if (lower.endsWith("y")) return cap(`${lower.slice(0, -1)}ego`);
  if (lower.endsWith("i")) return cap(`${lower}ego`);
  if (lower.endsWith("a")) return cap(`${lower.slice(0, -1)}ej`);
  return word;
}

/** "Sąd Okręgowy w Warszawie" → "Sądu Okręgowego w Warszawie"; the seat and what follows are kept. */
export function plCourtGenitive(courtName: string): string {
  const words = courtName.trim().split(/\s+/);
  // The name is the capitalised words before the first lower-case one ("w", "we", "dla") or a dash.
  const seat = words.findIndex((w) => !/^\p{Lu}/u.test(w));
  const head = seat === -1 ? words : words.slice(0, seat);
  const tail = seat === -1 ? [] : words.slice(seat);
  return [...head.map(genitiveWord), ...tail].join(" ");
}

/** "2019-04-05" → "5 kwietnia 2019 r." */
export function plDate(iso: string): string {
  const [y, m, d] = iso.split("-").map(Number);
  return `${d} ${PL_MONTHS[m - 1]} ${y} r.`;
}

export function judgmentTitle(input: TitleInput): string {
  const cases = (input.caseNumbers ?? []).map((c) => c.trim()).filter(Boolean);
  if (input.jurisdiction === "PL") {
    const parts = [plKindWord(input.kind)];
    if (input.courtName?.trim()) parts.push(plCourtGenitive(input.courtName));
    if (input.date) parts.push(`z dnia ${plDate(input.date)}`);
    const head = parts.join(" ");
    return cases.length ? `${head}, ${cases.join(", ")}` : head;
  }
  const name = input.caseName?.replace(/\s+/g, " ").trim();
  const ncn = input.neutralCitation?.trim();
  if (name && ncn) return name.includes(ncn) ? name : `${name} ${ncn}`;
  if (name) return cases.length ? `${name} (${cases.join(", ")})` : name;
  if (ncn) return ncn;
  if (cases.length) return `Case ${cases.join(", ")}`;
  return input.courtName?.trim() || "Judgment";
}

/**
 * "R v Surname" from the parties of a criminal case when the source gives no case name: the defendant's surname as
 * the source spells it, title-cased when the source shouts it ("JOHN SMITH" → "Smith").
 */
export function crownCaseName(defendant: string): string {
  const words = defendant.replace(/[()]/g, " ").trim().split(/\s+/).filter(Boolean);
  const last = words[words.length - 1] ?? defendant;
  const surname = last === last.toUpperCase() ? last.charAt(0) + last.slice(1).toLowerCase() : last;
  return `R v ${surname}`;
}
