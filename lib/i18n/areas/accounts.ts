/**
 * Interface strings of the accounts area, English and Polish side by side (the Polish object is typed against the English
 * one, so a missing translation is a type error). Wired into the dictionaries as `t.accounts` (lib/i18n/en.ts, pl.ts).
 */
export const accountsEn = {};

export const accountsPl: typeof accountsEn = {};
