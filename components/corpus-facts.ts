/**
 * Corpus figures shown on the landing and about pages (spec: What the service does, item 1: 12,307 judgments at the
 * last count, PL and UK, decision dates 2003-2024). The local demo corpus is generated to the same size and span.
 */
export const CORPUS = { count: 12307, fromYear: 2003, toYear: 2024, extractedFields: 51 } as const;
