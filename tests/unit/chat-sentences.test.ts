/** The whole-sentence rule of the no-model answer: sentences split at real ends only, fragments never shown. */
import { describe, expect, it } from "vitest";
import { askedFor, extractiveAnswer, rankForQuestion, splitSentences, EXTRACTIVE_TEXT } from "@/lib/backend/assistants/extractive";
import type { Source } from "@/lib/backend/assistants/retrieval";
import { sentenceSpans } from "@/lib/text/sentences";
import { stem } from "@/lib/text/stem";

const src = (n: number, excerpt: string, position = 3): Source => ({
  id: `00000000-0000-4000-8000-00000000000${n}`,
  case_number: `II AKa ${n}/21`,
  title: null,
  relevance: 1,
  excerpt,
  position,
});

describe("sentence splitting", () => {
  it("does not end a sentence at Polish and UK legal abbreviations", () => {
    const pl =
      "Sąd wymierzył karę na podstawie art. 148 § 1 k.k. w zw. z art. 64 § 1 k.k., tj. za zabójstwo w warunkach recydywy. " +
      "Narzędziem była szabla wz. 1921, zob. s. 12 akt, poz. 3 wykazu. Wyrok zapadł dnia 3 marca 2010 r. Apelacja nie zasługiwała na uwzględnienie.";
    expect(sentenceSpans(pl).map((s) => s.text)).toEqual([
      "Sąd wymierzył karę na podstawie art. 148 § 1 k.k. w zw. z art. 64 § 1 k.k., tj. za zabójstwo w warunkach recydywy.",
      "Narzędziem była szabla wz. 1921, zob. s. 12 akt, poz. 3 wykazu.",
      "Wyrok zapadł dnia 3 marca 2010 r.",
      "Apelacja nie zasługiwała na uwzględnienie.",
    ]);
    const uk =
      "In R v. Smith (No. 2) the court, at para. 14, applied s. 18 of the Offences Against the Person Act 1861. Mr. J. Keswick sat with Mrs. Hale. The appeal is dismissed.";
    expect(sentenceSpans(uk).map((s) => s.text)).toEqual([
      "In R v. Smith (No. 2) the court, at para. 14, applied s. 18 of the Offences Against the Person Act 1861.",
      "Mr. J. Keswick sat with Mrs. Hale.",
      "The appeal is dismissed.",
    ]);
  });

  it("every sentence is a verbatim slice of the text", () => {
    const text = "Zarzut obrazy art. 7 k.p.k. jest chybiony.  Sąd Okręgowy  ocenił dowody swobodnie. Koniec";
    for (const s of sentenceSpans(text)) expect(text.slice(s.start, s.end)).toBe(s.text);
  });

  it("marks a passage's cut ends as fragments, and a passage that opens the judgment has a whole first sentence", () => {
    const excerpt = "The defendant entered the dwelling at night. The Court of Appeal dismissed the appeal against conviction. The sentence of four years and six months was";
    expect(splitSentences(excerpt).map((s) => s.complete)).toEqual([false, true, false]);
    expect(splitSentences(excerpt, true).map((s) => s.complete)).toEqual([true, true, false]);
    // Ending on an abbreviation is not an ending: the text went on.
    expect(splitSentences("Start of it. The offence was charged under art.", true).at(-1)?.complete).toBe(false);
  });

  it("reads the judgment's paragraph numbers and never offers them as sentences", () => {
    const excerpt = "imprisonment. The facts 2. Between 2010 and 2011 the appellant broke into a pigeon loft. 3. The burglary targeted a loft in Clitheroe. He was aged 21.";
    const s = splitSentences(excerpt);
    expect(s.filter((x) => x.complete).map((x) => [x.text, x.paragraph])).toEqual([
      ["Between 2010 and 2011 the appellant broke into a pigeon loft.", 2],
      ["The burglary targeted a loft in Clitheroe.", 3],
    ]);
    // A short sentence ending in a number is not a paragraph marker.
    expect(splitSentences("cut. 4. He was aged 21. The appellant is a gardener by trade.").at(-1)).toEqual({ text: "The appellant is a gardener by trade.", complete: true, paragraph: 4 });
  });
});

describe("ranking for the question", () => {
  it("meets inflected forms of the question's words (stems)", () => {
    expect(stem("szabli")).toBe(stem("szabla"));
    expect(stem("sentenced")).toBe(stem("sentence"));
    const sources = [src(1, "xx yy. Oskarżony posłużył się szablą kawaleryjską. Pokrzywdzony cumował kajaki przy przystani. Koniec")];
    const r = rankForQuestion("Jaką szablę miał oskarżony?", sources, 3);
    expect(r.answered).toBe(true);
    expect(r.sentences[0].text).toBe("Oskarżony posłużył się szablą kawaleryjską.");
  });

  it("prefers the sentence that carries what is asked for: a number, a date, a term of imprisonment", () => {
    expect([...askedFor("How many pigeons were taken?")]).toEqual(["number"]);
    expect([...askedFor("Kiedy doszło do zdarzenia?")]).toEqual(["date"]);
    expect(askedFor("Jaką karę wymierzono oskarżonemu?").has("term")).toBe(true);
    const sources = [
      src(1, "cut here. The pigeons were taken from the loft at night. Some 300 pigeons were taken from the loft in baskets. Tail"),
      src(2, "cut here. The robbery took place at the pigeon loft. The appellant was sentenced to 4 years' imprisonment for the robbery. Tail"),
    ];
    expect(rankForQuestion("How many pigeons were taken from the loft?", sources, 2).sentences[0].text).toBe("Some 300 pigeons were taken from the loft in baskets.");
    expect(rankForQuestion("What sentence was imposed for the robbery?", sources, 2).sentences[0].text).toBe("The appellant was sentenced to 4 years' imprisonment for the robbery.");
  });

  it("prefers negated sentences for a negated question", () => {
    const sources = [src(1, "cut here. Oskarżony był karany za kradzież w 2005 roku. Oskarżony nie był karany za rozbój. Tail")];
    expect(rankForQuestion("Czy oskarżony nie był karany za rozbój?", sources, 1).sentences[0].text).toBe("Oskarżony nie był karany za rozbój.");
  });

  it("cites each sentence inline with its source and paragraph; says so (in the question's language) when nothing answers", () => {
    const sources = [src(1, "imprisonment. 3. The burglary targeted a pigeon loft in Clitheroe. 4. The appellant is a gardener of good character. Tail")];
    const a = extractiveAnswer("Which loft did the burglary target?", sources, 3);
    expect(a.answered).toBe(true);
    expect(a.text.split("\n")[2]).toBe("The burglary targeted a pigeon loft in Clitheroe. [1, ¶ 3]");
    const none = extractiveAnswer("Jakie wino pił sędzia na urlopie we Włoszech?", sources, 3);
    expect(none.answered).toBe(false);
    const lines = none.text.split("\n");
    expect(lines[0]).toBe(EXTRACTIVE_TEXT.pl.preamble);
    expect(lines[2]).toBe(EXTRACTIVE_TEXT.pl.noAnswer);
    // The closest passages' whole sentences follow, cited.
    expect(lines.slice(3).length).toBeGreaterThan(0);
    for (const l of lines.slice(3)) expect(l).toMatch(/^[A-Z].*\. \[1, ¶ \d\]$/);
  });
});
