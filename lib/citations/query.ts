/**
 * Provision queries as users type them ("art. 279 § 1 k.k.", "279 § 1 kk", "art 279 par. 1 kk", "s.18 OAPA 1861",
 * "section 18 of the Offences Against the Person Act 1861") → one canonical provision id, or null when the query is
 * not (only) a provision: "279" alone, "kradzież z włamaniem", "II AKa 279/14".
 */
import { isCanonicalProvisionId } from "@/lib/schema/provision-id";
import { extractPlLegislation, extractUkLegislation } from "./legislation-refs";
import type { Reference } from "./types";

export { isCanonicalProvisionId };

/** Only punctuation and spaces outside the references' spans. */
function covers(q: string, refs: readonly Reference[]): boolean {
  let rest = q;
  for (const r of [...refs].sort((a, b) => (b.start ?? 0) - (a.start ?? 0))) {
    if (r.start === null || r.end === null) continue;
    rest = rest.slice(0, r.start) + rest.slice(r.end);
  }
  return /^[\s.,;:()"'“”]*$/u.test(rest);
}

export function parseProvisionQuery(input: string): string | null {
  const q = input.trim().replace(/\s+/g, " ");
  if (q.length === 0 || q.length > 200) return null;
  if (isCanonicalProvisionId(q)) return q;
  // A provision as typed names a number (article, section, or an Act's year): the other queries, most of what the
  // search box gets, skip the extractors (this runs on every search request).
  if (!/\d/.test(q)) return null;
  // "par." / "paragraf" for §; a bare leading number is an article ("279 § 1 kk").
  let pl = q.replace(/\b(?:par\.|paragraf|paragrafu)\s*/giu, "§ ");
  if (/^\d/.test(pl)) pl = `art. ${pl}`;
  const plRefs = extractPlLegislation(pl);
  if (plRefs.length === 1 && plRefs[0].canonicalId && covers(pl, plRefs)) return plRefs[0].canonicalId;
  const ukRefs = extractUkLegislation(q).filter((r) => r.kind === "legislation");
  if (ukRefs.length === 1 && ukRefs[0].canonicalId && covers(q, ukRefs)) return ukRefs[0].canonicalId;
  return null;
}
