/**
 * How often one sentence template recurs across judgments: sentences are normalised (lower case; digits, case
 * numbers, citations and capitalised names folded to placeholders) and each template is counted once per judgment.
 * Only the reasons are measured (PL after "Sąd Apelacyjny zważył, co następuje:", UK after "Discussion"): the
 * header, the operative part and the section headings are formulae every real judgment of a court repeats verbatim.
 */
const PL_MARK = "Sąd Apelacyjny zważył, co następuje:";
const UK_MARK = "\n\nDiscussion\n\n";

/** The reasons of a generated judgment's full text (empty when the marker is missing). */
export function reasonsOf(fullText: string): string {
  for (const mark of [PL_MARK, UK_MARK]) {
    const at = fullText.indexOf(mark);
    if (at >= 0) return fullText.slice(at + mark.length);
  }
  return "";
}

/** A sentence reduced to its template. */
export function templateOf(sentence: string): string {
  return sentence
    .replace(/\[\d{4}\] [A-Z][A-Za-z]*(?: [A-Z][A-Za-z]*)* \d+/g, "<cite>")
    .replace(/\b[IVX]+ [A-Z][A-Za-z]{1,4} \d+\/\d+/g, "<case>")
    .replace(/\d+/g, "#")
    .replace(/(?<=\S\s)\p{Lu}[\p{L}'-]*/gu, "X")
    .replace(/\s+/g, " ")
    .trim()
    .toLowerCase();
}

/** Sentences of a text: split after . ! ? followed by a capital, and at line breaks; short fragments dropped. */
export function sentencesOf(text: string): string[] {
  return text
    .split(/\n+|(?<=[.!?])\s+(?=[\p{Lu}])/u)
    .map((s) => s.replace(/^\d+\.\s+/, "").trim())
    .filter((s) => s.length >= 30);
}

/** Template → number of judgments (of `texts`) whose reasons contain it. */
export function templateCounts(texts: Iterable<string>): { judgments: number; counts: Map<string, number> } {
  const counts = new Map<string, number>();
  let judgments = 0;
  for (const text of texts) {
    judgments++;
    // A line of names (the signatures) is not a sentence: a template needs three ordinary words.
    const seen = new Set(sentencesOf(reasonsOf(text)).map(templateOf).filter((t) => (t.match(/\p{Ll}{4,}/gu) ?? []).length >= 3));
    for (const t of seen) counts.set(t, (counts.get(t) ?? 0) + 1);
  }
  return { judgments, counts };
}
