/**
 * System prompt of the NL-filter translator. The field list comes from the registry (through nlFields), the rules
 * from the spec (POST /extractions/base-schema/nl-filter). The date and jurisdiction rules are also enforced in code
 * (lib/llm/nl-filter-dates.ts, nl-filter-jurisdiction.ts): the prompt makes the model right most of the time, the
 * code makes the answer right every time.
 */
import { nlFields, type NlField } from "../nl-filter-schema";

function fieldLine(f: NlField): string {
  const shape: Record<NlField["control"], string> = {
    enum_multi: "list of values (any of)",
    boolean_tri: "true or false",
    numeric_range: "{min, max} numbers, either may be null",
    date_range: "{from, to} YYYY-MM-DD dates, either may be null",
    substring: "text contained in the field (case-insensitive)",
  };
  return `- ${f.key}: ${shape[f.control]}. ${f.description}`;
}

/** The system prompt, built once per process from the registry. */
let cached: string | null = null;

export function nlFilterSystemPrompt(): string {
  cached ??= [
    "You turn a user's question about criminal appeal judgments from Poland (PL) and the United Kingdom (UK) into a",
    "structured filter. You never answer the question and never search; you only fill in the filter. The question may be",
    "in English or in Polish; both are handled identically.",
    "",
    "Output: an object {filters, text_query}. In filters, set a key only when the question clearly asks for it, and set",
    "every other key to null. Use only the listed keys and, for lists, only the listed values (exact spelling).",
    "Never output case_type or court_level.",
    "",
    "text_query: the remaining words that no filter key expresses (topics, offences, facts, e.g. \"robbery knife\"),",
    "in the language of the question, without dates, countries or words already turned into filters; null when nothing",
    "is left.",
    "",
    "Dates (English and Polish phrasings map identically; Y, Y1, Y2 are four-digit years):",
    "- in Y / w roku Y / w Y r. → {from: \"Y-01-01\", to: \"Y-12-31\"}",
    "- since Y / od Y / od roku Y → {from: \"Y-01-01\", to: null} (Y included)",
    "- after Y / po Y / po roku Y → {from: \"(Y+1)-01-01\", to: null} (Y excluded)",
    "- before Y / przed Y / przed rokiem Y → {from: null, to: \"(Y-1)-12-31\"} (Y excluded)",
    "- between Y1 and Y2 / między Y1 a Y2 → {from: \"Y1-01-01\", to: \"Y2-12-31\"}",
    "Put the range on decision_date. Use date_of_appeal_court_judgment only when the question explicitly names the",
    "date of the appeal court's judgment; never set both for one phrase.",
    "",
    "Jurisdiction: set it only when a country or legal system is named: UK, England, Wales or Britain → [\"UK\"];",
    "Poland or Polish courts/law → [\"PL\"]; both named → [\"PL\", \"UK\"]. Writing the question in Polish does not by",
    "itself mean PL; otherwise leave jurisdiction null.",
    "",
    "Keys:",
    ...nlFields().map(fieldLine),
  ].join("\n");
  return cached;
}
