/**
 * What a hit looks like: the projection of the stored document (attributesToRetrieve; one frozen object per
 * document for the default) and its `formatted` values (highlights and crops, highlight.ts).
 */
import { DISPLAYED_ATTRIBUTES } from "../index-settings";
import type { HitDocument, SearchDocumentsRequest, SearchHit } from "../types";
import { crop, highlight, type MarkTerms } from "./highlight";
import type { StoredDoc } from "./live-index";
import { docTextWords } from "./text-words";

const DISPLAYED = new Set(DISPLAYED_ATTRIBUTES);
/** Read per hit: a module-local copy (an imported binding is a getter call under the CommonJS interop). */
const ALL_DISPLAYED = DISPLAYED_ATTRIBUTES;

/** Which attributes a hit's `formatted` holds and how (worked out once per request, not per hit). */
interface FormatAttr {
  name: string;
  crop: boolean;
  highlight: boolean;
}

export interface FormatPlan {
  attrs: FormatAttr[];
  cropLength: number;
}

/** What project() copies for a request: the displayed attributes asked for, in order, and whether `id` is kept. */
export interface Projection {
  keys: readonly string[];
  id: boolean;
}

export function projection(attrs: readonly string[] | undefined): Projection {
  // "*" anywhere means every displayed attribute (and id), whatever else is listed.
  if (!attrs || attrs.includes("*")) return { keys: DISPLAYED_ATTRIBUTES, id: true };
  return { keys: attrs.filter((k) => DISPLAYED.has(k)), id: attrs.includes("id") };
}

/**
 * Full projections (every displayed attribute, the default) made once per stored document and frozen: the same object
 * for every hit of that document, so a repeated hit costs no projection work. The map dies with the generation's
 * documents.
 */
const fullProjections = new WeakMap<StoredDoc, HitDocument>();

/** The hit document: the projected attributes that are not null, `id` first when kept. */
function projectWith(doc: StoredDoc, p: Projection): HitDocument {
  const full = p.id && p.keys === ALL_DISPLAYED;
  if (full) {
    const cached = fullProjections.get(doc);
    if (cached) return cached;
  }
  const out = (p.id ? { id: doc.id } : {}) as HitDocument;
  for (const k of p.keys) {
    const v = doc[k];
    if (v !== null && v !== undefined) out[k] = v;
  }
  if (full) fullProjections.set(doc, Object.freeze(out));
  return out;
}

/** A stored value formatted; its words are indexed once per document and attribute (text-words.ts). */
function formatValue(doc: StoredDoc, s: string, index: number, a: FormatAttr, plan: FormatPlan, marks: MarkTerms): string {
  if (!a.crop && (!a.highlight || marks.size === 0)) return highlight(s, NO_MARKS);
  const words = docTextWords(doc, a.name, s, index);
  return a.crop ? crop(s, marks, plan.cropLength, a.highlight, words) : highlight(s, marks, words);
}

const NO_MARKS: MarkTerms = new Map();

export function formatPlan(
  req: Pick<SearchDocumentsRequest, "attributesToHighlight" | "attributesToCrop" | "cropLength">,
): FormatPlan | null {
  const hl = req.attributesToHighlight ?? [];
  const cr = req.attributesToCrop ?? [];
  if (hl.length === 0 && cr.length === 0) return null;
  const all = (xs: readonly string[]) => (xs.includes("*") ? DISPLAYED_ATTRIBUTES : xs);
  const hlSet = new Set(all(hl).filter((a) => DISPLAYED.has(a)));
  const crSet = new Set(all(cr).filter((a) => DISPLAYED.has(a)));
  return {
    attrs: [...new Set([...hlSet, ...crSet])].map((name) => ({
      name,
      crop: crSet.has(name),
      highlight: hlSet.has(name),
    })),
    cropLength: req.cropLength ?? 10,
  };
}

export function project(doc: StoredDoc, attrs: readonly string[] | undefined): HitDocument {
  return projectWith(doc, projection(attrs));
}

/** A ranked document as a hit: its projection, the score clamped to [0, 1], and `formatted` when the plan asks. */
export function formatHit(doc: StoredDoc, score: number, proj: Projection, plan: FormatPlan | null, marks: MarkTerms): SearchHit {
  const hit: SearchHit = { document: projectWith(doc, proj), score: Math.max(0, Math.min(1, score)) };
  if (plan) {
    const formatted: Record<string, string | string[]> = {};
    for (const a of plan.attrs) {
      const v = doc[a.name];
      if (typeof v === "string") formatted[a.name] = formatValue(doc, v, -1, a, plan, marks);
      else if (Array.isArray(v) && v.every((x) => typeof x === "string")) {
        formatted[a.name] = (v as string[]).map((x, i) => formatValue(doc, x, i, a, plan, marks));
      }
    }
    hit.formatted = formatted;
  }
  return hit;
}
