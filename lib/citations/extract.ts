/**
 * The citator's extractor: every case, legislation and guideline reference of a judgment's text, merged with the
 * references its source marks (structured), deterministic and without a model. Resolution to corpus judgments comes
 * later (server/cli/citations-rebuild.ts); here `resolved` is false.
 */
import { ukActByTitle } from "./acts";
import { provisionAncestors } from "./canonical";
import { extractCaseRefs } from "./case-refs";
import { extractPlLegislation, extractUkLegislation } from "./legislation-refs";
import type { Jurisdiction, Reference, StructuredReference } from "./types";

/**
 * Version of the extractor's rules, stored with each reference row: a change of rules is a reason to rebuild.
 * v2: a superscript split before "§" ("art. 4793 1§ 1"), a guideline named after "the Sentencing Council's".
 */
export const EXTRACTOR_VERSION = "citations-v2";

export interface ExtractOptions {
  /** The judgment's jurisdiction; guessed from the text when absent (UK section syntax is not read in PL text: "s. 12" is a page there). */
  jurisdiction?: Jurisdiction;
  /** The citing judgment's own case numbers / neutral citation: not references. */
  ownCitations?: readonly string[];
  /** References the source marks itself (lib/citations/structured.ts); those not found in the text are appended. */
  structured?: readonly StructuredReference[];
}

const PL_HINT = /[ąęłńśźż]|\bart\.\s*\d/giu;
const UK_HINT = /\b(?:the|section|of|and)\b/g;

export function guessJurisdiction(text: string): Jurisdiction {
  const sample = text.slice(0, 20000);
  const pl = sample.match(PL_HINT)?.length ?? 0;
  const uk = sample.match(UK_HINT)?.length ?? 0;
  return pl > uk ? "PL" : "UK";
}

/**
 * UK acts outside the table get `act/<title>-<year>` ids; a structured reference that names such an act with its
 * legislation.gov.uk id ("Freedom of Information Act 2000" → `UK/ukpga/2000/36`) teaches the proper id.
 */
function actAliases(structured: readonly StructuredReference[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const s of structured) {
    if (s.kind !== "legislation" || s.jurisdiction !== "UK") continue;
    const id = /^UK\/(ukpga\/\d{4}\/\d+)$/.exec(s.canonicalId)?.[1];
    const t = /^(?:the\s+)?(.+?\s+Act)\s+(\d{4})$/i.exec(s.text.trim());
    if (!id || !t || ukActByTitle(t[1], Number(t[2]))) continue;
    const slug = t[1].toLowerCase().replace(/^the\s+/, "").replace(/[^a-z0-9]+/g, " ").trim().replace(/ /g, "-");
    out.set(`UK/act/${slug}-${t[2]}`, `UK/${id}`);
  }
  return out;
}

function rewrite(id: string | null, aliases: Map<string, string>): string | null {
  if (!id || aliases.size === 0) return id;
  for (const [from, to] of aliases) if (id === from || id.startsWith(`${from}/`)) return to + id.slice(from.length);
  return id;
}

/** Every reference of `text`, in order of position, then the structured references the text does not show. */
export function extractReferences(text: string, options: ExtractOptions = {}): Reference[] {
  const jurisdiction = options.jurisdiction ?? guessJurisdiction(text);
  const refs: Reference[] = [
    ...extractCaseRefs(text, { ownCitations: options.ownCitations }),
    ...(jurisdiction === "PL" ? extractPlLegislation(text) : extractUkLegislation(text)),
  ];
  const structured = options.structured ?? [];
  const aliases = actAliases(structured);
  for (const r of refs) r.canonicalId = rewrite(r.canonicalId, aliases);
  refs.sort((a, b) => (a.start ?? 0) - (b.start ?? 0));
  if (structured.length === 0) return refs;
  // A structured reference is in the text when the text cites it or something inside it (a section of the act).
  const seen = new Set<string>();
  for (const r of refs) {
    if (!r.canonicalId) continue;
    seen.add(r.canonicalId);
    for (const a of r.kind === "legislation" ? provisionAncestors(r.canonicalId) : []) seen.add(a);
  }
  for (const s of structured) {
    if (seen.has(s.canonicalId)) continue;
    seen.add(s.canonicalId);
    refs.push({ kind: s.kind, jurisdiction: s.jurisdiction, start: null, end: null, text: s.text, canonicalId: s.canonicalId, resolved: false, origin: "structured" });
  }
  return refs;
}

/** The distinct canonical ids of references of one kind. */
export function canonicalIds(refs: readonly Reference[], kind: Reference["kind"]): Set<string> {
  return new Set(refs.filter((r) => r.kind === kind && r.canonicalId).map((r) => r.canonicalId as string));
}
