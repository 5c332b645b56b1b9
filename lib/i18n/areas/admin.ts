/**
 * Interface strings of the admin area, English and Polish side by side (the Polish object is typed against the English
 * one, so a missing translation is a type error). Wired into the dictionaries as `t.admin` (lib/i18n/en.ts, pl.ts).
 */
export const adminEn = {};

export const adminPl: typeof adminEn = {};
