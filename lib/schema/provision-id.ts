/**
 * What a `cites` value may be (docs/citations.md): a canonical provision id (`PL/kk/279/§1`, `PL/kpc/479^31/§2`,
 * `UK/ukpga/1861/100/s18/1`, `UK/act/fraud-act-2006`), a guideline (`UK/guideline/robbery`) or the id of a corpus judgment (a lower-case UUID, as
 * `judgments.cites` holds it). One pattern source for every checker: the citator's query parser (lib/citations/query.ts),
 * the filter parser (lib/schema/filters.ts) and the SQL copy of the registry (structured.filter_fields.value_pattern,
 * which structured.filter_clause applies with `~`). Written in the subset JavaScript (`u` flag) and Postgres AREs read
 * alike: `[0-9]` rather than `\d` (Postgres' class follows the locale), bounded repetitions (at most 255 in Postgres).
 */

const PL = "PL/[a-z0-9-]{1,250}(?:/[0-9]{1,4}[a-z]{0,2}(?:\\^[0-9]{1,3})?(?:/(?:§|ust|pkt)[0-9]{1,4}[a-z]{0,2}(?:\\^[0-9]{1,3})?|/lit[a-z])*)?";
const UK = "UK/(?:ukpga/[0-9]{4}/[0-9]{1,4}|act/[a-z0-9-]{1,250}-[0-9]{4})(?:/s[0-9]{1,4}[A-Z]{0,2}(?:/[0-9a-z]{1,4})*)?";
const GUIDELINE = "UK/guideline/[a-z0-9-]{1,250}";
const JUDGMENT = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

/** A canonical provision id, anchored. */
export const PROVISION_ID_PATTERN = `^(?:${PL}|${UK})$`;

/** A value of the `cites` filter: a provision id, a Sentencing Council guideline (`UK/guideline/robbery`, in cites like a provision) or a judgment id, anchored. */
export const CITES_VALUE_PATTERN = `^(?:${PL}|${UK}|${GUIDELINE}|${JUDGMENT})$`;

const PROVISION_ID = new RegExp(PROVISION_ID_PATTERN, "u");

export function isCanonicalProvisionId(s: string): boolean {
  return PROVISION_ID.test(s);
}
