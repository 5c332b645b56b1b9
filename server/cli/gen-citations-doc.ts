/**
 * Measures the citation extractor (lib/citations) on the real samples in tests/fixtures/citations and writes the
 * figures into docs/citations.md between the generated markers. `npm run citations:doc` rewrites the table;
 * `--check` exits 1 when it is stale (tests/unit/citations-quality.test.ts asserts the same).
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { canonicalIds, extractReferences } from "@/lib/citations/extract";
import { qualityRow, reviewedGold, TARGET_PRECISION, TARGET_RECALL, meetsTargets, type QualityRow, type QualitySample, type Review } from "@/lib/citations/quality";
import { juddgesStructuredRefs, legalDocMlStructuredRefs, saosStructuredRefs } from "@/lib/citations/structured";
import type { Reference, StructuredReference } from "@/lib/citations/types";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
export const DOC_PATH = path.join(ROOT, "docs/citations.md");
const FIXTURES = path.join(ROOT, "tests/fixtures/citations");
const BEGIN = "<!-- BEGIN GENERATED: npm run citations:doc -->";
const END = "<!-- END GENERATED -->";

/** Markup to plain text: tags out, entities decoded, comments dropped. */
export function markupText(s: string): string {
  return s
    .replace(/<!--[\s\S]*?-->/g, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/&nbsp;/g, "\u00a0")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)))
    .replace(/&amp;/g, "&");
}

const read = (name: string) => readFileSync(path.join(FIXTURES, name), "utf8");

function samples(source: string, refs: Reference[], gold: StructuredReference[]): QualitySample[] {
  return (["case", "legislation"] as const).map((kind) => ({
    source,
    kind,
    gold: gold.filter((g) => g.kind === kind).map((g) => g.canonicalId),
    found: [...canonicalIds(refs.filter((r) => r.origin === "text"), kind)],
  }));
}

/** A sample's raw figures (against the source's markup as published) and its reviewed ones (reviewed.json applied). */
export interface MeasuredRow extends QualityRow {
  reviewed: QualityRow;
}

