/**
 * Interface strings of the analysis area, English and Polish side by side (the Polish object is typed against the English
 * one, so a missing translation is a type error). Wired into the dictionaries as `t.analysis` (lib/i18n/en.ts, pl.ts).
 */
export const analysisEn = {};

export const analysisPl: typeof analysisEn = {};
