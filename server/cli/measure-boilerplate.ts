/**
 * Measures legal boilerplate on the demo corpus and writes data/boilerplate.json: the terms (after language stop
 * words) whose document frequency within the documents of one language exceeds THRESHOLD. Per language, because a
 * Polish word can reach at most the Polish share of a bilingual corpus. Run: npx tsx server/cli/measure-boilerplate.ts
 * [documents=2000]. The corpus is generated in memory (supabase/seed), no database needed; the result is
 * deterministic for the corpus seed.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { DEFAULT_CORPUS_SEED, generateJudgment } from "@/supabase/seed/generate";
import { ANALYSIS_FIELDS, analysisText, nameTerms } from "../../lib/analysis/document";
import { analysisTokens, LANGUAGE_STOPWORDS } from "../../lib/analysis/text";

/** A term in more than this share of one language's documents says nothing about what a judgment is about. */
export const BOILERPLATE_DF_THRESHOLD = 0.4;

function main(): void {
  const n = Number(process.argv[2] ?? 2000);
  const df = { pl: new Map<string, number>(), en: new Map<string, number>() };
  const docs = { pl: 0, en: 0 };
  for (let i = 0; i < n; i++) {
    const row = generateJudgment(DEFAULT_CORPUS_SEED, i);
    const lang = row.metadata.language;
    docs[lang]++;
    const seen = new Set(analysisTokens(analysisText(row), LANGUAGE_STOPWORDS, nameTerms(row)));
    for (const w of seen) df[lang].set(w, (df[lang].get(w) ?? 0) + 1);
  }
  const all = new Set([...df.pl.keys(), ...df.en.keys()]);
  const terms = [...all]
    .map((term) => ({
      term,
      df_pl: Math.round(((df.pl.get(term) ?? 0) / Math.max(1, docs.pl)) * 1000) / 1000,
      df_en: Math.round(((df.en.get(term) ?? 0) / Math.max(1, docs.en)) * 1000) / 1000,
    }))
    .filter((t) => t.df_pl > BOILERPLATE_DF_THRESHOLD || t.df_en > BOILERPLATE_DF_THRESHOLD)
    .sort((a, b) => Math.max(b.df_pl, b.df_en) - Math.max(a.df_pl, a.df_en) || (a.term < b.term ? -1 : 1));
  const out = {
    about: "Legal boilerplate: terms whose document frequency within one language exceeds the threshold on the demo corpus",
    measured_with: "npx tsx server/cli/measure-boilerplate.ts " + n,
    corpus_seed: DEFAULT_CORPUS_SEED,
    documents: { pl: docs.pl, en: docs.en },
    fields: ANALYSIS_FIELDS,
    threshold: BOILERPLATE_DF_THRESHOLD,
    terms,
  };
  writeFileSync(path.join(__dirname, "data", "boilerplate.json"), JSON.stringify(out, null, 1) + "\n");
  console.log(JSON.stringify({ documents: docs, terms: terms.length }));
}

main();
