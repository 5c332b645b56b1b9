/**
 * Planted statute references (known answers): in the test stack's slice (seed 7, rows 0-599) the judgments that
 * apply art. 279 § 1 k.k. (burglary: the first-instance conviction the appeal reviews) are exactly ART_279_INDEXES;
 * two more mention it only to record an acquittal of that charge (ART_279_ACQUITTAL_INDEXES), so a statute search
 * finds eight judgments while "applying" the article is six. Checked by tests/unit/seed-texture.test.ts; a generator
 * change that moves them must update these lists (and GENERATOR_VERSION) on purpose.
 */
export const PLANTED_STATUTE_SEED = 7;
export const PLANTED_STATUTE = "art. 279 § 1 k.k.";
export const ART_279_INDEXES: readonly number[] = [15, 132, 378, 432, 556, 585];
export const ART_279_ACQUITTAL_INDEXES: readonly number[] = [134, 456];
