/** Raw Meilisearch hits → the port's hit documents and escaped `formatted` values. */
import { escapeHtml } from "@/lib/text/html";
import { HIGHLIGHT_POST_TAG, HIGHLIGHT_PRE_TAG } from "../index-settings";
import type { HitDocument, IndexValue, SearchHit } from "../types";
import type { Raw } from "./connection";
import { keepsMark } from "../text/markable";

/** Meilisearch document ids: alphanumerics, `-` and `_` only (documented `invalid_document_id`). */
export const DOC_ID = /^[A-Za-z0-9_-]{1,511}$/;


/**
 * HTML-escape a `_formatted` value while keeping the engine's `<mark>` tags (types.ts: formatted strings are
 * escaped). The engine inserts tags into the raw text, so everything between the tags is escaped here.
 */
export function escapeMarked(text: string): string {
  const parts = text.split(/(<mark>|<\/mark>)/);
  let out = "";
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    // A mark on a stop-word or a one-letter word (an initial) is dropped, as the embedded engine never sets it
    // (text/markable.ts); Meilisearch marks every query word it matched.
    if (part === HIGHLIGHT_PRE_TAG && parts[i + 2] === HIGHLIGHT_POST_TAG && !keepsMark(parts[i + 1])) {
      out += escapeHtml(parts[i + 1]);
      i += 2;
      continue;
    }
    out += part === HIGHLIGHT_PRE_TAG || part === HIGHLIGHT_POST_TAG ? part : escapeHtml(part);
  }
  return out;
}

function isIndexValue(v: unknown): v is IndexValue {
  return (
    typeof v === "string" ||
    typeof v === "number" ||
    typeof v === "boolean" ||
    (Array.isArray(v) && v.every((x) => typeof x === "string" || (x !== null && typeof x === "object")))
  );
}

/** A raw hit → displayed document: engine fields (`_formatted`, `_rankingScore`, `_vectors`), full_text and
 * null-valued keys removed (spec: null-valued keys are omitted from hits; full_text is never returned). */
export function toHitDocument(raw: Raw): HitDocument {
  const out: HitDocument = { id: String(raw.id) };
  for (const [k, v] of Object.entries(raw)) {
    if (k === "id" || k.startsWith("_") || k === "full_text" || v === null || v === undefined) continue;
    if (isIndexValue(v)) out[k] = v;
  }
  return out;
}

export function formattedOf(raw: Raw, attributes: Set<string>, all: boolean): SearchHit["formatted"] {
  const f = raw._formatted as Raw | undefined;
  if (!f || (attributes.size === 0 && !all)) return undefined;
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(f)) {
    if (!(all || attributes.has(k)) || k === "full_text") continue;
    if (typeof v === "string") out[k] = escapeMarked(v);
    else if (Array.isArray(v) && v.every((x) => typeof x === "string")) out[k] = (v as string[]).map(escapeMarked);
  }
  return out;
}
