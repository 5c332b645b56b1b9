/**
 * Jurisdictions a question names (spec: nl-filter rules): UK or England gives UK, Poland gives PL, both named gives
 * PL and UK. The language of the question says nothing: a question written in Polish does not set PL, and "in
 * Polish"/"po polsku" (the language of a judgment or of an answer) names no country either.
 */
export type Jurisdiction = "PL" | "UK";

/** Phrases about a language, removed before looking for countries ("judgments written in English"). */
const LANGUAGE_PHRASES =
  /(?:\b(?:in|into)\s+(?:polish|english)\b(?!\s+(?:courts?|law|cases?|judg(?:e)?ments?|appeals?|system|jurisdiction|criminal))|\bpo\s+(?:polsku|angielsku)\b|(?:w\s+)?języku\s+(?:polskim|angielskim)|\b(?:polish|english)[-\s]language\b)/giu;

const UK_PATTERNS: readonly RegExp[] = [
  /\bu\.?k\.?(?![\p{L}])/iu,
  /\bunited\s+kingdom\b/iu,
  /\b(?:great\s+)?britain\b/iu,
  /\bbritish\b/iu,
  /\bengland\b/iu,
  /\benglish\b/iu,
  /\bwales\b/iu,
  /\bwelsh\b/iu,
  /\bewca\b/iu,
  /(?<![\p{L}])(?:wielk\p{L}*\s+brytani\p{L}*|brytani\p{L}*|brytyjsk\p{L}*|angli\p{L}*|angielsk\p{L}*|zjednoczon\p{L}*\s+królestw\p{L}*|walii|walia)(?![\p{L}])/iu,
];

const PL_PATTERNS: readonly RegExp[] = [
  /\bpoland\b/iu,
  /\bpolish\b/iu,
  /(?<![\p{L}])(?:polsk\p{L}*|polsce)(?![\p{L}])/iu,
];

/** The jurisdictions the question names, in the order PL, UK (empty when it names none). */
export function namedJurisdictions(question: string): Jurisdiction[] {
  const text = question.replace(LANGUAGE_PHRASES, " ");
  const out: Jurisdiction[] = [];
  if (PL_PATTERNS.some((re) => re.test(text))) out.push("PL");
  if (UK_PATTERNS.some((re) => re.test(text))) out.push("UK");
  return out;
}

/**
 * Where the question names a country or legal system (UTF-16 offsets), so the rules translator can keep those words
 * out of text_query. Language phrases ("in Polish") are not spans: they name no country.
 */
export function jurisdictionSpans(question: string): [number, number][] {
  const text = question.replace(LANGUAGE_PHRASES, (m) => " ".repeat(m.length));
  const spans: [number, number][] = [];
  for (const pattern of [...PL_PATTERNS, ...UK_PATTERNS]) {
    const re = new RegExp(pattern.source, "giu");
    for (let m = re.exec(text); m; m = re.exec(text)) spans.push([m.index, m.index + m[0].length]);
  }
  return spans;
}
