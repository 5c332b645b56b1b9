/**
 * Precision and recall of the extractor against the references a source marks itself. Compared as sets of distinct
 * canonical ids per judgment and kind. Legislation ids are reduced to their leaves on both sides (SAOS and JuDDGES
 * list every ancestor: "art. 115; art. 115 § 16"), and UK ids are cut at the subsection, the depth Find Case Law's
 * enrichment links to ("s. 6(3)(b)" is linked as section 6(3)).
 */
import { leafProvisions } from "./canonical";

export interface QualitySample {
  /** Source and sample, e.g. "SAOS 227221". */
  source: string;
  kind: "case" | "legislation";
  /** Canonical ids the source marks. */
  gold: readonly string[];
  /** Canonical ids the extractor found in the text. */
  found: readonly string[];
}

export interface QualityRow {
  source: string;
  kind: "case" | "legislation";
  gold: number;
  found: number;
  truePositives: number;
  precision: number;
  recall: number;
  /** Found, not marked by the source. */
  falsePositives: string[];
  /** Marked by the source, not found. */
  misses: string[];
}

function cutUk(id: string): string {
  if (!id.startsWith("UK/")) return id;
  const parts = id.split("/");
  const actLen = parts[1] === "ukpga" ? 4 : 3;
  // act, section, subsection
  return parts.slice(0, actLen + 2).join("/");
}

export function comparableIds(kind: QualitySample["kind"], ids: readonly string[]): Set<string> {
  if (kind === "case") return new Set(ids);
  return leafProvisions(ids.map(cutUk));
}

const round = (x: number) => Math.round(x * 1000) / 1000;

export function qualityRow(s: QualitySample): QualityRow {
  const gold = comparableIds(s.kind, s.gold);
  const found = comparableIds(s.kind, s.found);
  const tp = [...found].filter((x) => gold.has(x)).length;
  return {
    source: s.source,
    kind: s.kind,
    gold: gold.size,
    found: found.size,
    truePositives: tp,
    precision: found.size === 0 ? 1 : round(tp / found.size),
    recall: gold.size === 0 ? 1 : round(tp / gold.size),
    falsePositives: [...found].filter((x) => !gold.has(x)).sort(),
    misses: [...gold].filter((x) => !found.has(x)).sort(),
  };
}

export const TARGET_PRECISION = 0.95;
export const TARGET_RECALL = 0.9;

export const meetsTargets = (r: QualityRow) => r.precision >= TARGET_PRECISION && r.recall >= TARGET_RECALL;

/** A hand review of one difference (tests/fixtures/citations/reviewed.json). */
export interface Review {
  /**
   * unmarked: found, a true reference the source does not mark; source-error: marked, but the text holds no such
   * reference (`reads`: the provision its words are, when the text holds one); not-comparable: both sides agree and the
   * comparison cannot see it; extractor-miss / extractor-error: the extractor's fault, counted against it.
   */
  verdict: "unmarked" | "source-error" | "not-comparable" | "extractor-miss" | "extractor-error";
  note: string;
  reads?: string;
}

/**
 * The source's set corrected by the reviews: true references it does not mark are added, its errors removed (and
 * replaced by what their words read). The extractor's own faults change nothing, so a reviewed figure can only
 * improve on the raw one by what a reviewer shows the source got wrong.
 */
export function reviewedGold(gold: readonly string[], reviews: Readonly<Record<string, Review>>): string[] {
  const out = new Set(gold);
  for (const [id, r] of Object.entries(reviews)) {
    if (r.verdict === "unmarked") out.add(id);
    if (r.verdict === "source-error") {
      out.delete(id);
      if (r.reads) out.add(r.reads);
    }
  }
  return [...out];
}
