/**
 * What a hit looks like: the projection of the stored document (attributesToRetrieve; one frozen object per
 * document for the default) and its `formatted` values (highlights and crops, highlight.ts).
 */
import { DISPLAYED_ATTRIBUTES } from "../index-settings";
import type { HitDocument, SearchDocumentsRequest, SearchHit } from "../types";
import * as highlightModule from "./highlight";
import type { MarkTerms } from "./highlight";
import type { StoredDoc } from "./live-index";
import * as textWordsModule from "./text-words";
import type { DocWords, TextWords } from "./text-words";

const DISPLAYED = new Set(DISPLAYED_ATTRIBUTES);
/*
 * Read per hit or per value: module-local copies (an imported binding is a getter call under the CommonJS interop tsx
 * and the bundler emit).
 */
const ALL_DISPLAYED = DISPLAYED_ATTRIBUTES;
const crop = highlightModule.crop;
const highlight = highlightModule.highlight;
const valueWords = textWordsModule.valueWords;
const isCurrent = textWordsModule.isCurrent;

/** Which attributes a hit's `formatted` holds and how (worked out once per request, not per hit). */
interface FormatAttr {
  name: string;
  /** Its place in a document's DocWords (text-words.ts attrSlot). */
  slot: number;
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
 * Per stored document, made on its first hit and kept while the document lives (a replaced document is a new object;
 * the map dies with the generation's documents): its full projection (every displayed attribute, the default), frozen,
 * so a repeated hit costs no projection work; and the word indexes of its formatted values (text-words.ts). One
 * lookup per hit serves both.
 */
interface DocView {
  full: HitDocument | undefined;
  words: DocWords;
}
const views = new WeakMap<StoredDoc, DocView>();

function viewOf(doc: StoredDoc): DocView {
  let v = views.get(doc);
  if (v === undefined) {
    v = { full: undefined, words: [] };
    views.set(doc, v);
  }
  return v;
}

/** The hit document: the projected attributes that are not null, `id` first when kept. */
function projectWith(doc: StoredDoc, p: Projection, view: DocView | undefined): HitDocument {
  if (view !== undefined && view.full !== undefined) return view.full;
  const out = (p.id ? { id: doc.id } : {}) as HitDocument;
  for (const k of p.keys) {
    const v = doc[k];
    if (v !== null && v !== undefined) out[k] = v;
  }
  if (view !== undefined) view.full = Object.freeze(out);
  return out;
}

function isFull(p: Projection): boolean {
  return p.id && p.keys === ALL_DISPLAYED;
}

/** Whether a value's words were indexed under an older vocabulary epoch (text-words.ts) and must be indexed again. */
function stale(e: TextWords | TextWords[] | null): boolean {
  if (e === null) return false;
  if (!Array.isArray(e)) return !isCurrent(e);
  for (const tw of e) if (!isCurrent(tw)) return true;
  return false;
}

/** A stored value formatted from its indexed words. */
function formatWords(tw: TextWords, a: FormatAttr, plan: FormatPlan, marks: MarkTerms): string {
  return a.crop ? crop(tw.text, marks, plan.cropLength, a.highlight, tw) : highlight(tw.text, a.highlight ? marks : NO_MARKS, tw);
}

const NO_MARKS: MarkTerms = new Map();

/**
 * The last plan made and what it was made from: a page's requests ask for the same format (SEARCH_HIT_FORMAT), so it
 * is worked out once, not per request. Compared by value (a caller may reuse and change its arrays).
 */
let lastPlan: { hl: string[]; cr: string[]; cropLength: number | undefined; plan: FormatPlan | null } | null = null;

function sameList(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export function formatPlan(
  req: Pick<SearchDocumentsRequest, "attributesToHighlight" | "attributesToCrop" | "cropLength">,
): FormatPlan | null {
  const hl = req.attributesToHighlight ?? [];
  const cr = req.attributesToCrop ?? [];
  if (hl.length === 0 && cr.length === 0) return null;
  const last = lastPlan;
  if (last !== null && last.cropLength === req.cropLength && sameList(last.hl, hl) && sameList(last.cr, cr)) return last.plan;
  const all = (xs: readonly string[]) => (xs.includes("*") ? DISPLAYED_ATTRIBUTES : xs);
  const hlSet = new Set(all(hl).filter((a) => DISPLAYED.has(a)));
  const crSet = new Set(all(cr).filter((a) => DISPLAYED.has(a)));
  const plan: FormatPlan = {
    attrs: [...new Set([...hlSet, ...crSet])].map((name) => ({
      name,
      slot: textWordsModule.attrSlot(name),
      crop: crSet.has(name),
      highlight: hlSet.has(name),
    })),
    cropLength: req.cropLength ?? 10,
  };
  lastPlan = { hl: [...hl], cr: [...cr], cropLength: req.cropLength, plan };
  return plan;
}

export function project(doc: StoredDoc, attrs: readonly string[] | undefined): HitDocument {
  const p = projection(attrs);
  return projectWith(doc, p, isFull(p) ? viewOf(doc) : undefined);
}

/** A ranked document as a hit: its projection, the score clamped to [0, 1], and `formatted` when the plan asks. */
export function formatHit(doc: StoredDoc, score: number, proj: Projection, plan: FormatPlan | null, marks: MarkTerms): SearchHit {
  const view = plan !== null || isFull(proj) ? viewOf(doc) : undefined;
  const hit: SearchHit = { document: projectWith(doc, proj, isFull(proj) ? view : undefined), score: Math.max(0, Math.min(1, score)) };
  if (plan !== null) {
    const words = (view as DocView).words;
    const formatted: Record<string, string | string[]> = {};
    for (const a of plan.attrs) {
      // A stored document is never changed (an update stores a new object), so its value's words, once indexed, are
      // its value: the document itself is read only the first time.
      let e = words[a.slot];
      if (e === undefined || stale(e)) {
        e = valueWords(doc[a.name]);
        words[a.slot] = e;
      }
      if (e === null) continue;
      formatted[a.name] = Array.isArray(e) ? e.map((tw) => formatWords(tw, a, plan, marks)) : formatWords(e, a, plan, marks);
    }
    hit.formatted = formatted;
  }
  return hit;
}
