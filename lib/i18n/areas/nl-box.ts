import type { PolishOf } from "../locale";
/**
 * Interface strings of the natural-language box on /search/extractions: the proposed chips, the count preview and the
 * zero-result explanation. English and Polish side by side; wired into the dictionaries as `t.nlBox`.
 */
export const nlBoxEn = {
  proposal: "Proposed filter",
  textChip: "Text: “{text}”",
  nothingRead: "Nothing in the question became a filter or a text search; all judgments would match.",
  counting: "Counting matching judgments…",
  matches: { one: "{count} judgment matches", other: "{count} judgments match" },
  countError: "Could not count the matches: {message}",
  none: "No judgment matches all of these chips.",
  emptiedBy: "Emptied by the chip {label}: without it, {matches}.",
  withoutMatches: { one: "{count} judgment matches", other: "{count} judgments match" },
  dropChip: "Drop this chip",
  dropNamedChip: "Drop the chip {label}",
  noSingleCulprit: "No single chip empties the list on its own: remove several, or rephrase the question.",
  apply: "Show these results",
  review: "Edit in the filter panel",
  rulesHint:
    "Without a language model, rules read dates, countries, sentence lengths (over 5 years, suspended, immediate custody) and listed terms (woman, confessed, the defendant appealed); generic words such as appeals, where or since are ignored, and other words are proposed as a text chip you can remove.",
};

export const nlBoxPl: PolishOf<typeof nlBoxEn> = {
  proposal: "Proponowany filtr",
  textChip: "Tekst: „{text}”",
  nothingRead: "Z pytania nie powstał żaden filtr ani wyszukiwanie tekstowe; pasowałyby wszystkie orzeczenia.",
  counting: "Liczenie pasujących orzeczeń…",
  matches: { one: "Pasuje {count} orzeczenie", few: "Pasują {count} orzeczenia", many: "Pasuje {count} orzeczeń", other: "Pasuje {count} orzeczenia" },
  countError: "Nie udało się policzyć wyników: {message}",
  none: "Żadne orzeczenie nie spełnia wszystkich tych warunków.",
  emptiedBy: "Listę opróżnia warunek {label}: bez niego {matches}.",
  withoutMatches: { one: "pasuje {count} orzeczenie", few: "pasują {count} orzeczenia", many: "pasuje {count} orzeczeń", other: "pasuje {count} orzeczenia" },
  dropChip: "Usuń ten warunek",
  dropNamedChip: "Usuń warunek {label}",
  noSingleCulprit: "Żaden pojedynczy warunek nie opróżnia listy: usuń kilka albo sformułuj pytanie inaczej.",
  apply: "Pokaż te wyniki",
  review: "Edytuj w panelu filtrów",
  rulesHint:
    "Bez modelu językowego reguły odczytują daty, państwa, wymiar kary (powyżej 5 lat, w zawieszeniu, bez zawieszenia) i znane określenia (kobieta, przyznał się, apelację wniósł oskarżony); ogólne słowa, np. apelacje, gdzie, od, są pomijane, a pozostałe słowa trafiają do warunku tekstowego, który można usunąć.",
};
