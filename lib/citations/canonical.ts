/**
 * Canonical provision ids. PL: `PL/<act>/<article>[/§<n>][/ust<n>][/pkt<n>][/lit<x>]` (`PL/kk/279/§1`,
 * `PL/kpk/438/pkt2`, `PL/kpc/479^31/§2`); UK: `UK/<act>/s<section>[/<subsection>…]` with `<act>` =
 * `ukpga/<year>/<chapter>` when the act is known, else `act/<short-title>-<year>` (`UK/ukpga/1861/100/s18`,
 * `UK/ukpga/1968/60/s9/1/a`). An act on its own: `PL/<act>`, `UK/<act>`.
 */

export type PlLevel = "§" | "ust" | "pkt" | "lit";

/** Rank of a PL sub-unit: an article holds paragraphs (§) or sections (ust.), which hold points, which hold letters. */
export const PL_LEVEL_RANK: Record<PlLevel, number> = { "§": 1, ust: 1, pkt: 2, lit: 3 };

/** "178 a" → "178a", "479(31)" / "479^31" → "479^31"; lower-case letters. */
export function normaliseUnit(raw: string): string {
  const s = raw.replace(/\s+/g, "").toLowerCase();
  const sup = /^(\d+[a-z]?)(?:\^|\()(\d+)\)?$/.exec(s);
  return sup ? `${sup[1]}^${sup[2]}` : s;
}

export function plProvisionId(act: string, article: string, levels: ReadonlyArray<readonly [PlLevel, string]>): string {
  const parts = [`PL/${act}`, normaliseUnit(article)];
  for (const [lvl, v] of levels) parts.push(`${lvl}${normaliseUnit(v)}`);
  return parts.join("/");
}

export function ukProvisionId(actId: string, section: string, subs: readonly string[]): string {
  return [`UK/${actId}`, `s${section.toUpperCase()}`, ...subs.map((x) => x.toLowerCase())].join("/");
}

/** The ancestors of a provision id, nearest first: `PL/kk/279/§1` → [`PL/kk/279`, `PL/kk`]. */
export function provisionAncestors(id: string): string[] {
  const parts = id.split("/");
  // PL/<act> and UK/ukpga/<year>/<chapter> or UK/act/<slug> are the act itself.
  const actLen = parts[0] === "UK" ? (parts[1] === "ukpga" ? 4 : 3) : 2;
  const out: string[] = [];
  for (let n = parts.length - 1; n >= actLen; n--) out.push(parts.slice(0, n).join("/"));
  return out;
}

/** The ids not subsumed by a more specific id of the same set (`PL/kk/34` goes when `PL/kk/34/§1a` is there). */
export function leafProvisions(ids: Iterable<string>): Set<string> {
  const all = new Set(ids);
  const covered = new Set<string>();
  for (const id of all) for (const a of provisionAncestors(id)) covered.add(a);
  return new Set([...all].filter((id) => !covered.has(id)));
}
