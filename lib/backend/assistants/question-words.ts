/**
 * Question words (EN, PL; folded) that no judgment answers with: left out of the keyword query and of the words an
 * answer sentence is ranked on.
 */
export const QUESTION_WORDS: ReadonlySet<string> = new Set(
  ("what which who whom whose why how when where whether did does do can could should would will may might is are was were " +
    "tell explain describe about any there many much " +
    "co czego czym kim komu kogo jak jaki jaka jakie jakim jakiej jakiego jakich kiedy gdzie dokad skad dlaczego czemu czy kto " +
    "ktory ktora ktore ktorego ktorej ktorym ktorych ile ilu").split(" "),
);
