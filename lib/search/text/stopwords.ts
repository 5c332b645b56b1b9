/** Very common English and Polish function words (folded), ignored by the lexical embedder and phrase miner. */
export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    "a an and are as at be by for from has have he her his i in is it its of on or that the their this to was were " +
    "which with v vs r " +
    "w z na do od po o u za ze we ze sie nie jest sa to jak lub oraz albo przez przy dla ktory ktora ktore " +
    "jego jej ich tym tej ten ta te co czy bo ale tez"
  ).split(/\s+/),
);
