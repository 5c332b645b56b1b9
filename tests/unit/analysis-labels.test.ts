/**
 * Human labels from ranked keywords (lib/analysis/labels.ts): content words only (no function words the stop lists
 * miss, no words naming the court itself, no codes), one form per word, capitalised; used by topics and candidate
 * reasoning lines.
 */
import { describe, expect, it } from "vitest";
import { readableLabel } from "@/lib/analysis/labels";

describe("readableLabel", () => {
  it("the first three usable keywords, capitalised", () => {
    expect(readableLabel(["wnuczka", "metoda", "seniora", "telefon"])).toBe("Wnuczka, metoda, seniora");
    expect(readableLabel(["prison", "contraband", "drone"])).toBe("Prison, contraband, drone");
  });

  it("skips function words and the court's own words, in any case or accent", () => {
    // The user trial's labels: "mieniu, karę, wobec" and "sądowi, przekazuje, mieniu".
    expect(readableLabel(["mieniu", "karę", "wobec", "kradzież"])).toBe("Mieniu, karę, kradzież");
    expect(readableLabel(["sądowi", "przekazuje", "mieniu", "zniszczenie"])).toBe("Przekazuje, mieniu, zniszczenie");
    expect(readableLabel(["Appellant", "COURT", "burglary", "dwelling", "sentence"])).toBe("Burglary, dwelling, sentence");
  });

  it("never shows codes: terms with digits or underscores are left out", () => {
    expect(readableLabel(["outcome_dismissed", "art148", "zabójstwo", "zamiar"])).toBe("Zabójstwo, zamiar");
  });

  it("one form of a word: forms sharing their first letters count once", () => {
    expect(readableLabel(["kryptowaluta", "kryptowaluty", "bitcoin", "portfel"])).toBe("Kryptowaluta, bitcoin, portfel");
  });

  it("falls back to the keywords when none is usable, and is empty only without keywords", () => {
    expect(readableLabel(["wobec", "court"])).toBe("Wobec, court");
    expect(readableLabel([])).toBe("");
  });
});
