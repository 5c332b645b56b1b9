/**
 * JSON of a search answer, with each hit's document fields serialised once per document: JSON.stringify of the hit
 * documents was a fifth of a search's server time (20 hits, ~40 KB). The engine hands out one frozen object per
 * stored document for the default projection (lib/search/lancedb/format.ts), so a WeakMap keyed by it holds that
 * document's JSON for as long as the document lives; other engines return fresh objects and simply miss the cache.
 * The output is byte-for-byte JSON.stringify of the answer (tests/unit/search-json.test.ts).
 */
import type { HitDocument } from "@/lib/search/types";

/** What a hit of the HTTP answer is made of: the document, `_formatted` and `_ranking_score`, in that key order. */
export interface ApiHitParts {
  document: HitDocument;
  formatted: Record<string, unknown>;
  score: number;
}

const PARTS = Symbol("apiHitParts");
const documentJson = new WeakMap<object, string>();

/** A hit of the HTTP answer (`{...document, _formatted, _ranking_score}`) that remembers its parts. */
export function apiHit(parts: ApiHitParts): Record<string, unknown> {
  const hit: Record<string, unknown> = { ...parts.document, _formatted: parts.formatted, _ranking_score: parts.score };
  Object.defineProperty(hit, PARTS, { value: parts, enumerable: false });
  return hit;
}

/** The document's fields as JSON without the braces ("" for no fields). */
function fieldsJson(document: HitDocument): string {
  let json = documentJson.get(document);
  if (json === undefined) {
    json = JSON.stringify(document).slice(1, -1);
    if (Object.isFrozen(document)) documentJson.set(document, json);
  }
  return json;
}

function hitJson(hit: Record<string, unknown>): string {
  const parts = (hit as { [PARTS]?: ApiHitParts })[PARTS];
  if (!parts) return JSON.stringify(hit);
  // A document key named like the extras would be overwritten by them in the object: let JSON.stringify decide.
  if ("_formatted" in parts.document || "_ranking_score" in parts.document) return JSON.stringify(hit);
  const fields = fieldsJson(parts.document);
  return `{${fields}${fields ? "," : ""}"_formatted":${JSON.stringify(parts.formatted)},"_ranking_score":${JSON.stringify(parts.score)}}`;
}

/** JSON.stringify(body), reusing the serialised fields of hits made by `apiHit`. */
export function searchAnswerJson(body: { hits: Record<string, unknown>[] } & Record<string, unknown>): string {
  const { hits, ...rest } = body;
  const restJson = JSON.stringify(rest);
  const hitsJson = `"hits":[${hits.map(hitJson).join(",")}]`;
  // Key order as in the object: hits first when it was first.
  const keys = Object.keys(body);
  if (keys[0] === "hits") return restJson === "{}" ? `{${hitsJson}}` : `{${hitsJson},${restJson.slice(1)}`;
  return JSON.stringify(body);
}
