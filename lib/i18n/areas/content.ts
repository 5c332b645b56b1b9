/**
 * Interface strings of the content area, English and Polish side by side (the Polish object is typed against the English
 * one, so a missing translation is a type error). Wired into the dictionaries as `t.content` (lib/i18n/en.ts, pl.ts).
 */
export const contentEn = {};

export const contentPl: typeof contentEn = {};
