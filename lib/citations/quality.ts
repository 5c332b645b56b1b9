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