/** Every sample's figures, computed from the fixtures. */
export function measure(): MeasuredRow[] {
  const notes = reviewNotes();
  // A source's reviews hold both kinds: provision ids (PL/…, UK/…) review its legislation, the others its cases.
  const ofKind = (s: QualitySample) =>
    Object.fromEntries(Object.entries(notes[s.source] ?? {}).filter(([id]) => /^(?:PL|UK)\//.test(id) === (s.kind === "legislation")));
  return measureSamples().map((s) => ({ ...qualityRow(s), reviewed: qualityRow({ ...s, gold: reviewedGold(s.gold, ofKind(s)) }) }));
}

function measureSamples(): QualitySample[] {
  const saos = (JSON.parse(read("saos-api-judgments-227221.json")) as { data: SaosSample }).data;
  const saosGold = saosStructuredRefs(saos);
  const saosRefs = extractReferences(markupText(saos.textContent), {
    jurisdiction: "PL",
    ownCitations: saos.courtCases.map((c) => c.caseNumber),
  });

  const row = JSON.parse(read("juddges-pl-court-raw-row-v1.json")) as JuddgesSample;
  const juddgesGold = juddgesStructuredRefs(row);
  const juddgesRefs = extractReferences(row.text, { jurisdiction: "PL", ownCitations: [row.signature] });

  const xml = read("fcl-ewca-civ-2025-673.enriched.akn.xml");
  const fclGold = legalDocMlStructuredRefs(xml);
  // The body only: the header restates the judgment's own and the lower court's citations, which are not references.
  const body = xml.slice(xml.indexOf("<judgmentBody"));
  const cite = /<uk:cite>([^<]+)<\/uk:cite>/.exec(xml)?.[1] ?? "";
  const fclRefs = extractReferences(markupText(body), { jurisdiction: "UK", ownCitations: [cite], structured: fclGold });

  return [
    ...samples("SAOS 227221", saosRefs, saosGold),
    ...samples("JuDDGES XVII AmA 14/94", juddgesRefs, juddgesGold),
    ...samples("Find Case Law [2025] EWCA Civ 673", fclRefs, fclGold),
  ]
    .filter((s) => s.gold.length > 0);
}

interface SaosSample {
  textContent: string;
  courtCases: Array<{ caseNumber: string }>;
  referencedRegulations: Parameters<typeof saosStructuredRefs>[0]["referencedRegulations"];
  referencedCourtCases: Parameters<typeof saosStructuredRefs>[0]["referencedCourtCases"];
}

interface JuddgesSample {
  text: string;
  signature: string;
  text_legal_bases: Parameters<typeof juddgesStructuredRefs>[0]["text_legal_bases"];
  references: string[];
}

const VERDICTS = new Set<Review["verdict"]>(["unmarked", "source-error", "not-comparable", "extractor-miss", "extractor-error"]);

/** The hand reviews, by source then canonical id; a review without a known verdict and a note is an error. */
export function reviewNotes(): Record<string, Record<string, Review>> {
  const all = JSON.parse(read("reviewed.json")) as Record<string, unknown>;
  const out: Record<string, Record<string, Review>> = {};
  for (const [k, v] of Object.entries(all)) {
    if (k.startsWith("_") || !v || typeof v !== "object") continue;
    out[k] = {};
    for (const [id, r] of Object.entries(v as Record<string, Partial<Review>>)) {
      if (!r.verdict || !VERDICTS.has(r.verdict) || typeof r.note !== "string") throw new Error(`reviewed.json: ${k} ${id} has no verdict and note`);
      out[k][id] = { verdict: r.verdict, note: r.note, ...(r.reads ? { reads: r.reads } : {}) };
    }
  }
  return out;
}

const fmt = (x: number) => x.toFixed(3);

const VERDICT_WORDS: Record<Review["verdict"], string> = {
  unmarked: "true reference the source does not mark",
  "source-error": "source error",
  "not-comparable": "not comparable",
  "extractor-miss": "extractor miss",
  "extractor-error": "extractor error",
};

export function renderTable(rows: MeasuredRow[], notes = reviewNotes()): string {
  const out: string[] = [
    BEGIN,
    "",
    `Targets: precision ≥ ${TARGET_PRECISION}, recall ≥ ${TARGET_RECALL}. **Raw**: against the source's markup as published.`,
    "**Reviewed**: against the same markup corrected by the hand review below (true references it does not mark added,",
    "its errors removed or replaced by the provision their words read; the extractor's own misses and errors still count).",
    "",
    "| Source | Kind | Marked by source | Found | Both | Precision | Recall | Targets | Reviewed: marked | Both | Precision | Recall | Targets |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
  ];
  const met = (r: QualityRow) => (meetsTargets(r) ? "met" : "**not met**");
  for (const r of rows) {
    const v = r.reviewed;
    out.push(
      `| ${r.source} | ${r.kind} | ${r.gold} | ${r.found} | ${r.truePositives} | ${fmt(r.precision)} | ${fmt(r.recall)} | ${met(r)} | ${v.gold} | ${v.truePositives} | ${fmt(v.precision)} | ${fmt(v.recall)} | ${met(v)} |`,
    );
  }
  out.push("", "Every difference from the source's markup, with the hand review of `tests/fixtures/citations/reviewed.json`:", "");
  const line = (r: QualityRow, what: string, id: string) => {
    const n = notes[r.source]?.[id];
    const reads = n?.reads ? ` (reviewed as \`${n.reads}\`)` : "";
    return `- ${r.source}, ${r.kind}, ${what}: \`${id}\` — ${n ? `${VERDICT_WORDS[n.verdict]}${reads}: ${n.note}` : "not reviewed"}`;
  };
  for (const r of rows) {
    for (const id of r.falsePositives) out.push(line(r, "found but not marked", id));
    for (const id of r.misses) out.push(line(r, "marked but not found", id));
  }
  if (rows.every((r) => r.falsePositives.length === 0 && r.misses.length === 0)) out.push("- none");
  const left = rows.flatMap((r) => [...r.reviewed.falsePositives, ...r.reviewed.misses].map((id) => `\`${id}\` (${r.source})`));
  out.push("", `Differences left after the review: ${left.length ? left.join(", ") : "none"}.`);
  out.push("", END);
  return out.join("\n");
}

/** The doc with its generated part replaced by the figures of `rows`. */
export function renderCitationsDoc(current: string, rows: MeasuredRow[] = measure()): string {
  const a = current.indexOf(BEGIN);
  const b = current.indexOf(END);
  if (a < 0 || b < a) throw new Error(`docs/citations.md has no generated section (${BEGIN} … ${END})`);
  return current.slice(0, a) + renderTable(rows) + current.slice(b + END.length);
}

function main(): void {
  const current = readFileSync(DOC_PATH, "utf8");
  const next = renderCitationsDoc(current);
  if (process.argv.includes("--check")) {
    if (current !== next) {
      console.error("docs/citations.md is stale: run `npm run citations:doc`.");
      process.exit(1);
    }
    return;
  }
  if (current !== next) writeFileSync(DOC_PATH, next);
  console.log(current === next ? "docs/citations.md is up to date." : "docs/citations.md written.");
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
