/**
 * Interface strings of the developers area, English and Polish side by side (the Polish object is typed against the English
 * one, so a missing translation is a type error). Wired into the dictionaries as `t.developers` (lib/i18n/en.ts, pl.ts).
 */
export const developersEn = {};

export const developersPl: typeof developersEn = {};
