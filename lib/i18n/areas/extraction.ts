/**
 * Interface strings of the extraction area, English and Polish side by side (the Polish object is typed against the English
 * one, so a missing translation is a type error). Wired into the dictionaries as `t.extraction` (lib/i18n/en.ts, pl.ts).
 */
export const extractionEn = {};

export const extractionPl: typeof extractionEn = {};
