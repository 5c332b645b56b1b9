import type { PolishOf } from "../locale";
/**
 * Interface strings of the export control (components/export/export-button.tsx), English and Polish side by side.
 * Wired into the dictionaries as `t.exports` (lib/i18n/en.ts, pl.ts).
 */
export const exportsEn = {
  export: "Export",
  exportWhat: "Export {what}",
  format: "Format",
  headers: "Column headers",
  labels: "Labels",
  codes: "Codes",
  headersHint: "Labels are the names shown on this site; codes are the field names the API uses.",
  download: "Download",
  cancel: "Cancel",
  cancelled: "Export cancelled.",
  failed: "The export failed: {message}",
  done: "Downloaded {file}.",
  preparing: "Preparing the file…",
  bytes: "{size} received",
  rows: { one: "{count} row of {total}", other: "{count} rows of {total}" },
  rowsOpen: { one: "{count} row", other: "{count} rows" },
  searchResults: "results",
  cohortRows: "rows",
  distributions: "distributions",
  members: "judgments",
  limitSearch: "Up to the first 1,000 results, in this order.",
  limitRows: "Up to 10,000 judgments, newest first, one column per field.",
};

export const exportsPl: PolishOf<typeof exportsEn> = {
  export: "Eksport",
  exportWhat: "Eksportuj {what}",
  format: "Format",
  headers: "Nagłówki kolumn",
  labels: "Etykiety",
  codes: "Kody",
  headersHint: "Etykiety to nazwy widoczne w serwisie; kody to nazwy pól używane przez API.",
  download: "Pobierz",
  cancel: "Anuluj",
  cancelled: "Eksport anulowany.",
  failed: "Eksport nie powiódł się: {message}",
  done: "Pobrano {file}.",
  preparing: "Przygotowywanie pliku…",
  bytes: "Odebrano {size}",
  rows: { one: "{count} wiersz z {total}", few: "{count} wiersze z {total}", many: "{count} wierszy z {total}", other: "{count} wiersza z {total}" },
  rowsOpen: { one: "{count} wiersz", few: "{count} wiersze", many: "{count} wierszy", other: "{count} wiersza" },
  searchResults: "wyniki",
  cohortRows: "wiersze",
  distributions: "rozkłady",
  members: "orzeczenia",
  limitSearch: "Do 1000 pierwszych wyników, w tej kolejności.",
  limitRows: "Do 10 000 orzeczeń, od najnowszych, po jednej kolumnie na pole.",
};
